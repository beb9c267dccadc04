/**
 * Every TypeScript and JavaScript block of README.md and of every page under docs/ is type-checked,
 * so that a snippet cannot rot: each ```ts, ```tsx, ```js or ```mjs block is written
 * to a file in a temporary directory inside the repository, where `authflow` and `authflow/*`
 * resolve to `src` (following package.json `exports`), and `tsc` checks them all at once.
 *
 * - **Files.** A block whose first line is a path comment (`// auth.ts`, `// src/hooks.server.ts`,
 *   `// server.mjs: run with …`) is written to that path; others to `snippet-<n>.ts`. A block is
 *   split at each further path-comment line (`// proxy.ts …`) into several files. Blocks of one
 *   page under the same heading share a directory, and so do all the blocks of a getting-started
 *   page (one app, step by step), so `./auth` and `@/auth` find the `auth.ts` block beside them. A
 *   relative import no block of the section provides (your own `./auth`) gets a stub.
 * - **JSX.** A ```tsx block is React unless it imports Solid (`solid-js`) or Qwik
 *   (`@builder.io/qwik`): each file gets its framework's `@jsxImportSource`.
 * - **Placeholders.** Names a snippet uses without defining them (`adapter`, `request`, `config`, …)
 *   are declared once, with their real types, in `placeholders` below.
 * - **Fragments.** A block that cannot compile on its own is marked in its page by
 *   `<!-- readme-check: skip <reason> -->` on the line before it. Keep them rare.
 *
 * The provider table (docs/guides/providers.md) is also checked against `src/providers`, the
 * troubleshooting page against the configuration errors `src` raises, every internal link of the
 * README, CONTRIBUTING.md and the docs against the files and headings it points at, and the README's
 * size (at most 15 KB: a map, the rest is in docs/).
 */
import { createHash } from "node:crypto"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { providerEnvVariable } from "../src/core/env.js"

const root = new URL("..", import.meta.url).pathname
const readme = readFileSync(join(root, "README.md"), "utf8")

/** The docs' Markdown files, relative to the repository: docs/ without the generated API reference. */
function docsPages(dir = "docs"): string[] {
  const pages: string[] = []
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) {
      if (path !== "docs/reference/api" && !entry.name.startsWith(".")) pages.push(...docsPages(path))
    } else if (entry.name.endsWith(".md")) pages.push(path)
  }
  return pages.sort()
}

/** Every Markdown file whose blocks are checked: the README and the docs. */
const checkedFiles = ["README.md", ...docsPages()]
const read = (file: string) => readFileSync(join(root, file), "utf8")

/** One fenced code block of the README or a docs page. */
interface Block {
  file: string
  index: number
  line: number
  lang: string
  code: string
  section: string
  skip?: string
}

/** The fenced blocks, with the heading they sit under and their skip marker, if any. */
function blocksOf(markdown: string, file = "README.md"): Block[] {
  const blocks: Block[] = []
  let section = "top"
  // A getting-started page builds one app step by step: all its blocks are files of that app.
  const oneApp = file.startsWith("docs/getting-started/")
  const lines = markdown.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const heading = /^(#{2,3}) (.+)/.exec(lines[i]!)
    if (heading && !oneApp) section = heading[2]!
    const fence = /^```(\w*)\s*$/.exec(lines[i]!)
    if (!fence) continue
    const start = i
    const body: string[] = []
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!)
    let before = start - 1
    while (before >= 0 && lines[before]!.trim() === "") before--
    const marker = /^<!-- readme-check: skip (.*?)\s*-->$/.exec(lines[before]?.trim() ?? "")
    blocks.push({ file, index: blocks.length, line: start + 1, lang: fence[1]!, code: body.join("\n") + "\n", section, ...(marker && { skip: marker[1] }) })
  }
  return blocks
}

const checked = new Set(["ts", "tsx", "js", "mjs", "typescript", "javascript"])

/**
 * Blocks another change in flight is fixing (issue 13, finding 2: the Next.js and SolidStart quick
 * starts), by the hash of their text: each is checked again as soon as its text changes.
 */
const fixedElsewhere = new Map<string, string>([
  ["4bbdb951cf87", "Next.js route: `export { GET, POST } from \"@/auth\"` (issue 13, finding 2)"],
  ["c445daf5689f", "SolidStart: GitHub is used without its import (issue 13, finding 2)"],
])

