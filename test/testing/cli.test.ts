/**
 * `authflow test <config> [--update]` on a small configuration module in a temporary directory:
 * it records the snapshot beside the module, passes while nothing changes, exits 1 with the
 * changed path's diff when the configuration changes, and `--update` accepts the change.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))
const cli = join(root, "src/cli.ts")
const src = (path: string) => JSON.stringify(pathToFileURL(join(root, "src", path)).href)

/** A configuration module: a credentials provider whose authorize accepts `password`. */
function configModule(password: string): string {
  return `import Credentials from ${src("providers/credentials.js")}
import { MemoryAdapter } from ${src("adapters/memory.js")}

const config = {
  secret: "cli-test-secret",
  session: { strategy: "jwt" },
  providers: [
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: ({ username, password }) => (username === "ada" && password === ${JSON.stringify(password)} ? { id: "ada", name: "Ada", email: "ada@example.test" } : null),
    }),
  ],
}

export default async () => ({
  config,
  fixtures: { credentials: { credentials: { accepted: { username: "ada", password: "lovelace" }, rejected: { username: "ada", password: "wrong" } } } },
})
`
}

/** The latest modification time of any file under `dir`. */
function newestUnder(dir: string): number {
  return Math.max(0, ...readdirSync(dir, { recursive: true, encoding: "utf8" }).map((path) => statSync(join(dir, path)).mtimeMs))
}

