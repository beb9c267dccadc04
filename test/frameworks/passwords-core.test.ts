/**
 * The core the wrappers share (`runPasswordCall`): what is a refusal (a value) and what is an
 * error (thrown), beyond the walk each wrapper's test takes.
 */
import { describe, expect, it } from "vitest"
import { AuthError } from "../../src/core/errors.js"
import { runPasswordCall, type PasswordCallContext } from "../../src/frameworks/shared/passwords.js"
import Password from "../../src/providers/password.js"
import { memoryStore } from "../../src/rate-limit.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar } from "../helpers.js"
import { keep } from "./factors-scenario.js"
import { passwordWorld } from "./passwords-scenario.js"

const origin = "http://app.test"

function contextOf(config: Omit<AuthConfig, "raw">, route: string, jar = new CookieJar()): PasswordCallContext {
  return { config, url: new URL(`${origin}/auth/${route}`), headers: new Headers(jar.cookies.size ? { cookie: jar.header() } : {}), clientAddress: "203.0.113.9", setCookies: (cookies) => keep(jar, cookies) }
}

describe("runPasswordCall", () => {
  it("answers the rate limit as a refusal, RateLimited with 429", async () => {
    const { config: base, mails } = passwordWorld()
    const config = { ...base, rateLimit: { store: memoryStore(), limits: { "password-reset": { identifier: { max: 1, windowSeconds: 60 } } } } }
    const done = { ok: true, error: undefined, status: 200 }
    expect(await runPasswordCall("forgot-password", { email: "nobody@example.test" }, contextOf(config, "forgot-password"))).toEqual(done)
    expect(await runPasswordCall("forgot-password", { email: "nobody@example.test" }, contextOf(config, "forgot-password"))).toEqual({ ok: false, error: "RateLimited", status: 429 })
    expect(mails).toEqual([])
  })

  it("sends the named provider's route, and only the route's string fields", async () => {
    const { config: base } = passwordWorld()
    const config = { ...base, providers: [Password({ id: "staff", sendMail: () => {} })] }
    expect(await runPasswordCall("forgot-password", { email: "x@example.test", provider: "staff" }, contextOf(config, "forgot-password"))).toMatchObject({ ok: true })
    expect(await runPasswordCall("forgot-password", { email: ["x@example.test"], provider: "staff" }, contextOf(config, "forgot-password"))).toEqual({ ok: false, error: "InvalidEmail", status: 400 })
  })

  it("throws a configuration error (a reset without sendMail, no secret) as an AuthError, never a refusal", async () => {
    const { config } = passwordWorld()
    const quiet = { ...config, logger: { error: () => {} } }
    const noMail = { ...quiet, providers: [Password()] }
    await expect(runPasswordCall("forgot-password", { email: "ada@example.test" }, contextOf(noMail, "forgot-password"))).rejects.toMatchObject({ type: "InvalidProvider" })
    const { secret: _none, ...withoutSecret } = quiet
    const call = runPasswordCall("change-password", { currentPassword: "a", newPassword: "b" }, contextOf(withoutSecret, "change-password"))
    await expect(call).rejects.toBeInstanceOf(AuthError)
    await expect(call).rejects.toThrow(/HTTP 500.*\[auth\]\[error\]/)
  })
})
