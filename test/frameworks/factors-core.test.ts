/**
 * The core the wrappers share (`runFactorCall`): what is a refusal (a value) and what is an error
 * (thrown), beyond the walk each wrapper's test takes.
 */
import { describe, expect, it } from "vitest"
import { AuthError } from "../../src/core/errors.js"
import { runFactorCall, type FactorCallContext } from "../../src/frameworks/shared/factors.js"
import { memoryStore } from "../../src/rate-limit.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar } from "../helpers.js"
import { factorWorld, keep, signInAda } from "./factors-scenario.js"

const origin = "http://app.test"

function contextOf(config: Omit<AuthConfig, "raw">, jar: CookieJar): FactorCallContext {
  return { config, url: new URL(`${origin}/auth/factors`), headers: new Headers({ cookie: jar.header() }), clientAddress: "203.0.113.9", setCookies: (cookies) => keep(jar, cookies) }
}

describe("runFactorCall", () => {
  it("answers the rate limit as a refusal, RateLimited with 429", async () => {
    const { config: base } = await factorWorld()
    const config = { ...base, rateLimit: { store: memoryStore(), limits: { "second-factor": { identifier: { max: 1, windowSeconds: 60 } } } } }
    const jar = new CookieJar()
    await signInAda(config, jar, origin, "/auth")
    expect(await runFactorCall({ action: "enrol" }, contextOf(config, jar))).toMatchObject({ ok: true })
    expect(await runFactorCall({ action: "confirm", code: "000000" }, contextOf(config, jar))).toEqual({ ok: false, error: "wrong-code", status: 400 })
    expect(await runFactorCall({ action: "confirm", code: "000000" }, contextOf(config, jar))).toEqual({ ok: false, error: "RateLimited", status: 429 })
  })

  it("throws a configuration error (here: no secret) as an AuthError saying where to look, never a refusal", async () => {
    const { config } = await factorWorld()
    const { secret: _none, ...withoutSecret } = config
    const quiet = { ...withoutSecret, logger: { error: () => {} } }
    const call = runFactorCall({ action: "list" }, contextOf(quiet, new CookieJar()))
    await expect(call).rejects.toBeInstanceOf(AuthError)
    await expect(call).rejects.toThrow(/HTTP 500.*\[auth\]\[error\]/)
  })
})
