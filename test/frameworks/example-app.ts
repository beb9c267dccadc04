/**
 * Builds and serves an app of examples/ against this repository's authflow, for the browser tests:
 * the built package (`dist/`) is what the example installs, as a user would install the published
 * one. Each framework describes its example with an `ExampleApp`; `exampleInChromium` does the
 * rest (install, build, start on a free loopback port, launch Chromium, and stop both afterwards).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { launchChromium } from "../support/chromium.js"

export const root = fileURLToPath(new URL("../../", import.meta.url))
/** Where the browser tests put their screenshots. */
export const screenshots = fileURLToPath(new URL("../../test-output/e2e/", import.meta.url))

/** A command run with Node in the example's directory; `script` is relative to it. */
export interface Command {
  script: string
  args?: string[]
}

/** What differs between the examples. */
export interface ExampleApp {
  /** The directory under examples/; also the framework's entry, `dist/frameworks/<name>/index.js`. */
  name: string
  /** The entries the example imports; the installed `package.json` gets any that it lacks. */
  exports: Record<string, Record<string, string>>
  /** Run in order after installing, with NODE_ENV=production and `env`. */
  build: Command[]
  /** How the build step is named in the log ("next build"). */
  buildName: string
  /** The server, given its port and URL; runs with NODE_ENV=production, `env` and the test's env. */
  start: (port: number, url: string) => Command & { env?: Record<string, string> }
  /** Added to the environment of both the build and the server. */
  env?: Record<string, string>
  /** The path that answers 2xx once the server is ready. */
  readyPath: string
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

function exampleDir(app: ExampleApp): string {
  return `${root}examples/${app.name}/`
}

/** `dist/` as `npm test` leaves it; rebuilt only when a source file is newer (a lone vitest run). */
function ensureRootBuild(app: ExampleApp): void {
  const marker = `${root}dist/frameworks/${app.name}/index.js`
  if (existsSync(marker) && statSync(marker).mtimeMs >= newestMtime(`${root}src`)) return
  // The declarations, then the JavaScript (bundled into dist/ as `npm run build` does). tsc emits
  // even when some file elsewhere has a type error; `npm test` reports those.
  const declarations = run(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", "tsconfig.build.json"], root)
  const bundled = run(process.execPath, ["--import", "tsx", `${root}scripts/bundle-dist.ts`], root)
  if (!existsSync(marker)) throw new Error(`Building authflow failed:\n${declarations.output}\n${bundled.output}`)
}

/**
 * Puts the current build where the example's `node_modules/authflow` is, as `npm ci` would, and,
 * until the root package.json exports the example's entries, adds them to the installed copy.
 * Returns the entries that had to be added.
 */
function syncInstalledPackage(app: ExampleApp): string[] {
  const installed = `${exampleDir(app)}node_modules/authflow/`
  rmSync(`${installed}dist`, { recursive: true, force: true })
  cpSync(`${root}dist`, `${installed}dist`, { recursive: true })
  cpSync(`${root}package.json`, `${installed}package.json`)
  const path = `${installed}package.json`
  const manifest = JSON.parse(readFileSync(path, "utf8")) as { exports: Record<string, unknown> }
  const missing = Object.keys(app.exports).filter((key) => !(key in manifest.exports))
  if (missing.length) {
    for (const key of missing) manifest.exports[key] = app.exports[key]
    writeFileSync(path, JSON.stringify(manifest, null, 2))
  }
  return missing
}

/**
 * Whether `node_modules` holds every package of the example's lockfile (npm's hidden lockfile,
 * `node_modules/.package-lock.json`, lists what is installed): a dependency added to the example
 * since the last install calls for `npm ci` again.
 */
function installedAsLocked(dir: string): boolean {
  const hidden = `${dir}node_modules/.package-lock.json`
  if (!existsSync(hidden)) return false
  const packages = (path: string) => (JSON.parse(readFileSync(path, "utf8")) as { packages?: Record<string, { optional?: boolean }> }).packages ?? {}
  const installed = packages(hidden)
  // Optional packages (other platforms' binaries) are rightly missing.
  return Object.entries(packages(`${dir}package-lock.json`)).every(([name, entry]) => name === "" || entry.optional || name in installed)
}

/** What preparing the example did, with timings in seconds. */
export interface PreparedExample {
  installed: "npm ci" | "synced"
  addedExports: string[]
  seconds: { rootBuild: number; install: number; build: number }
}

/**
 * Builds authflow if needed, installs the example (`npm ci` when it has no node_modules, otherwise
 * the fresh build is copied over the installed authflow) and runs its build commands.
 */
export function prepareExample(app: ExampleApp): PreparedExample {
  const dir = exampleDir(app)
  let started = performance.now()
  const lap = () => {
    const seconds = Math.round((performance.now() - started) / 100) / 10
    started = performance.now()
    return seconds
  }
  ensureRootBuild(app)
  const rootBuild = lap()
  const fresh = !installedAsLocked(dir)
  if (fresh) {
    const npm = run("npm", ["ci", "--no-audit", "--no-fund"], dir)
    if (!npm.ok) throw new Error(`npm ci in examples/${app.name} failed:\n${npm.output}`)
  }
  const addedExports = syncInstalledPackage(app)
  const install = lap()
  const env = { ...process.env, NODE_ENV: "production", ...app.env }
  for (const { script, args = [] } of app.build) {
    const build = run(process.execPath, [`${dir}${script}`, ...args], dir, env)
    if (!build.ok) throw new Error(`${script} ${args.join(" ")} in examples/${app.name} failed:\n${build.output}`)
  }
  return { installed: fresh ? "npm ci" : "synced", addedExports, seconds: { rootBuild, install, build: lap() } }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** A running server of the example. */
export interface ExampleServer {
  url: string
  output: () => string
  close: () => Promise<void>
}

/** Starts the example's server on a free loopback port and waits until `readyPath` answers. */
export async function startExample(app: ExampleApp, env: Record<string, string>): Promise<ExampleServer> {
  const dir = exampleDir(app)
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const start = app.start(port, url)
  return startServer(`the examples/${app.name} server`, [process.execPath, `${dir}${start.script}`, ...(start.args ?? [])], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", ...app.env, ...start.env, ...env },
    url,
    readyPath: app.readyPath,
  })
}

/**
 * Starts a server (`command`, in its own process group, so closing it ends any worker it forked)
 * and waits until `url` + `readyPath` answers; `name` says which server in its errors.
 */
export async function startServer(
  name: string,
  command: string[],
  { cwd, env, url, readyPath }: { cwd: string; env: NodeJS.ProcessEnv; url: string; readyPath: string },
): Promise<ExampleServer> {
  const child: ChildProcess = spawn(command[0]!, command.slice(1), { cwd, env, detached: true })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => void (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => void (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))

  // A child ended by a signal keeps `exitCode` null and gets a `signalCode`.
  const running = () => child.exitCode === null && child.signalCode === null
  const signal = (signalName: NodeJS.Signals) => {
    try {
      // Its own process group: the server and any worker it forked, nothing else.
      if (child.pid) process.kill(-child.pid, signalName)
    } catch (error) {
      // The group is already gone.
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
    if (!running()) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${output}`)
    try {
      if ((await fetch(`${url}${readyPath}`)).ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await close()
      throw new Error(`${name} did not answer ${readyPath} within 60 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return { url, output: () => output, close }
}

/** The running example and the browser that drives it, set once `beforeAll` has run. */
export interface ExampleInChromium {
  readonly server: ExampleServer
  readonly browser: Browser
  /** The server's URL. */
  readonly base: string
}

/**
 * Registers the `beforeAll` that prepares and starts the example (its server gets `env`) and
 * launches Chromium, and the `afterAll` that closes both; call it inside the suite's body.
 */
export function exampleInChromium(app: ExampleApp, env: Record<string, string>): ExampleInChromium {
  let server: ExampleServer | undefined
  let browser: Browser | undefined
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`examples/${app.name}: no ${what} (beforeAll failed or has not run)`)
    return value
  }

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true })
    const prepared = prepareExample(app)
    console.log(
      `examples/${app.name}: ${prepared.installed}; root build ${prepared.seconds.rootBuild} s, install ${prepared.seconds.install} s, ${app.buildName} ${prepared.seconds.build} s` +
        (prepared.addedExports.length ? `; added to the installed package.json exports: ${prepared.addedExports.join(", ")}` : ""),
    )
    server = await startExample(app, env)
    browser = await launchChromium()
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  return {
    get server() {
      return ready(server, "server")
    },
    get browser() {
      return ready(browser, "browser")
    },
    get base() {
      return ready(server, "server").url
    },
  }
}

/** Fills an example's credentials form with the demo user (ada) and submits it. */
export async function submitDemoCredentials(page: Page, password = "lovelace"): Promise<void> {
  await page.getByLabel("Username").fill("ada")
  await page.getByLabel("Password").fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
}
