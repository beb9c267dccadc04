/**
 * Installing authflow as a user does: `npm pack` on a fresh copy of the repository (no `dist`), the
 * tarball installed into a new app in a temporary directory (offline from the npm cache), and the
 * README's plain-Node quick start run there as it is written, with `node server.mjs`, signed in to
 * over HTTP. It measures the tarball, the install footprint and the time from `npm install` to a
 * working sign-in, and prints them.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar } from "../helpers.js"

const root = new URL("../..", import.meta.url).pathname
const work = mkdtempSync(join(tmpdir(), "authflow-install-"))

/** The README's plain-Node quick start: the ```js block that starts with `// server.mjs`. */
function quickStart(): string {
  const blocks = [...readFileSync(join(root, "README.md"), "utf8").matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!)
  const block = blocks.find((text) => text.startsWith("// server.mjs"))
  if (!block) throw new Error("README.md has no ```js block starting with `// server.mjs` (the plain-Node quick start)")
  return block
}

/** The bytes of every file under `dir`. */
function bytesIn(dir: string): number {
  let bytes = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) bytes += bytesIn(full)
    else if (entry.isFile()) bytes += statSync(full).size
  }
  return bytes
}

/** The packages installed in a node_modules directory, nested ones as `a/node_modules/b`. */
function packagesIn(modules: string, prefix = ""): string[] {
  const found: string[] = []
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue
    const names = entry.name.startsWith("@") ? readdirSync(join(modules, entry.name)).map((name) => `${entry.name}/${name}`) : [entry.name]
    for (const name of names) {
      found.push(prefix + name)
      const nested = join(modules, name, "node_modules")
      if (existsSync(nested)) found.push(...packagesIn(nested, `${prefix}${name}/node_modules/`))
    }
  }
  return found.sort()
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

let server: ChildProcess | undefined
let output = ""

