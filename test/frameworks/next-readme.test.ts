/**
 * The Next.js and SolidStart getting-started pages (docs/getting-started/), as a user copies them:
 * every snippet of those pages type-checks as the file its first comment names (against this
 * repository's `src`, through the package's own `exports`), and the Next.js route handler and proxy
 * are exactly the files of examples/next, which next.browser.test.ts builds with `next build` and
 * drives in Chromium.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import ts from "typescript"
import { afterAll, describe, expect, it } from "vitest"
import { root } from "./example-app.js"

/** The TypeScript code blocks of a docs page, in order: one app's files, step by step. */
function pageBlocks(page: string): string[] {
  const markdown = readFileSync(`${root}docs/${page}`, "utf8")
  return [...markdown.matchAll(/```tsx?\n([\s\S]*?)```/g)].map((match) => match[1]!)
}

/** The file a snippet says it is: its first line, `// path` (anything after a space is a comment). */
function fileOf(snippet: string): string {
  const first = /^\/\/ (\S+)/.exec(snippet)
  if (!first) throw new Error(`a getting-started snippet does not start with "// <file>":\n${snippet}`)
  return first[1]!
}

const next = pageBlocks("getting-started/nextjs.md")
const solid = pageBlocks("getting-started/solid-start.md")
const snippetOf = (snippets: string[], file: string) => snippets.find((snippet) => fileOf(snippet) === file)!

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

// Inside the repository, so that the apps' own imports (next/link, solid-js, …) resolve from node_modules.
mkdirSync(`${root}test-output`, { recursive: true })
const scratch = mkdtempSync(join(`${root}test-output`, "getting-started-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Writes the snippets into an app directory and type-checks them as the app's files. */
function typeErrors(app: string, snippets: string[], jsxImportSource = "react"): string[] {
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
    jsxImportSource,
    baseUrl: dir,
    paths: { "@/*": [`${dir}/*`], "~/*": [`${dir}/src/*`], ...authflowPaths() },
  })
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName.startsWith(dir))
    .map((diagnostic) => `${diagnostic.file!.fileName.slice(dir.length + 1)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`)
}

describe("the Next.js and SolidStart getting-started pages", () => {
  it("Next.js: each snippet names its file, and together they type-check", () => {
    expect(next.map(fileOf)).toEqual(["auth.ts", "app/api/auth/[...nextauth]/route.ts", "proxy.ts", "app/page.tsx", "app/actions.ts", "app/signin/form.tsx", "app/signin/page.tsx"])
    expect(typeErrors("next", next)).toEqual([])
  }, 120_000)

  it("Next.js: examples/next uses the route handler and the proxy exactly as the page gives them", () => {
    for (const snippet of [snippetOf(next, "app/api/auth/[...nextauth]/route.ts"), snippetOf(next, "proxy.ts")]) {
      // The example's proxy also skips its second, edge-runtime auth route (/api/edge-auth), which the page's app does not have.
      const file = readFileSync(`${root}examples/next/${fileOf(snippet)}`, "utf8").replace("api/edge-auth/|", "")
      expect(file, fileOf(snippet)).toBe(snippet)
    }
  })

  it("Next.js: the proxy's matcher leaves out authflow's routes and static assets, and keeps pages and other API routes", () => {
    const source = snippetOf(next, "proxy.ts")
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

  it("SolidStart: each snippet names its file, imports what it uses, and together they type-check", () => {
    expect(solid.map(fileOf)).toEqual(["src/auth.ts", "src/routes/api/auth/[...solidauth].ts", "src/routes/index.tsx"])
    expect(typeErrors("solid-start", solid, "solid-js")).toEqual([])
  }, 120_000)
})