const hashOf = (code: string) => createHash("sha256").update(code).digest("hex").slice(0, 12)

/** Names README snippets use without defining them: what they stand for, typed as the real thing. */
const placeholders = `
import type { AuthConfig } from "authflow"
import type { Adapter } from "authflow/adapters"
declare global {
  /** An OAuth client's id and secret. */
  const clientId: string
  const clientSecret: string
  /** Your adapter (see "Adapters"). */
  const adapter: Adapter
  /** Your configuration, as the other snippets build it. */
  const config: AuthConfig
  const authConfig: AuthConfig
  /** The request being served. */
  const request: Request
}
export {}
`

/** SvelteKit's virtual modules, which its Vite plugin provides in a real app, and the Qwik starter's one plugin authflow does not install. */
const ambientModules = `
declare module "$app/paths" { export const base: string }
declare module "$app/environment" { export const dev: boolean }
declare module "$env/dynamic/private" { export const env: Record<string, string | undefined> }
declare module "vite-tsconfig-paths" {
  /** The Qwik starter's plugin for its tsconfig \`paths\` (\`~/*\`); not a dependency of authflow. */
  export default function tsconfigPaths(options?: { root?: string }): import("vite").Plugin
}
`

/** tsconfig paths for \`authflow\` and \`authflow/*\`, from package.json exports, onto src. */
function authflowPaths(fromDir: string): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, { types?: string } | string> }
  const paths: Record<string, string[]> = {}
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const types = typeof target === "string" ? undefined : target.types
    if (!types) continue
    const source = types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts")
    paths[subpath === "." ? "authflow" : `authflow/${subpath.slice(2)}`] = [relative(fromDir, join(root, source))]
  }
  return paths
}

/**
 * The files a block holds: it is split at each line that is only a path comment (`// proxy.ts …`),
 * so one block may show several files. `offset` is the line of the part within the block.
 */
