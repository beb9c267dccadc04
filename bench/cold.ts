/**
 * A credentials-only app, authflow against @auth/core, as a serverless platform meets it:
 *
 * 1. Cold start: import `Auth` and the Credentials provider, then answer the first GET /session
 *    (a JWT session cookie), each run in a fresh Node process, the two libraries alternating
 *    (A B B A …), medians over the runs. authflow runs as it is published: dist's JavaScript as
 *    `npm run build` writes it (scripts/bundle-dist.ts), into a scratch folder; @auth/core from
 *    node_modules.
 * 2. The edge bundle: the same app bundled by esbuild (minified, platform browser, format esm, its
 *    default conditions, code splitting on) from the published files, raw and gzipped. @auth/core
 *    is one file; authflow's flows are chunks the router loads when their route is first hit, so
 *    its size is counted as what the app loads: at import, with the first /session, once every
 *    route a credentials-only app answers has been hit. Every chunk written, the one file a
 *    bundler that does not split makes, and the routes bundled from src's modules (one file each)
 *    are shown too.
 *
 *   npm run bench:cold            (11 runs per library)
 *   npm run bench:cold -- --runs 21
 *   npm run bench:cold -- --breakdown   (the edge bundle only, and what is in the credentials
 *                                         app's routes, bundled from src's modules: by package,
 *                                         source file and output file;
 *                                         what gzipping file by file costs; the same routes as
 *                                         one file with every other flow left out)
 */
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { pathToFileURL } from "node:url"
import { gzipSync } from "node:zlib"
import { build, type Metafile, type Plugin } from "esbuild"
import { loadedFrom } from "./loaded-files.js"
import { encode } from "../src/jwt.js"

const repo = realpathSync(new URL("..", import.meta.url).pathname)
const runsFlag = process.argv.indexOf("--runs")
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 11
const breakdown = process.argv.includes("--breakdown")
if (!Number.isInteger(runs) || runs < 5) throw new Error("--runs takes a whole number of at least 5")
const authjsVersion = (JSON.parse(readFileSync(join(repo, "node_modules/@auth/core/package.json"), "utf8")) as { version: string }).version

const secret = "bench-cold-secret-0123456789abcdef0123456789"
const cookieName = "__Secure-authjs.session-token"
const token = await encode({ token: { name: "Ada Lovelace", email: "ada@example.test", picture: null, sub: "user-1" }, secret, salt: cookieName })
const cookie = `${cookieName}=${token}`

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
const cell = (value: number | string) => (typeof value === "number" ? value.toFixed(1) : value).padStart(10)

// authflow as published: `scripts/bundle-dist.ts` writes dist's JavaScript (a few coarse files, as
// `npm run build` does) into the scratch folder, with node_modules beside.
const scratch = mkdtempSync(join(tmpdir(), "authflow-cold-"))
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }))
symlinkSync(join(repo, "node_modules"), join(scratch, "node_modules"), "dir")
writeFileSync(join(scratch, "package.json"), JSON.stringify({ type: "module" }))
execFileSync(process.execPath, ["--import", "tsx", join(repo, "scripts/bundle-dist.ts"), "--out", join(scratch, "dist")], { cwd: repo, stdio: "inherit" })

const sides = {
  authflow: {
    label: "authflow",
    auth: pathToFileURL(join(scratch, "dist/index.js")).href,
    credentials: pathToFileURL(join(scratch, "dist/providers/credentials.js")).href,
    basePath: "/auth",
  },
  authjs: { label: `@auth/core ${authjsVersion}`, auth: "@auth/core", credentials: "@auth/core/providers/credentials", basePath: "/auth" },
} as const
type Side = keyof typeof sides

interface ColdStart {
  importMs: number
  sessionMs: number
  importCpuMs: number
  sessionCpuMs: number
}

/** One cold start in a fresh process: ms to import and to answer the first /session, on the wall clock and in CPU time. */
function coldStart(side: Side): Promise<ColdStart> {
  const { auth, credentials, basePath } = sides[side]
  const child = spawn(process.execPath, [join(repo, "bench/cold-start.mjs"), auth, credentials, cookie, secret, basePath], { cwd: scratch, stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  let err = ""
  child.stdout.on("data", (chunk: Buffer) => (out += chunk))
  child.stderr.on("data", (chunk: Buffer) => (err += chunk))
  return new Promise((resolve, reject) => {
    child.on("error", reject)
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as ColdStart) : reject(new Error(`${side} cold start failed (${code}): ${err}`))))
  })
}

