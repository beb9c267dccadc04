/**
 * What the built-in logger prints, seen as an operator sees it: a real Node process whose stdout and
 * stderr are pipes (a log collector, `> file`, docker logs), running a credentials sign-in with a
 * wrong password and then a server-side failure.
 */
import { spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"

const root = new URL("../..", import.meta.url).pathname

const script = `
import { Auth } from "./src/index.ts"
import Credentials from "./src/providers/credentials.ts"
import { CookieJar, send, csrfTokenFor } from "./test/helpers.ts"
const config = {
  secret: "a-secret-long-enough-for-the-test",
  trustHost: true,
  providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: ({ username, password }) => {
    if (password === "explode") throw new Error("database down")
    return username === "ada" && password === "lovelace" ? { id: "1", name: "Ada" } : null
  } })],
}
const jar = new CookieJar()
const csrfToken = await csrfTokenFor(config, jar)
const wrong = await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: "nope" } })
console.log("wrong password answered", wrong.status, wrong.headers.get("location"))
const stale = await send(config, new CookieJar(), "/callback/credentials", { form: { csrfToken: "stale", username: "ada", password: "lovelace" } })
console.log("stale form answered", stale.status)
await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: "explode" } })
`

/** Runs the script in a child process whose stdout and stderr are pipes. */
function runBoth(env: Record<string, string> = {}): { stdout: string; stderr: string } {
  const { FORCE_COLOR: _force, NO_COLOR: _no, ...inherited } = process.env
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, env: { ...inherited, ...env }, encoding: "utf8" })
  expect(child.status, child.stderr).toBe(0)
  return { stdout: child.stdout, stderr: child.stderr }
}

describe("the built-in logger, written to pipes", () => {
  it("a wrong password and a stale form are one [auth][info] line each, with no stack and no colour", () => {
    const { stdout, stderr } = runBoth()
    expect(stdout).toContain("wrong password answered 302")
    const info = stdout.split("\n").filter((line) => line.startsWith("[auth]"))
    expect(info).toEqual([
      "[auth][info] CredentialsSignin: a sign-in with credentials was refused (authorize returned null or threw CredentialsSignin)",
      expect.stringMatching(/^\[auth\]\[info\] MissingCSRF: .+/),
    ])
    expect(stderr).not.toContain("CredentialsSignin")
    expect(stderr).not.toContain("MissingCSRF")
    // No ANSI escape anywhere: the streams are not terminals.
    expect(stdout + stderr).not.toMatch(/\u001b\[/)
  })

  it("an AccessDenied wrapping what a signIn callback threw is logged in full, an outright refusal in one line", async () => {
    const { AccessDenied, CredentialsSignin } = await import("../../src/errors.js")
    const { isUserMistake } = await import("../../src/core/logger.js")
    expect(isUserMistake(new CredentialsSignin())).toBe(true)
    expect(isUserMistake(new AccessDenied("AccessDenied"))).toBe(true)
    expect(isUserMistake(new AccessDenied(new Error("database down")))).toBe(false)
    expect(isUserMistake(new Error("CredentialsSignin"))).toBe(false)
  })

  it("a server-side failure is still an [auth][error] with its cause's stack, on stderr", () => {
    const { stderr } = runBoth()
    expect(stderr).toMatch(/^\[auth\]\[error\] CallbackRouteError: database down$/m)
    expect(stderr).toMatch(/^\[auth\]\[cause\]: Error: database down\n\s+at /m)
  })

  it("colours only when asked to, as Node does: FORCE_COLOR colours pipes too", () => {
    const { stdout, stderr } = runBoth({ FORCE_COLOR: "1" })
    expect(stderr).toContain("\u001b[31m[auth][error]\u001b[0m")
    expect(stdout).toContain("\u001b[36m[auth][info]\u001b[0m CredentialsSignin")
  })
})
