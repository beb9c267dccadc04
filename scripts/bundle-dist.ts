/**
 * Writes the package's JavaScript: `src` bundled by Rollup into a few coarse files in `dist`, one
 * per public entry (the `exports` map's targets, `./providers/*` expanded, and the `authflow`
 * command) and chunks under `dist/chunks/`, with the declarations tsc wrote beside them.
 *
 * Why coarse: a bundler that splits code (esbuild, Rollup, webpack) gives each set of dynamic imports
 * that reach a module a chunk of its own, so two hundred small modules shared in different ways by
 * the router's lazily loaded flows become dozens of small files, and every file gzips on its own.
 * Here the modules are grouped by when an app needs them, so an app's bundler sees a handful:
 *
 * - `core`: what `import { Auth } from "authflow"` loads (the router, options, cookies, crypto);
 * - `session`: what the first `/session` adds (the session read);
 * - `sign-in`: what every app's sign-in and sign-out routes and built-in pages add (the credentials
 *   callback, the sign-in tail, sign-out, rate limiting, the English pages);
 *
 * and every other flow (OAuth, email, WebAuthn, Password, second factors, several accounts) is left
 * to Rollup's own chunking, loaded when its route is first hit, as before. Node loads the same few
 * files: fewer modules to resolve at a cold start.
 *
 * Run after the declarations are built: `npm run build` and `npm pack` (prepack) do.
 *
 * @example
 * ```sh
 * tsc -p tsconfig.build.json && node --import tsx scripts/bundle-dist.ts
 * node --import tsx scripts/bundle-dist.ts --out /tmp/authflow-dist   # JavaScript only, elsewhere (bench/cold.ts)
 * ```
 * @module
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { transform } from "esbuild"
import { rollup, type ModuleInfo, type Plugin } from "rollup"

const root = new URL("..", import.meta.url).pathname
const src = join(root, "src")
const tsconfig = readFileSync(join(root, "tsconfig.json"), "utf8")
const outFlag = process.argv.indexOf("--out")
const out = outFlag > 0 ? process.argv[outFlag + 1]! : join(root, "dist")

/**
 * The modules whose static imports make up each group, after `core`'s (paths under `src`). A module
 * joins the first group that reaches it; a module no group reaches is chunked by Rollup.
 */
const groups: ReadonlyArray<readonly [name: string, roots: readonly string[]]> = [
  ["core", ["index.ts"]],
  ["session", ["actions/session.ts"]],
  [
    "sign-in",
    [
      "actions/callback.ts",
      "actions/signout.ts",
      "actions/csrf.ts",
      "actions/providers.ts",
      "actions/pages.ts",
      "pages/signin.tsx",
      "pages/signout.tsx",
      "pages/error.tsx",
      "pages/verify-request.tsx",
      "core/i18n/load.ts",
    ],
  ],
]

/**
 * The entries an app may import on their own, where size matters: those that reach browsers
 * (`authflow/client`, `/client/passkey`, `/react`), `authflow/jwt` (edge middleware), the error
 * classes, the adapters and `authflow/rate-limit`. They never load a whole group: what one shares
 * with a group is that group's `-shared` chunk (the error classes, the JWT code), which the group
 * loads too. What they load lazily (the portable JWE) is chunked by Rollup: a module loaded by
 * `import()` keeps every export, so it must not bring a group along.
 */
const light = /^(client\/.*|errors|jwt|adapters(\/.*)?|rate-limit|types)$/