// 1. Cold start. One unrecorded run each first (the file cache), then A B B A … so neither side
// always runs first. Skipped with --breakdown.
if (!breakdown) await coldStarts()
async function coldStarts() {
  await coldStart("authflow")
  await coldStart("authjs")
  const starts: Record<Side, ColdStart[]> = { authflow: [], authjs: [] }
  for (let run = 0; run < runs; run++) {
    for (const side of (run % 2 === 0 ? ["authflow", "authjs"] : ["authjs", "authflow"]) as Side[]) starts[side].push(await coldStart(side))
  }
  const medianOf = (side: Side, measure: (start: ColdStart) => number) => median(starts[side].map(measure))
  const wallTotal = (start: ColdStart) => start.importMs + start.sessionMs
  const cpuTotal = (start: ColdStart) => start.importCpuMs + start.sessionCpuMs
  console.log(`Cold start, credentials-only app: import + first GET /session (Node ${process.version}; ${runs} fresh processes each, alternating; medians, ms)`)
  console.log(`${"".padEnd(32)}${cell("import")}${cell("/session")}${cell("total")}`)
  for (const side of ["authflow", "authjs"] as Side[]) {
    const wall = [medianOf(side, (start) => start.importMs), medianOf(side, (start) => start.sessionMs), medianOf(side, wallTotal)]
    const cpu = [medianOf(side, (start) => start.importCpuMs), medianOf(side, (start) => start.sessionCpuMs), medianOf(side, cpuTotal)]
    console.log(`${sides[side].label.padEnd(20)}${"wall clock".padEnd(12)}${wall.map(cell).join("")}`)
    console.log(`${"".padEnd(20)}${"CPU time".padEnd(12)}${cpu.map(cell).join("")}`)
  }
  const ratio = (measure: (start: ColdStart) => number) => (medianOf("authflow", measure) / medianOf("authjs", measure)).toFixed(2)
  console.log(`authflow takes ${ratio(wallTotal)}× @auth/core's time on the wall clock, ${ratio(cpuTotal)}× in CPU time (target ≤ 1×, aim 0.7×)`)
}

// 2. The edge bundle.
const app = (auth: string, credentials: string) => `import { Auth } from ${JSON.stringify(auth)}
import Credentials from ${JSON.stringify(credentials)}
const config = { secret: process.env.AUTH_SECRET, trustHost: true, basePath: "/auth", providers: [Credentials({ credentials: { username: {} }, authorize: (c) => ({ id: "1", name: String(c.username) }) })] }
export default { fetch: (request) => Auth(request, config) }
`
writeFileSync(join(scratch, "app-authflow.mjs"), app(join(scratch, "dist/index.js"), join(scratch, "dist/providers/credentials.js")))
// The same app on src's modules, one file each (the layout before scripts/bundle-dist.ts): the breakdown by source file, and what the coarse files save.
writeFileSync(join(scratch, "app-modules.mjs"), app(join(repo, "src/index.ts"), join(repo, "src/providers/credentials.ts")))
writeFileSync(join(scratch, "app-authjs.mjs"), app("@auth/core", "@auth/core/providers/credentials"))

/**
 * The app bundled as an edge platform's bundler would: each output file's path, bytes and gzipped
 * bytes, the metafile, and the files' contents. `plugins` only to leave modules out (xstate, or the
 * other flows for the breakdown's floor).
 */
async function bundle(side: Side | "modules", splitting = true, plugins: Plugin[] = []) {
  const result = await build({
    entryPoints: [join(scratch, `app-${side}.mjs`)],
    bundle: true,
    minify: true,
    splitting,
    write: false,
    metafile: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    define: { "process.env.AUTH_SECRET": JSON.stringify(secret) },
    outdir: join(scratch, `bundle-${side}`),
    logLevel: "error",
    plugins,
  })
  const sizes = new Map(result.outputFiles.map((file) => [relative(process.cwd(), file.path), { raw: file.contents.length, gzip: gzipSync(file.contents).length }]))
  const contents = new Map(result.outputFiles.map((file) => [relative(process.cwd(), file.path), file.contents]))
  return { sizes, metafile: result.metafile, contents }
}