function authflowTest(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", cli, "test", ...args], { cwd: root, encoding: "utf8", timeout: 60_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe("authflow test", () => {
  const dir = mkdtempSync(join(tmpdir(), "authflow-cli-"))
  const module = join(dir, "auth.config.ts")
  const snapshot = join(dir, "auth.snap.json")
  beforeAll(() => {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }))
    writeFileSync(module, configModule("lovelace"))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("records the snapshot beside the module on the first run, with a coverage table", () => {
    const { status, stdout } = authflowTest(module)
    expect(status).toBe(0)
    expect(stdout).toMatch(/^credentials-sign-in {2}\d+\/\d+ reachable transitions \(37 declared, 17 guarded\), 23 states$/m)
    expect(stdout).toMatch(/^sign-out +\d+\/\d+ reachable transitions/m)
    expect(stdout).toContain("no callbacks.signIn: every sign-in is allowed")
    expect(stdout).toContain(`paths recorded: wrote ${snapshot}`)
    const recorded = JSON.parse(readFileSync(snapshot, "utf8")) as { paths: Record<string, { final: string }> }
    expect(recorded.paths["credentials-sign-in credentials: accepted credentials"]!.final).toBe("signedIn")
  })

  it("passes while the outcomes stay the same", () => {
    const { status, stdout } = authflowTest(module)
    expect(status).toBe(0)
    expect(stdout).toMatch(/\d+ paths unchanged\n$/)
  })

  it("exits 1 with each changed path's diff when the configuration changes, and --update accepts it", () => {
    writeFileSync(module, configModule("a-new-password"))
    const changed = authflowTest(module)
    expect(changed.status).toBe(1)
    expect(changed.stdout).toContain("credentials-sign-in credentials: accepted credentials → now ends in credentialsRejected (was signedIn): providers.credentials.authorize changed?")
    expect(changed.stdout).toContain('  final: "signedIn" → "credentialsRejected"')
    expect(changed.stdout).toMatch(/1 of \d+ paths differ from .*auth\.snap\.json \(run with --update to accept them\)/)
    expect(JSON.parse(readFileSync(snapshot, "utf8")).paths["credentials-sign-in credentials: accepted credentials"].final).toBe("signedIn")

    const updated = authflowTest(module, "--update")
    expect(updated.status).toBe(0)
    expect(updated.stdout).toContain("paths updated: wrote")
    expect(JSON.parse(readFileSync(snapshot, "utf8")).paths["credentials-sign-in credentials: accepted credentials"].final).toBe("credentialsRejected")
    expect(authflowTest(module).status).toBe(0)
  })

  it("explains its usage, and refuses a module without a configuration", () => {
    expect(authflowTest("--help")).toMatchObject({ status: 0, stdout: expect.stringContaining("Usage: authflow test <config module> [--update]") })
    expect(authflowTest()).toMatchObject({ status: 2, stderr: expect.stringContaining("give one configuration module") })
    expect(authflowTest(module, "--frobnicate")).toMatchObject({ status: 2, stderr: expect.stringContaining('unknown option "--frobnicate"') })
    const empty = join(dir, "empty.config.ts")
    writeFileSync(empty, "export default { nothing: true }\n")
    expect(authflowTest(empty)).toMatchObject({ status: 2, stderr: expect.stringContaining("empty.config.ts exports no configuration: export it as `export const config`") })
  })

  it("reads a configuration module as the docs keep it: `export const config` and `export const fixtures`, which a server imports too", () => {
    const named = join(dir, "named.config.ts")
    writeFileSync(
      named,
      configModule("lovelace").replace("const config =", "export const config =").replace(/export default async \(\) => \(\{\n  config,\n  fixtures: (.*),\n\}\)\n$/s, "export const fixtures = $1\n"),
    )
    expect(readFileSync(named, "utf8")).not.toContain("export default")
    const run = authflowTest(named)
    expect(run.stderr).toBe("")
    expect(run.status).toBe(0)
    const recorded = JSON.parse(readFileSync(join(dir, "named.snap.json"), "utf8")) as { paths: Record<string, { final: string }> }
    // The fixtures were read: the accepted credentials' path ran, and signed in.
    expect(recorded.paths["credentials-sign-in credentials: accepted credentials"]!.final).toBe("signedIn")
  })

  it("names the transitions your own code never took in words, never by key", () => {
    const callback = join(dir, "callback.config.ts")
    writeFileSync(callback, configModule("lovelace").replace('session: { strategy: "jwt" },', 'session: { strategy: "jwt" },\n  callbacks: { signIn: () => true },'))
    const run = authflowTest(callback)
    expect(run.status).toBe(0)
    expect(run.stdout).toContain("never taken by callbacks.signIn: the signIn callback answered false (checkingSignIn → accessDenied)")
    expect(run.stdout).toContain("never taken by callbacks.signIn: the signIn callback answered a URL (checkingSignIn → resolvingRedirect)")
    expect(run.stdout, "no transition key (<state id>:<event>:<index>)").not.toMatch(/\w\.\w+:[\w.]+:\d/)
  })

  it("names a package the module needs and the project lacks, in one line with the command that installs it", () => {
    const missing = "authflow-test-missing-package"
    const atLoad = join(dir, "imports.config.ts")
    writeFileSync(atLoad, `import ${JSON.stringify(`${missing}/sub`)}\n${configModule("lovelace")}`)
    expect(authflowTest(atLoad)).toMatchObject({ status: 2, stdout: "", stderr: `authflow test: imports.config.ts needs ${missing} (not installed): npm install ${missing}\n` })
    // A driver the fresh adapter loads only once a path runs, as createSqliteDatabase loads better-sqlite3.
    const atRun = join(dir, "driver.config.ts")
    writeFileSync(
      atRun,
      `import { createRequire } from "node:module"
import { MemoryAdapter } from ${src("adapters/memory.js")}
import setup from "./auth.config.ts"

export default async () => {
  const { config, fixtures } = await setup()
  return { config: { ...config, adapter: MemoryAdapter() }, fixtures: { ...fixtures, freshAdapter: () => createRequire(import.meta.url)(${JSON.stringify(missing)}) } }
}
`,
    )
    expect(authflowTest(atRun)).toMatchObject({ status: 2, stdout: "", stderr: `authflow test: driver.config.ts needs ${missing} (not installed): npm install ${missing}\n` })
    expect(existsSync(join(dir, "driver.snap.json"))).toBe(false)
  })

  it("reports a configuration Auth() refuses as Auth() does, in one line, and runs no path", () => {
    const emailOnly = join(dir, "email.config.ts")
    writeFileSync(
      emailOnly,
      `import Nodemailer from ${src("providers/nodemailer.js")}
export default { config: { secret: "cli-test-secret", providers: [Nodemailer({ server: "smtp://127.0.0.1:1", from: "auth@example.test" })] } }
`,
    )
    const run = authflowTest(emailOnly)
    expect(run.stderr).toBe("authflow test: MissingAdapter: Email login requires an adapter\n")
    expect(run.stdout).toBe("")
    expect(run.status).toBe(2)
    expect(existsSync(join(dir, "email.snap.json"))).toBe(false)
  })

  describe("built, as the published bin runs", () => {
    const dist = join(root, "test-output/testing-cli-dist")
    beforeAll(() => {
      if (!existsSync(join(dist, "cli.js")) || newestUnder(join(root, "src")) > statSync(join(dist, "cli.js")).mtimeMs) {
        mkdirSync(dist, { recursive: true })
        // dist's JavaScript as `npm run build` writes it (no declarations: this test runs the bin).
        spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts/bundle-dist.ts"), "--out", dist], { cwd: root, encoding: "utf8" })
      }
    }, 120_000)

    const bin = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [join(dist, "cli.js"), "test", ...args], { cwd, encoding: "utf8", timeout: 60_000 })

    it("runs a .ts module again under the tsx of the module's project", () => {
      const inRepo = join(root, "test-output/testing-cli-module")
      mkdirSync(inRepo, { recursive: true })
      writeFileSync(join(inRepo, "package.json"), JSON.stringify({ type: "module" }))
      writeFileSync(join(inRepo, "auth.config.ts"), configModule("lovelace"))
      rmSync(join(inRepo, "auth.snap.json"), { force: true })
      const run = bin(inRepo, "auth.config.ts")
      expect(run.stderr).toBe("")
      expect(run.status).toBe(0)
      expect(run.stdout).toContain("paths recorded")
    })

    it("says in one line to install tsx when the module's project has none", () => {
      const run = bin(dir, module)
      expect(run.status).toBe(2)
      expect(run.stderr).toBe("authflow test: auth.config.ts is TypeScript: install tsx in its project (npm install -D tsx) or compile it to JavaScript first\n")
    })
  })

  it("the bin starts with a shebang", () => {
    expect(execFileSync("head", ["-c", "20", cli], { encoding: "utf8" })).toBe("#!/usr/bin/env node\n")
  })
})