/** Starts the app's `node server.mjs` and waits until it listens. */
async function start(app: string, env: Record<string, string>): Promise<string> {
  const port = await freePort()
  const { AUTH_SECRET: _secret, AUTH_URL: _url, NODE_ENV: _env, ...inherited } = process.env
  output = ""
  server = spawn(process.execPath, ["server.mjs"], { cwd: app, env: { ...inherited, PORT: String(port), ...env }, stdio: ["ignore", "pipe", "pipe"] })
  server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const deadline = Date.now() + 20_000
  while (!output.includes("Listening on")) {
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`server.mjs did not start:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return `http://localhost:${port}`
}

async function stop(): Promise<void> {
  if (!server || server.exitCode !== null || server.signalCode !== null) return
  const exited = new Promise((resolve) => server!.once("exit", resolve))
  server.kill("SIGTERM")
  await exited
}

async function get(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  if (jar.cookies.size) headers.set("cookie", jar.header())
  const response = await fetch(url, { ...init, headers, redirect: "manual" })
  jar.take(response)
  return response
}

async function signIn(base: string, jar: CookieJar, password: string): Promise<Response> {
  const { csrfToken } = (await (await get(jar, `${base}/auth/csrf`)).json()) as { csrfToken: string }
  return get(jar, `${base}/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, username: "ada", password, callbackUrl: `${base}/` }),
  })
}

describe("the packed tarball, installed into a fresh app", () => {
  let tarball = ""
  let app = ""
  /** What `npm pack --json` says of the tarball. */
  let pack: { filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] }
  let installMs = 0

  beforeAll(() => {
    // A fresh copy of what a clone holds (no dist), with the repository's dev dependencies.
    const clone = join(work, "clone")
    for (const entry of ["package.json", "README.md", "LICENSE", "tsconfig.json", "tsconfig.build.json", "src"]) cpSync(join(root, entry), join(clone, entry), { recursive: true })
    symlinkSync(join(root, "node_modules"), join(clone, "node_modules"))
    const packed = execFileSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: clone, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    pack = (JSON.parse(packed) as (typeof pack)[])[0]!
    tarball = join(work, pack.filename)

    app = join(work, "app")
    mkdirSync(app, { recursive: true })
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "my-app", private: true, type: "module" }, null, 2))
    writeFileSync(join(app, "server.mjs"), quickStart())
    const began = Date.now()
    execFileSync("npm", ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund"], { cwd: app, stdio: ["ignore", "pipe", "pipe"] })
    installMs = Date.now() - began
  }, 300_000)

  afterAll(async () => {
    await stop()
    rmSync(work, { recursive: true, force: true })
  })

  it("holds dist and nothing it does not need: no tests, no sources, no source maps", () => {
    const paths = pack.files.map((file) => file.path)
    expect(paths).toContain("dist/index.js")
    expect(paths).toContain("dist/index.d.ts")
    expect(paths).toContain("dist/cli.js")
    expect(paths.filter((path) => !path.startsWith("dist/"))).toEqual(expect.arrayContaining(["package.json", "README.md", "LICENSE"]))
    expect(paths.filter((path) => !path.startsWith("dist/") && !["package.json", "README.md", "LICENSE"].includes(path))).toEqual([])
    expect(paths.filter((path) => /\.map$|\.test\.|\.tsbuildinfo$|\.tsx?$/.test(path) && !path.endsWith(".d.ts"))).toEqual([])
    // Every entry of `exports` is in the tarball.
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, { import?: string } | string> }
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const file = typeof target === "string" ? target : target.import
      if (file && !file.includes("*")) expect(paths, subpath).toContain(file.replace(/^\.\//, ""))
    }
    expect(pack.size).toBeLessThan(600_000)
    expect(pack.unpackedSize).toBeLessThan(2_000_000)
  })

  it("installs what a credentials app needs, without the inspector's elkjs", () => {
    const bytes = bytesIn(join(app, "node_modules"))
    const packages = packagesIn(join(app, "node_modules"))
    console.log(
      `[install] tarball ${(pack.size / 1024).toFixed(0)} KB (${(pack.unpackedSize / 1024 / 1024).toFixed(2)} MB unpacked, ${pack.entryCount} files); ` +
        `node_modules ${packages.length} packages, ${(bytes / 1024 / 1024).toFixed(1)} MB: ${packages.join(", ")}; npm install ${installMs} ms`,
    )
    expect(packages).toEqual(["@xstate/graph", "authflow", "jose", "oauth4webapi", "preact", "preact-render-to-string", "xstate"])
    expect(existsSync(join(app, "node_modules/elkjs"))).toBe(false)
  })

  it("the authflow command works from the installed package", () => {
    const mermaid = execFileSync(join(app, "node_modules/.bin/authflow"), ["machines", "--format", "mermaid", "--machine", "credentials-sign-in"], { cwd: app, encoding: "utf8" })
    expect(mermaid).toMatch(/^stateDiagram-v2/m)
    expect(mermaid).toContain("signedIn")
  })

  it("without AUTH_SECRET the quick start keeps serving: 500s, and the log says what to set", async () => {
    const base = await start(app, {})
    const page = await fetch(`${base}/`)
    expect(page.status).toBe(500)
    const route = await fetch(`${base}/auth/session`)
    expect(route.status).toBe(500)
    expect(await route.json()).toEqual({ message: expect.any(String) })
    expect((await fetch(`${base}/`)).status).toBe(500) // still up
    expect(server!.exitCode).toBe(null)
    expect(output).toMatch(/MissingSecret: .*set AUTH_SECRET/)
    await stop()
  })

  it("signs in over HTTP as the README says, and app pages forward the refreshed session cookie", async () => {
    const began = Date.now()
    const base = await start(app, { AUTH_SECRET: "a-long-random-secret-for-the-install-test" })
    const jar = new CookieJar()
    expect(await (await get(jar, `${base}/`)).text()).toContain("Not signed in")
    const signInPage = await get(jar, `${base}/auth/signin`)
    expect(signInPage.status).toBe(200)
    expect(await signInPage.text()).toContain('name="password"')

    const wrong = await signIn(base, jar, "wrong")
    expect(wrong.status).toBe(302)
    expect(wrong.headers.get("location")).toBe(`${base}/auth/signin?error=CredentialsSignin&code=credentials`)

    const right = await signIn(base, jar, "lovelace")
    expect(right.status).toBe(302)
    expect(right.headers.get("location")).toBe(`${base}/`)
    // npm install, then starting the app and signing in (the other tests in between not counted).
    const signedInMs = installMs + (Date.now() - began)
    expect(jar.cookies.has("authjs.session-token")).toBe(true)

    const home = await get(jar, `${base}/`)
    expect(await home.text()).toContain("Hello Ada Lovelace")
    const forwarded = home.headers.getSetCookie().find((cookie) => cookie.startsWith("authjs.session-token="))
    expect(forwarded, "the page forwards the re-issued session cookie").toMatch(/Expires=/)
    console.log(`[install] from npm install to a working sign-in: ${signedInMs} ms (npm install ${installMs} ms)`)
    // A wrong password is one info line, not an error with a stack.
    expect(output).toContain("[auth][info] CredentialsSignin")
    expect(output).not.toContain("[auth][error]")
    await stop()
  })
})