function total(sizes: Map<string, { raw: number; gzip: number }>, files: Iterable<string>) {
  let raw = 0
  let gzip = 0
  for (const file of files) {
    raw += sizes.get(file)!.raw
    gzip += sizes.get(file)!.gzip
  }
  return { raw, gzip }
}

// What a credentials-only app loads once every route it answers has been hit: those routes' action
// modules, the pages, and the portable JWE (an edge runtime has no node:crypto). Not the other flows
// (OAuth, email, WebAuthn, back-channel logout), nor what only they or a provider with token refresh
// load (the refresh, provider discovery, the passkey form, the OAuth buttons and email form of the
// sign-in page), nor the pages of a Password provider, second factors or an emailed code
// (test/loaded-when-used.test.ts checks that a credentials-only app's pages load none of them).
const credentialsRoutes = /src\/(actions\/(providers|session|csrf|pages|callback|signout)\.ts|pages\/(signin|signout|error|verify-request)\.tsx|core\/jwt\/jwe-portable\.ts)$/
const isApp = (entryPoint: string) => entryPoint.includes("app-")
const onCredentialsRoute = (module: string) => credentialsRoutes.test(module)
const routeOf = (module: string) => /src\/actions\/([\w-]+)\.ts$/.exec(module)?.[1]
const authflowBundle = await bundle("authflow")
// The same app with xstate left external: authflow's own code, without the statechart runtime every flow runs on.
const ownCodeBundle = await bundle("authflow", true, [external("xstate")])
const authjsBundle = await bundle("authjs")
const modulesBundle = await bundle("modules")
const modulesRoutes = loadedFrom(modulesBundle.metafile, isApp, onCredentialsRoute)
const lines = [
  { label: "authflow, loaded by the import", files: loadedFrom(authflowBundle.metafile, isApp, () => false) },
  { label: "authflow, import + first /session", files: loadedFrom(authflowBundle.metafile, isApp, (module) => routeOf(module) === "session" || module.endsWith("jwe-portable.ts")) },
  { label: "authflow, every route a credentials app answers", files: loadedFrom(authflowBundle.metafile, isApp, onCredentialsRoute) },
  { label: "authflow, every chunk written (all flows)", files: authflowBundle.sizes.keys() },
]
// A bundler that does not split (esbuild's default) inlines every dynamically imported module.
const authflowOneFile = await bundle("authflow", false)
const authjsSize = total(authjsBundle.sizes, authjsBundle.sizes.keys())
console.log(`\nEdge bundle, credentials-only app (esbuild ${(await import("esbuild")).version}, minified, platform browser, format esm, code splitting unless said; kB, gzip per file)`)
console.log(`${"".padEnd(56)}${cell("raw")}${cell("gzip")}`)
const sizeRow = (label: string, size: { raw: number; gzip: number }) => console.log(`${label.padEnd(56)}${cell(kB(size.raw))}${cell(kB(size.gzip))}`)
const measured = lines.map(({ label, files }) => ({ label, size: total(authflowBundle.sizes, files) }))
for (const { label, size } of measured) sizeRow(label, size)
const ownCode = total(ownCodeBundle.sizes, loadedFrom(ownCodeBundle.metafile, isApp, onCredentialsRoute))
sizeRow("  the same routes, xstate left out (authflow's own code)", ownCode)
sizeRow("  the same routes bundled from src's modules", total(modulesBundle.sizes, modulesRoutes))
console.log(`${"  files loaded by those routes: published, from src".padEnd(56)}${cell(String([...lines[2]!.files].length))}${cell(String(modulesRoutes.size))}`)
sizeRow("authflow, one file (no splitting: every flow inlined)", total(authflowOneFile.sizes, authflowOneFile.sizes.keys()))
sizeRow(`${sides.authjs.label} (one file)`, authjsSize)
const against = (size: { raw: number; gzip: number }) => `${(size.raw / authjsSize.raw).toFixed(2)}× raw, ${(size.gzip / authjsSize.gzip).toFixed(2)}× gzipped`
console.log(`authflow against @auth/core (target ≤ 1×): import + first /session ${against(measured[1]!.size)}; every route of the credentials app ${against(measured[2]!.size)}; those routes without xstate ${against(ownCode)}`)
if (breakdown) {
  // By source file: the same app bundled from src's modules (dist's files are several modules each).
  const files = [...modulesRoutes]
  console.log(`\nauthflow, every route a credentials app answers, bundled from src's modules: what is in it (minified bytes before gzip)`)
  printBreakdown(modulesBundle.metafile, files)
  // What the split costs: gzip per file against gzip of the same bytes as one file, and the same
  // routes bundled as one file with every other flow's dynamic import left out (the least any
  // splitting of today's modules could load).
  const joined = gzipSync(Buffer.concat(files.map((file) => modulesBundle.contents.get(file)!))).length
  console.log(`\n${files.length} files; gzipped one by one ${kB(total(modulesBundle.sizes, files).gzip)}, as one file ${kB(joined)}`)
  const floor = await bundle("modules", false, [onlyCredentialsRoutes()])
  sizeRow("credentials routes only, one file (other flows left out)", total(floor.sizes, floor.sizes.keys()))
  console.log(`${"files loaded (kB)".padEnd(46)}${cell("raw")}${cell("gzip")}  modules`)
  for (const file of files.sort((a, b) => modulesBundle.sizes.get(b)!.raw - modulesBundle.sizes.get(a)!.raw)) {
    const output = modulesBundle.metafile.outputs[file]!
    const modules = Object.entries(output.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0).map(([input]) => shortName(input))
    const size = modulesBundle.sizes.get(file)!
    console.log(`  ${(output.entryPoint ? shortName(output.entryPoint) : "chunk").padEnd(44)}${cell(kB(size.raw))}${cell(kB(size.gzip))}  ${modules.length > 4 ? `${modules.slice(0, 4).join(" ")} … (${modules.length})` : modules.join(" ")}`)
  }
  console.log(`\n${sides.authjs.label} (one file): what is in it`)
  printBreakdown(authjsBundle.metafile, authjsBundle.sizes.keys())
}