function filesOf(block: Block): { name?: string; code: string; offset: number }[] {
  const parts: { name?: string; code: string; offset: number }[] = []
  const lines = block.code.split("\n")
  let current: { name?: string; lines: string[]; offset: number } = { lines: [], offset: 0 }
  lines.forEach((line, index) => {
    const named = /^\/\/ ([\w@.[\]$+/-]+\.(?:ts|tsx|js|mjs))\b/.exec(line)?.[1]
    if (named) {
      if (current.lines.some((text) => text.trim())) parts.push({ ...(current.name && { name: current.name }), code: current.lines.join("\n") + "\n", offset: current.offset })
      // The path comment stays as the file's first line, so line numbers keep matching the README.
      current = { name: named, lines: [line], offset: index }
    } else {
      current.lines.push(line)
    }
  })
  if (current.lines.some((text) => text.trim())) parts.push({ ...(current.name && { name: current.name }), code: current.lines.join("\n"), offset: current.offset })
  return parts
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "section"

/** The JSX runtime of a ```tsx block: the framework it imports, else React. */
function jsxSourceOf(code: string): string {
  if (/from "(solid-js|@solidjs\/[^"]+)"/.test(code)) return "solid-js"
  if (/from "@builder\.io\/qwik/.test(code)) return "@builder.io/qwik"
  return "react"
}

describe("README.md and docs code blocks", () => {
  const blocks = checkedFiles.flatMap((file) => blocksOf(read(file), file)).filter((block) => checked.has(block.lang))
  const work = join(root, "test-output")
  mkdirSync(work, { recursive: true })
  const dir = mkdtempSync(join(work, "readme-check-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("marks every skipped block with a reason, and skips few", () => {
    const skipped = blocks.filter((block) => block.skip !== undefined)
    for (const block of skipped) expect(block.skip!.length, `${block.file}:${block.line}: say why the block is skipped`).toBeGreaterThan(10)
    expect(skipped.length, "skipped blocks: keep the list tiny").toBeLessThanOrEqual(3)
  })

  it("type-checks every ts/tsx/js block against src", () => {
    const files = new Map<string, Block>()
    const sectionFiles = new Map<string, Set<string>>()
    for (const block of blocks) {
      if (block.skip !== undefined || fixedElsewhere.has(hashOf(block.code))) continue
      const section = `${slug(block.file.replace(/\.md$/, ""))}--${slug(block.section)}`
      const ext = block.lang === "js" || block.lang === "javascript" ? "mjs" : block.lang === "tsx" ? "tsx" : "ts"
      for (const part of filesOf(block)) {
        const name = part.name ?? `snippet-${block.index}.${ext}`
        const path = join(section, name)
        let code = part.code
        // `@/x` is the app root of a Next.js project: the section's directory here.
        code = code.replace(/from "@\/([^"]+)"/g, (_, target: string) => {
          const to = relative(dirname(path), join(section, target))
          return `from "${to.startsWith(".") ? to : `./${to}`}"`
        })
        // `~/x` is `src/x` in a SolidStart project.
        code = code.replace(/from "~\/([^"]+)"/g, (_, target: string) => {
          const to = relative(dirname(path), join(section, "src", target))
          return `from "${to.startsWith(".") ? to : `./${to}`}"`
        })
        // On the first line, so that line numbers keep matching the page.
        if (name.endsWith(".tsx")) code = `/** @jsxImportSource ${jsxSourceOf(code)} */ ${code}`
        // Each file is a module of its own, so their top-level names never collide.
        if (!/^\s*(import|export)\s/m.test(code)) code += "\nexport {}\n"
        files.set(path, { ...block, line: block.line + part.offset, code })
        if (!sectionFiles.has(section)) sectionFiles.set(section, new Set())
        sectionFiles.get(section)!.add(name.replace(/\.(ts|tsx|mjs|js)$/, ""))
      }
    }
    for (const [path, block] of files) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), block.code)
    }
    // Stubs for relative imports that stand for the reader's own modules (`import { config } from "./auth"`).
    for (const [path, block] of files) {
      for (const match of block.code.matchAll(/(?:import|export)\s+(?:type\s+)?\{([^}]+)\}\s+from\s+"(\.{1,2}\/[^"]+)"/g)) {
        const target = join(dirname(path), match[2]!)
        const section = path.split("/")[0]!
        // `./auth.config.mjs` names the block `// auth.config.mjs` as much as `./auth.config` does.
        if (sectionFiles.get(section)?.has(relative(section, target).replace(/\.(ts|tsx|mjs|js)$/, ""))) continue
        const names = match[1]!.split(",").map((name) => name.trim().split(/\s+as\s+/)[0]!).filter(Boolean)
        const stub = ['import type { AuthConfig } from "authflow"', ...names.map((name) => `export declare const ${name}: ${name === "config" ? "AuthConfig" : "any"}`)].join("\n")
        mkdirSync(dirname(join(dir, target)), { recursive: true })
        writeFileSync(join(dir, `${target}.ts`), `${stub}\n`)
      }
    }
    writeFileSync(join(dir, "placeholders.d.ts"), placeholders)
    writeFileSync(join(dir, "ambient.d.ts"), ambientModules)
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify(
        {
          compilerOptions: {
            target: "ES2022",
            module: "ESNext",
            moduleResolution: "Bundler",
            lib: ["ES2023", "DOM", "DOM.Iterable"],
            types: ["node"],
            strict: true,
            skipLibCheck: true,
            noEmit: true,
            allowJs: true,
            checkJs: true,
            esModuleInterop: true,
            // src/pages is compiled as in tsconfig.json; each tsx block names its framework's runtime.
            jsx: "react",
            jsxFactory: "h",
            jsxFragmentFactory: "Fragment",
            paths: authflowPaths(dir),
          },
          include: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
        },
        null,
        2,
      ),
    )
    let output = ""
    try {
      execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error)
    }
    // Point each error at its line in the README or the docs page.
    // Plain JavaScript has no annotations: an implicit any is no error there (TS7006, TS7031).
    const located = output
      .split("\n")
      .filter((line) => line.includes("error TS") && !/\.mjs\(\d+,\d+\): error TS70(06|31):/.test(line))
      .map((line) => {
        const match = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line)
        if (!match) return line
        const file = relative(dir, join(dir, match[1]!))
        const block = files.get(file)
        return block ? `${block.file}:${block.line + Number(match[2])} (${file}): ${match[4]}` : `${file}:${match[2]}: ${match[4]}`
      })
    expect(located, "README and docs blocks that do not type-check").toEqual([])
    expect(files.size).toBeGreaterThan(10)
  }, 180_000)

  it("reports the blocks left to another change, while their text is unchanged", () => {
    const pending = blocks.filter((block) => fixedElsewhere.has(hashOf(block.code))).map((block) => `${block.file}:${block.line}: ${fixedElsewhere.get(hashOf(block.code))}`)
    if (pending.length) console.log(`[readme] not checked yet:\n  ${pending.join("\n  ")}`)
    expect(pending.length).toBeLessThanOrEqual(fixedElsewhere.size)
  })
})

