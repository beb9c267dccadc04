/**
 * A credentials-only app, authflow against @auth/core, as a serverless platform meets it:
 *
 * 1. Cold start: import `Auth` and the Credentials provider, then answer the first GET /session
 *    (a JWT session cookie), each run in a fresh Node process, the two libraries alternating
 *    (A B B A …), medians over the runs. authflow runs as it is published: its modules compiled
 *    one to one (no bundling) into a scratch folder, as `npm run build` does; @auth/core from
 *    node_modules.
 * 2. The edge bundle: the same app bundled by esbuild (minified, platform browser, format esm, code
 *    splitting on), raw and gzipped. @auth/core is one file; authflow's flows are chunks the router
 *    loads when their route is first hit, so its size is counted as what the app loads.
 *
 *   npm run bench:cold            (11 runs per library)
 *   npm run bench:cold -- --runs 21
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { pathToFileURL } from "node:url"
import { gzipSync } from "node:zlib"
import { build, type Metafile } from "esbuild"
import { encode } from "../src/jwt.js"

const repo = realpathSync(new URL("..", import.meta.url).pathname)
const runsFlag = process.argv.indexOf("--runs")
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 11
if (!Number.isInteger(runs) || runs < 5) throw new Error("--runs takes a whole number of at least 5")
const authjsVersion = (JSON.parse(readFileSync(join(repo, "node_modules/@auth/core/package.json"), "utf8")) as { version: string }).version

const secret = "bench-cold-secret-0123456789abcdef0123456789"
const cookieName = "__Secure-authjs.session-token"
const token = await encode({ token: { name: "Ada Lovelace", email: "ada@example.test", picture: null, sub: "user-1" }, secret, salt: cookieName })
const cookie = `${cookieName}=${token}`

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`

// authflow as published: every module under src compiled to its own file, with node_modules beside.
const scratch = mkdtempSync(join(tmpdir(), "authflow-cold-"))
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }))
symlinkSync(join(repo, "node_modules"), join(scratch, "node_modules"), "dir")
writeFileSync(join(scratch, "package.json"), JSON.stringify({ type: "module" }))
const sources = readdirSync(join(repo, "src"), { recursive: true, encoding: "utf8" }).filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts"))
await build({
  entryPoints: sources.map((file) => join(repo, "src", file)),
  outdir: join(scratch, "dist"),
  outbase: join(repo, "src"),
  format: "esm",
  platform: "node",
  target: "es2022",
  tsconfig: join(repo, "tsconfig.json"),
  logLevel: "error",
})

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

/** One cold start in a fresh process: ms to import, ms to answer the first /session. */
function coldStart(side: Side): Promise<{ importMs: number; sessionMs: number }> {
  const { auth, credentials, basePath } = sides[side]
  const child = spawn(process.execPath, [join(repo, "bench/cold-start.mjs"), auth, credentials, cookie, secret, basePath], { cwd: scratch, stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  let err = ""
  child.stdout.on("data", (chunk: Buffer) => (out += chunk))
  child.stderr.on("data", (chunk: Buffer) => (err += chunk))
  return new Promise((resolve, reject) => {
    child.on("error", reject)
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${side} cold start failed (${code}): ${err}`))))
  })
}

// 1. Cold start. One unrecorded run each first (the file cache), then A B B A … so neither side
// always runs first.
await coldStart("authflow")
await coldStart("authjs")
const timings: Record<Side, { importMs: number[]; sessionMs: number[]; totalMs: number[] }> = {
  authflow: { importMs: [], sessionMs: [], totalMs: [] },
  authjs: { importMs: [], sessionMs: [], totalMs: [] },
}
for (let run = 0; run < runs; run++) {
  for (const side of (run % 2 === 0 ? ["authflow", "authjs"] : ["authjs", "authflow"]) as Side[]) {
    const { importMs, sessionMs } = await coldStart(side)
    timings[side].importMs.push(importMs)
    timings[side].sessionMs.push(sessionMs)
    timings[side].totalMs.push(importMs + sessionMs)
  }
}
const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`
console.log(`Cold start, credentials-only app: import + first GET /session (Node ${process.version}; ${runs} fresh processes each, alternating; medians)`)
console.log(`${"".padEnd(24)}${"import".padStart(10)}${"/session".padStart(10)}${"total".padStart(10)}`)
for (const side of ["authflow", "authjs"] as Side[]) {
  const { importMs, sessionMs, totalMs } = timings[side]
  console.log(`${sides[side].label.padEnd(24)}${ms(median(importMs))}${ms(median(sessionMs))}${ms(median(totalMs))}`)
}
const coldRatio = median(timings.authflow.totalMs) / median(timings.authjs.totalMs)
console.log(`authflow takes ${coldRatio.toFixed(2)}× @auth/core's time (target ≤ 1×, aim 0.7×)`)

// 2. The edge bundle.
const app = (auth: string, credentials: string) => `import { Auth } from ${JSON.stringify(auth)}
import Credentials from ${JSON.stringify(credentials)}
const config = { secret: process.env.AUTH_SECRET, trustHost: true, basePath: "/auth", providers: [Credentials({ credentials: { username: {} }, authorize: (c) => ({ id: "1", name: String(c.username) }) })] }
export default { fetch: (request) => Auth(request, config) }
`
writeFileSync(join(scratch, "app-authflow.mjs"), app(join(repo, "src/index.ts"), join(repo, "src/providers/credentials.ts")))
writeFileSync(join(scratch, "app-authjs.mjs"), app("@auth/core", "@auth/core/providers/credentials"))

/** The app bundled as an edge platform's bundler would: each output file's path, bytes and gzipped bytes, and the metafile. */
async function bundle(side: Side) {
  const result = await build({
    entryPoints: [join(scratch, `app-${side}.mjs`)],
    bundle: true,
    minify: true,
    splitting: true,
    write: false,
    metafile: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    conditions: ["edge-light", "worker", "browser"],
    define: { "process.env.AUTH_SECRET": JSON.stringify(secret) },
    outdir: join(scratch, `bundle-${side}`),
    logLevel: "error",
  })
  const sizes = new Map(result.outputFiles.map((file) => [relative(process.cwd(), file.path), { raw: file.contents.length, gzip: gzipSync(file.contents).length }]))
  return { sizes, metafile: result.metafile }
}

/**
 * The output files loaded from the entry: its static imports, and the dynamic imports `follow`
 * accepts (by the module each one loads), each with its own imports, recursively.
 */
function loadedFrom(metafile: Metafile, follow: (module: string) => boolean): Set<string> {
  const entry = Object.keys(metafile.outputs).find((path) => metafile.outputs[path]!.entryPoint?.includes("app-"))!
  const loaded = new Set<string>()
  const pending = [entry]
  while (pending.length) {
    const output = pending.pop()!
    if (loaded.has(output)) continue
    loaded.add(output)
    for (const { path, kind } of metafile.outputs[output]!.imports) {
      if (kind === "import-statement" || (kind === "dynamic-import" && follow(metafile.outputs[path]?.entryPoint ?? ""))) pending.push(path)
    }
  }
  return loaded
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

// What a credentials-only configuration never loads: the other flows' route modules, and the refresh
// of provider tokens (loaded by a session read only when a provider refreshes).
const otherFlows = /src\/actions\/(oauth|email|webauthn|backchannel-logout|session-refresh|access-token)\.ts$/
const routeOf = (module: string) => /src\/actions\/([\w-]+)\.ts$/.exec(module)?.[1]
const authflowBundle = await bundle("authflow")
const authjsBundle = await bundle("authjs")
const lines = [
  { label: "authflow, loaded by the import", files: loadedFrom(authflowBundle.metafile, () => false) },
  { label: "authflow, import + first /session", files: loadedFrom(authflowBundle.metafile, (module) => routeOf(module) === "session") },
  { label: "authflow, every route a credentials app answers", files: loadedFrom(authflowBundle.metafile, (module) => !otherFlows.test(module)) },
  { label: "authflow, every chunk written (all flows)", files: authflowBundle.sizes.keys() },
]
const authjsSize = total(authjsBundle.sizes, authjsBundle.sizes.keys())
console.log(`\nEdge bundle, credentials-only app (esbuild ${(await import("esbuild")).version}, minified, platform browser, format esm, splitting; gzip per file)`)
console.log(`${"".padEnd(52)}${"raw".padStart(10)}${"gzip".padStart(10)}`)
const sizeRow = (label: string, size: { raw: number; gzip: number }) => console.log(`${label.padEnd(52)}${kB(size.raw).padStart(10)}${kB(size.gzip).padStart(10)}`)
const measured = lines.map(({ label, files }) => ({ label, size: total(authflowBundle.sizes, files) }))
for (const { label, size } of measured) sizeRow(label, size)
sizeRow(`${sides.authjs.label} (one file)`, authjsSize)
const answered = measured[2]!.size
console.log(`Every route of the credentials app: authflow is ${(answered.raw / authjsSize.raw).toFixed(2)}× @auth/core raw, ${(answered.gzip / authjsSize.gzip).toFixed(2)}× gzipped (target ≤ 1×)`)
