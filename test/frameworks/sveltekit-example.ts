/**
 * Builds and serves examples/sveltekit against this repository's authflow: the built package
 * (`dist/`) is what the example installs, as a user would install the published one.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

export const root = fileURLToPath(new URL("../../", import.meta.url))
export const exampleDir = `${root}examples/sveltekit/`
const installed = `${exampleDir}node_modules/authflow/`

/**
 * The entries the example imports; `package.json` must export them (see ensureExports). The
 * `svelte` condition makes vite-plugin-svelte bundle authflow into the server build (`ssr.noExternal`),
 * so `redirect()` of authflow/sveltekit throws the `Redirect` class of the very `@sveltejs/kit` copy
 * the app runs on: adapter-node bundles `@sveltejs/kit` (a devDependency) but would leave authflow
 * (a dependency) external, and its own `@sveltejs/kit` import would then be a second copy.
 */
const frameworkExports: Record<string, Record<string, string>> = {
  "./sveltekit": {
    types: "./dist/frameworks/sveltekit/index.d.ts",
    svelte: "./dist/frameworks/sveltekit/index.js",
    import: "./dist/frameworks/sveltekit/index.js",
  },
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  return { ok: result.status === 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}` }
}

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** `dist/` as `npm test` leaves it; rebuilt only when a source file is newer (a lone vitest run). */
function ensureRootBuild(): void {
  const marker = `${root}dist/frameworks/sveltekit/index.js`
  if (existsSync(marker) && statSync(marker).mtimeMs >= newestMtime(`${root}src`)) return
  const { output } = run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", "tsconfig.build.json"], root)
  // tsc emits even when some file elsewhere has a type error; `npm test` reports those.
  if (!existsSync(marker)) throw new Error(`Building authflow failed:\n${output}`)
}

/**
 * Until the root package.json exports `./sveltekit`, the installed copy gets it added, so the
 * example can import it. Returns the entries that had to be added.
 */
function ensureExports(): string[] {
  const path = `${installed}package.json`
  const manifest = JSON.parse(readFileSync(path, "utf8")) as { exports: Record<string, unknown> }
  const missing = Object.keys(frameworkExports).filter((key) => !(key in manifest.exports))
  if (missing.length) {
    for (const key of missing) manifest.exports[key] = frameworkExports[key]
    writeFileSync(path, JSON.stringify(manifest, null, 2))
  }
  return missing
}

/** Puts the current build where the example's `node_modules/authflow` is, as `npm ci` would. */
function syncInstalledPackage(): void {
  rmSync(`${installed}dist`, { recursive: true, force: true })
  cpSync(`${root}dist`, `${installed}dist`, { recursive: true })
  cpSync(`${root}package.json`, `${installed}package.json`)
}

/** What preparing the example did, with timings in seconds. */
export interface PreparedExample {
  installed: "npm ci" | "synced"
  addedExports: string[]
  seconds: { rootBuild: number; install: number; viteBuild: number }
}

/**
 * Builds authflow if needed, installs the example (`npm ci` when it has no node_modules, otherwise
 * the fresh build is copied over the installed authflow), and runs `svelte-kit sync` and
 * `vite build` (adapter-node writes `build/`).
 */
export function prepareExample(): PreparedExample {
  let started = performance.now()
  const lap = () => {
    const seconds = Math.round((performance.now() - started) / 100) / 10
    started = performance.now()
    return seconds
  }
  ensureRootBuild()
  const rootBuild = lap()
  const fresh = !existsSync(`${exampleDir}node_modules/.package-lock.json`)
  if (fresh) {
    const npm = run("npm", ["ci", "--no-audit", "--no-fund"], exampleDir)
    if (!npm.ok) throw new Error(`npm ci in examples/sveltekit failed:\n${npm.output}`)
  }
  syncInstalledPackage()
  const addedExports = ensureExports()
  const install = lap()
  const env = { ...process.env, NODE_ENV: "production" }
  const sync = run(process.execPath, [`${exampleDir}node_modules/@sveltejs/kit/svelte-kit.js`, "sync"], exampleDir, env)
  if (!sync.ok) throw new Error(`svelte-kit sync failed:\n${sync.output}`)
  const build = run(process.execPath, [`${exampleDir}node_modules/vite/bin/vite.js`, "build"], exampleDir, env)
  if (!build.ok) throw new Error(`vite build failed:\n${build.output}`)
  return { installed: fresh ? "npm ci" : "synced", addedExports, seconds: { rootBuild, install, viteBuild: lap() } }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** A running `node build` of the example. */
export interface ExampleServer {
  url: string
  output: () => string
  close: () => Promise<void>
}

/**
 * Starts the adapter-node server (`node build`) on a free loopback port and waits until it
 * answers. `ORIGIN` is set: without it adapter-node assumes `https://<host>`, and SvelteKit then
 * refuses the browser's `http://` form posts as cross-site.
 */
export async function startExample(env: Record<string, string>): Promise<ExampleServer> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(process.execPath, [`${exampleDir}build/index.js`], {
    cwd: exampleDir,
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ORIGIN: url, ...env },
    detached: true,
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => void (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => void (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))

  const close = async () => {
    if (child.exitCode === null && child.pid) {
      // Its own process group: the server and nothing else.
      process.kill(-child.pid, "SIGTERM")
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
      if (child.exitCode === null) process.kill(-child.pid, "SIGKILL")
    }
  }

  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node build exited with ${child.exitCode}:\n${output}`)
    try {
      const response = await fetch(`${url}/auth/providers`)
      if (response.ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await close()
      throw new Error(`node build did not answer within 60 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return { url, output: () => output, close }
}