describe("the provider table (docs/guides/providers.md)", () => {
  it("lists every OAuth/OIDC provider in src/providers with the variables setEnvDefaults reads", async () => {
    const table = /<!-- provider-env-table -->\n([\s\S]*?)<!-- \/provider-env-table -->/.exec(read("docs/guides/providers.md"))
    expect(table, "the table between <!-- provider-env-table --> markers").not.toBeNull()
    const rows = table![1]!.split("\n").filter((line) => line.startsWith("| `"))
    const expected: string[] = []
    for (const file of readdirSync(join(root, "src/providers")).sort()) {
      const module = (await import(`../src/providers/${file}`)) as { default?: unknown }
      if (typeof module.default !== "function") continue
      let provider: { id: string; name: string; type: string; issuer?: string }
      try {
        provider = (module.default as (options: object) => typeof provider)({})
      } catch {
        continue
      }
      if (provider.type !== "oauth" && provider.type !== "oidc") continue
      const variables = [providerEnvVariable(provider.id, "clientId"), providerEnvVariable(provider.id, "clientSecret")]
      if (provider.type === "oidc" && !provider.issuer) variables.push(providerEnvVariable(provider.id, "issuer"))
      expected.push(`| \`${provider.id}\` | ${provider.name} | ${variables.map((name) => `\`${name}\``).join(", ")} |`)
    }
    expect(rows).toEqual(expected)
  })
})

describe("Troubleshooting (docs/guides/troubleshooting.md)", () => {
  it("gives the cause and fix of every configuration error the checks raise", async () => {
    const errors = (await import("../src/errors.js")) as Record<string, unknown>
    const checks = readdirSync(join(root, "src/core/checks")).map((file) => `src/core/checks/${file}`)
    const sources = ["src/core/assert.ts", "src/core/origin.ts", ...checks].map((file) => readFileSync(join(root, file), "utf8")).join("\n")
    const raised = [...new Set([...sources.matchAll(/new ([A-Z]\w+)\(/g)].map((match) => match[1]!))].filter((name) => typeof errors[name] === "function").sort()
    const section = read("docs/guides/troubleshooting.md")
    expect(raised.length).toBeGreaterThan(8)
    expect(raised.filter((name) => !section.includes(`\`${name}\``)), "configuration errors without a Troubleshooting entry").toEqual([])
  })
})

/** A heading's anchor on the docs site (VitePress's slugify, from @mdit-vue/shared). */
function siteAnchor(heading: string): string {
  return heading
    .normalize("NFKD")
    .replace(/[\u0300-\u036F]/g, "")
    .replace(/[\u0000-\u001f]/g, "")
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .replace(/^(\d)/, "_$1")
    .toLowerCase()
}

