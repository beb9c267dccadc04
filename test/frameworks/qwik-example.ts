/**
 * Builds and serves examples/qwik against this repository's authflow: the built package (`dist/`)
 * is what the example installs, as a user would install the published one.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

export const root = fileURLToPath(new URL("../../", import.meta.url))
export const exampleDir = `${root}examples/qwik/`
const installed = `${exampleDir}node_modules/authflow/`

/** The entries the example imports; `package.json` must export them (see ensureExports). */
const frameworkExports: Record<string, { types: string; import: string }> = {
  "./qwik": { types: "./dist/frameworks/qwik/index.d.ts", import: "./dist/frameworks/qwik/index.js" },
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
  const marker = `${root}dist/frameworks/qwik/index.js`
  if (existsSync(marker) && statSync(marker).mtimeMs >= newestMtime(`${root}src`)) return
  const { output } = run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", "tsconfig.build.json"], root)
  // tsc emits even when some file elsewhere has a type error; `npm test` reports those.
  if (!existsSync(marker)) throw new Error(`Building authflow failed:\n${output}`)
}

/**
 * Until the root package.json exports `./qwik`, the installed copy gets it added, so the example
 * can import it. Returns the entries that had to be added.
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
 * the fresh build is copied over the installed authflow), and runs its `vite build` (client, then
 * the Node server).
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
    if (!npm.ok) throw new Error(`npm ci in examples/qwik failed:\n${npm.output}`)
  }
  syncInstalledPackage()
  const addedExports = ensureExports()
  const install = lap()
  const vite = `${exampleDir}node_modules/vite/bin/vite.js`
  for (const args of [["build"], ["build", "-c", "adapters/node-server/vite.config.ts"]]) {
    const build = run(process.execPath, [vite, ...args], exampleDir, { ...process.env, NODE_ENV: "production" })
    if (!build.ok) throw new Error(`vite ${args.join(" ")} failed:\n${build.output}`)
  }
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

/** A running Node server of the example. */
export interface ExampleServer {
  url: string
  output: () => string
  close: () => Promise<void>
}

/** Starts `node server/entry.node-server.js` on a free loopback port and waits until it answers. */
export async function startExample(env: Record<string, string>): Promise<ExampleServer> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(process.execPath, [`${exampleDir}server/entry.node-server.js`], {
    cwd: exampleDir,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
    detached: true,
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => void (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => void (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))

  // A child ended by a signal keeps `exitCode` null and gets a `signalCode`.
  const running = () => child.exitCode === null && child.signalCode === null
  const signal = (name: NodeJS.Signals) => {
    try {
      // Its own process group: the server and nothing else.
      if (child.pid) process.kill(-child.pid, name)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error
    }
  }
  const close = async () => {
    if (!running()) return
    signal("SIGTERM")
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
    if (running()) signal("SIGKILL")
  }

  const deadline = Date.now() + 60_000
  for (;;) {
    if (!running()) throw new Error(`the example's server exited (${child.exitCode ?? child.signalCode}):\n${output}`)
    try {
      const response = await fetch(`${url}/auth/providers`)
      if (response.ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await close()
      throw new Error(`the example's server did not answer within 60 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return { url, output: () => output, close }
}
