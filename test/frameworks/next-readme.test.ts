/**
 * The README's Next.js and SolidStart quick starts, as a user copies them: every snippet of those
 * sections type-checks as the file its first comment names (against this repository's `src`, through
 * the package's own `exports`), and the Next.js route handler and proxy are exactly the files of
 * examples/next, which next.browser.test.ts builds with `next build` and drives in Chromium.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import ts from "typescript"
import { afterAll, describe, expect, it } from "vitest"
import { root } from "./example-app.js"

/** The code blocks of the README section under `heading`, up to the next heading of its level or above. */
function sectionBlocks(heading: string): string[] {
  const readme = readFileSync(`${root}README.md`, "utf8")
  const start = readme.indexOf(`\n${heading}\n`)
  if (start < 0) throw new Error(`README.md has no section "${heading}"`)
  const level = heading.split(" ")[0]!
  const rest = readme.slice(start + heading.length + 2)
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `))
  const section = end < 0 ? rest : rest.slice(0, end)
  return [...section.matchAll(/```tsx?\n([\s\S]*?)```/g)].map((match) => match[1]!)
}

/** The file a snippet says it is: its first line, `// path` (anything after a space is a comment). */
function fileOf(snippet: string): string {
  const first = /^\/\/ (\S+)/.exec(snippet)
  if (!first) throw new Error(`a README snippet does not start with "// <file>":\n${snippet}`)
  return first[1]!
}

const next = sectionBlocks("### Next.js (`authflow/next`)")
const solid = sectionBlocks("### SolidStart (`authflow/solid-start`)")

/** `authflow/...` → the source file its `exports` entry is built from. */
function authflowPaths(): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { exports: Record<string, string | { import: string }> }
  const paths: Record<string, string[]> = {}
  for (const [key, value] of Object.entries(manifest.exports)) {
    const target = typeof value === "string" ? value : value.import
    if (!target.startsWith("./dist/")) continue
    paths[`authflow${key.slice(1)}`] = [`${root}src/${target.slice("./dist/".length).replace(/\.js$/, ".ts")}`]
  }
  return paths
}

const scratch = mkdtempSync(join(tmpdir(), "authflow-readme-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Writes the snippets into an app directory and type-checks them as the app's files. */
function typeErrors(app: string, snippets: string[]): string[] {
  const dir = join(scratch, app)
  const files = snippets.map((snippet) => {
    const file = join(dir, fileOf(snippet))
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, snippet)
    return file
  })
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: ["node"],
    typeRoots: [`${root}node_modules/@types`],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    esModuleInterop: true,
    isolatedModules: true,
    jsx: ts.JsxEmit.ReactJSX,
    jsxImportSource: "react",
    baseUrl: dir,
    paths: { "@/*": [`${dir}/*`], "~/*": [`${dir}/src/*`], ...authflowPaths() },
  })
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName.startsWith(dir))
    .map((diagnostic) => `${diagnostic.file!.fileName.slice(dir.length + 1)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`)
}

describe("README quick starts", () => {
  it("Next.js: each snippet names its file, and together they type-check", () => {
    expect(next.map(fileOf)).toEqual(["auth.ts", "app/api/auth/[...nextauth]/route.ts", "proxy.ts", "app/actions.ts", "app/signin/form.tsx"])
    expect(typeErrors("next", next)).toEqual([])
  }, 120_000)

  it("Next.js: examples/next uses the route handler and the proxy exactly as the README gives them", () => {
    for (const snippet of next.slice(1, 3)) {
      expect(readFileSync(`${root}examples/next/${fileOf(snippet)}`, "utf8"), fileOf(snippet)).toBe(snippet)
    }
  })

  it("Next.js: the proxy's matcher leaves out authflow's routes and static assets, and keeps pages and other API routes", () => {
    const source = next.find((snippet) => fileOf(snippet) === "proxy.ts")!
    const pattern = JSON.parse(/matcher: \[("(?:[^"\\]|\\.)*")\]/.exec(source)![1]!) as string
    // Next compiles a matcher with path-to-regexp; this one is a single unnamed group over the path.
    const matches = (path: string) => new RegExp(`^${pattern}$`).test(path)
    for (const path of ["/api/auth/session", "/api/auth/callback/github", "/_next/static/chunks/app.js", "/_next/image", "/favicon.ico", "/logo.svg", "/robots.txt"]) {
      expect(matches(path), path).toBe(false)
    }
    for (const path of ["/", "/dashboard", "/admin/users/1", "/api/orders", "/api/authors", "/profile/ada.lovelace"]) {
      expect(matches(path), path).toBe(true)
    }
  })

  it("SolidStart: the snippet imports what it uses and type-checks", () => {
    expect(solid.map(fileOf)).toEqual(["src/routes/api/auth/[...solidauth].ts"])
    expect(typeErrors("solid-start", solid)).toEqual([])
  }, 120_000)
})