/** The same heading's anchor when the file is read on GitHub. */
function githubAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")
}

/** The text of each heading of a Markdown file, as rendered (links and code marks taken out). */
function headingsOf(markdown: string): string[] {
  const headings: string[] = []
  let fenced = false
  for (const line of markdown.split("\n")) {
    if (/^```/.test(line)) fenced = !fenced
    const heading = !fenced && /^#{1,6} (.+?)\s*$/.exec(line)
    if (heading) headings.push(heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, ""))
  }
  return headings
}

/** The links of a Markdown file outside code: `[text](target)`, with their line. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = []
  let fenced = false
  markdown.split("\n").forEach((text, index) => {
    if (/^```/.test(text)) fenced = !fenced
    if (fenced) return
    for (const match of text.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) links.push({ target: match[1]!, line: index + 1 })
  })
  return links
}

/** Files the docs build generates, which a link may point at before they exist. */
const generated = new Set(["docs/reference/api/index.md"])

describe("links of the README, CONTRIBUTING.md and the docs", () => {
  const files = ["README.md", "CONTRIBUTING.md", ...docsPages()]

  it("point at files that exist, and at headings those files have (on the site and on GitHub)", () => {
    const broken: string[] = []
    let checkedLinks = 0
    for (const file of files) {
      for (const { target, line } of linksOf(read(file))) {
        if (/^[a-z]+:/i.test(target)) continue
        checkedLinks++
        const [path, anchor] = target.split("#") as [string, string | undefined]
        const resolved = path ? relative(root, resolve(root, dirname(file), path)) : file
        const where = `${file}:${line}: ${target}`
        if (generated.has(resolved)) continue
        if (!existsSync(join(root, resolved))) {
          broken.push(`${where}: no file ${resolved}`)
          continue
        }
        if (path && file.startsWith("docs/") && !/\.(md|png|svg)$/.test(path)) broken.push(`${where}: link to the page's .md file, so that it works on the site and in the repository`)
        if (anchor === undefined) continue
        if (!resolved.endsWith(".md")) {
          broken.push(`${where}: an anchor into a file that is not Markdown`)
          continue
        }
        const headings = headingsOf(read(resolved))
        const onSite = headings.some((heading) => siteAnchor(heading) === anchor)
        const onGitHub = headings.some((heading) => githubAnchor(heading) === anchor)
        if (!onSite || !onGitHub) broken.push(`${where}: no heading with that anchor ${!onSite && !onGitHub ? "" : onSite ? "on GitHub" : "on the site"} in ${resolved}`)
      }
    }
    expect(broken).toEqual([])
    expect(checkedLinks).toBeGreaterThan(100)
  })

  it("stay inside the repository, relative: no absolute path to a page", () => {
    const absolute = files.flatMap((file) => linksOf(read(file)).filter(({ target }) => target.startsWith("/")).map(({ target, line }) => `${file}:${line}: ${target}`))
    expect(absolute).toEqual([])
  })
})

describe("README.md", () => {
  it("is a map of at most 15 KB: the rest is in docs/", () => {
    expect(statSync(join(root, "README.md")).size).toBeLessThanOrEqual(15 * 1024)
  })

  it("gives the plain-Node quick start exactly as docs/getting-started/node.md does", () => {
    // Its two files, whether in one block (split at their path comments) or in one block each.
    const quickStart = (markdown: string) =>
      Object.fromEntries(
        blocksOf(markdown)
          .flatMap(filesOf)
          .filter((file) => file.name === "auth.config.mjs" || file.name === "server.mjs")
          .map((file) => [file.name, `${file.code.trimEnd()}\n`]),
      )
    expect(Object.keys(quickStart(read("docs/getting-started/node.md"))).sort()).toEqual(["auth.config.mjs", "server.mjs"])
    expect(quickStart(readme)).toEqual(quickStart(read("docs/getting-started/node.md")))
  })
})