/**
 * What each package and each of authflow's source files puts in `files` (minified bytes, before
 * gzip), largest first, down to `minBytes` for single files.
 */
function printBreakdown(metafile: Metafile, files: Iterable<string>, minBytes = 500) {
  const byInput = new Map<string, number>()
  for (const file of files) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[file]!.inputs)) byInput.set(input, (byInput.get(input) ?? 0) + bytesInOutput)
  }
  const packageOf = (input: string) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? /(?:^|\/)src\/(?:[\w-]+\/)*/.exec(input)?.[0].replace(/^.*?src\//, "src/") ?? "the app"
  const byPackage = new Map<string, number>()
  for (const [input, bytes] of byInput) byPackage.set(packageOf(input), (byPackage.get(packageOf(input)) ?? 0) + bytes)
  const sorted = (map: Map<string, number>) => [...map].filter(([, bytes]) => bytes > 0).sort((a, b) => b[1] - a[1])
  console.log(`${"by package or src/ folder".padEnd(56)}${cell("raw")}`)
  for (const [name, bytes] of sorted(byPackage)) console.log(`  ${name.padEnd(54)}${cell(kB(bytes))}`)
  console.log(`${`by file (${minBytes} bytes and more)`.padEnd(56)}${cell("raw")}`)
  for (const [input, bytes] of sorted(byInput)) if (bytes >= minBytes) console.log(`  ${shortName(input).padEnd(54)}${cell(kB(bytes))}`)
}

/** A module's path from its package or from `src/`. */
function shortName(input: string): string {
  return input.replace(/^.*node_modules\//, "").replace(/^(\.\.\/)*.*?src\//, "src/").replace(/^.*\/(app-\w+\.mjs)$/, "$1")
}

/** Leaves a package out of the bundle, as an import the runtime resolves. */
function external(name: string): Plugin {
  return { name: `external-${name}`, setup: (build) => build.onResolve({ filter: new RegExp(`^${name}$`) }, () => ({ path: name, external: true })) }
}

/** Leaves out every module a dynamic import loads, except the routes of a credentials app (for the breakdown's floor). */
function onlyCredentialsRoutes(): Plugin {
  return {
    name: "only-credentials-routes",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData === "resolving") return undefined
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "resolving" })
        // A route of the app resolves as without the plugin (a path the plugin returned would lose the tsconfig's JSX settings).
        return credentialsRoutes.test(resolved.path) ? undefined : { path: resolved.path, namespace: "left-out" }
      })
      build.onLoad({ filter: /.*/, namespace: "left-out" }, () => ({ contents: "export {}", loader: "js" }))
    },
  }
}