/** Every public entry: `exports` map targets (`./providers/*` expanded) and `bin`, as `dist`-relative names without `.js`, to their source. */
function entriesOf(manifest: { exports: Record<string, unknown>; bin?: Record<string, string> }): Record<string, string> {
  const entries: Record<string, string> = {}
  const add = (target: string) => {
    const name = target.replace(/^\.?\/?dist\//, "").replace(/\.js$/, "")
    const source = [".ts", ".tsx"].map((extension) => join(src, name + extension)).find(existsSync)
    if (!source) throw new Error(`bundle-dist: no source under src for ${target}`)
    entries[name] = source
  }
  for (const target of Object.values(manifest.exports)) {
    const file = typeof target === "string" ? target : (target as { import?: string }).import
    if (!file?.endsWith(".js")) continue
    if (file.includes("*")) {
      const folder = file.slice(0, file.indexOf("*")).replace(/^\.\/dist\//, "")
      for (const name of readdirSync(join(src, folder))) if (/\.tsx?$/.test(name)) add(`${folder}${name.replace(/\.tsx?$/, ".js")}`)
    } else add(file)
  }
  for (const target of Object.values(manifest.bin ?? {})) add(target)
  return entries
}

/** TypeScript to JavaScript, module by module, as tsc emits it (`isolatedModules`): `./x.js` specifiers resolve to `./x.ts` or `./x.tsx`. */
function typescript(): Plugin {
  return {
    name: "typescript",
    resolveId(source, importer) {
      if (!importer || !source.startsWith(".") || !source.endsWith(".js")) return null
      const base = join(importer, "..", source.slice(0, -3))
      return [".ts", ".tsx"].map((extension) => base + extension).find(existsSync) ?? null
    },
    async transform(code, id) {
      if (!/\.tsx?$/.test(id)) return null
      const result = await transform(code, { loader: id.endsWith(".tsx") ? "tsx" : "ts", format: "esm", target: "es2022", sourcemap: true, sourcefile: id, tsconfigRaw: tsconfig })
      // The React entry's "use client" goes back on as the output's first line (Rollup drops module directives).
      return { code: result.code.replace(/^"use client";\n/, ""), map: result.map }
    },
  }
}

/** The imports of `roots`, recursively, within the package (`info` is Rollup's module graph): static ones, and dynamic ones too with `dynamic`. */
function closure(roots: readonly string[], info: (id: string) => ModuleInfo | null, dynamic = false): Set<string> {
  const reached = new Set<string>()
  const pending = [...roots]
  while (pending.length) {
    const id = pending.pop()!
    if (reached.has(id)) continue
    reached.add(id)
    const module = info(id)
    for (const imported of [...(module?.importedIds ?? []), ...(dynamic ? (module?.dynamicallyImportedIds ?? []) : [])]) if (imported.startsWith(src)) pending.push(imported)
  }
  return reached
}

const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown>; bin?: Record<string, string> }
const input = entriesOf(manifest)
let groupOf: Map<string, string> | undefined
const bundle = await rollup({
  input,
  // Dependencies and Node's modules stay imports; importing one has no effect of its own.
  external: (id) => !id.startsWith(".") && !id.startsWith("/"),
  treeshake: { moduleSideEffects: "no-external" },
  preserveEntrySignatures: "strict",
  plugins: [
    typescript(),
    {
      name: "groups",
      buildEnd() {
        const info = (id: string) => this.getModuleInfo(id)
        const assigned = new Map<string, string>()
        const reachedByLight = closure(Object.entries(input).flatMap(([name, source]) => (light.test(name) ? [source] : [])), info, true)
        for (const [name, roots] of groups) {
          for (const id of closure(roots.map((path) => join(src, path)), info)) if (!assigned.has(id)) assigned.set(id, reachedByLight.has(id) ? `${name}-shared` : name)
        }
        groupOf = assigned
      },
    },
  ],
  onwarn(warning, warn) {
    // Import cycles between modules are fine in one chunk; `authflow/types` has types only.
    if (warning.code === "CIRCULAR_DEPENDENCY" || warning.code === "EMPTY_BUNDLE") return
    warn(warning)
    if (warning.code === "CIRCULAR_CHUNK") throw new Error(`bundle-dist: ${warning.message}`)
  },
})
rmSync(join(out, "chunks"), { recursive: true, force: true })
// The JavaScript an earlier build left (declarations stay).
if (existsSync(out)) for (const file of readdirSync(out, { recursive: true, encoding: "utf8" })) if (/\.js(\.map)?$/.test(file)) rmSync(join(out, file))
await bundle.write({
  dir: out,
  format: "esm",
  entryFileNames: "[name].js",
  chunkFileNames: "chunks/[name]-[hash].js",
  sourcemap: true,
  hoistTransitiveImports: false,
  manualChunks: (id) => groupOf?.get(id),
  banner: (chunk) => (chunk.isEntry && chunk.name === "client/react" ? '"use client";' : ""),
})
await bundle.close()
