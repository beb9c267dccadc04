/**
 * The password server functions of `authflow/solid-start`, called as a `"use server"` function
 * would with `getRequestEvent()`: a hand-built event from the browser's jar, whose
 * `event.response.headers` Set-Cookie lines go back into that jar.
 */
import { describe, expect, it } from "vitest"
import { changeEmail, changePassword, requestPasswordReset, resetPassword, type FactorEvent, type SolidAuthConfig } from "../../src/frameworks/solid-start/index.js"
import type { ServerPasswords } from "../../src/frameworks/shared/passwords.js"
import { buildRequest, CookieJar } from "../helpers.js"
import { browserAt, changeAndReset, passwordWorld } from "./passwords-scenario.js"

const origin = "http://solid.test"

/** Runs `call` on an event from the browser `jar` (a server function's POST), then keeps the cookies it set. */
async function fromBrowser<R>(jar: CookieJar, call: (event: FactorEvent) => Promise<R>, headers: Record<string, string> = { origin }): Promise<R> {
  const event: FactorEvent = { request: buildRequest(`${origin}/_server?id=passwords`, { method: "POST", headers }, jar), response: { headers: new Headers() }, clientAddress: "203.0.113.9" }
  const result = await call(event)
  jar.take(new Response(null, { headers: event.response.headers }))
  return result
}

describe("solid-start password functions", () => {
  it.each(["jwt", "database"] as const)("change the password and the address, ask for and use a reset link from server functions (%s sessions)", async (strategy) => {
    const { config, mails } = passwordWorld(strategy)
    const solidConfig: SolidAuthConfig = config
    const jar = new CookieJar()
    const passwords: ServerPasswords = {
      changePassword: (options) => fromBrowser(jar, (event) => changePassword(event, solidConfig, options)),
      changeEmail: (options) => fromBrowser(jar, (event) => changeEmail(event, solidConfig, options)),
      requestPasswordReset: (options) => fromBrowser(jar, (event) => requestPasswordReset(event, solidConfig, options)),
      resetPassword: (options) => fromBrowser(jar, (event) => resetPassword(event, solidConfig, options)),
    }
    await changeAndReset(passwords, jar, config, mails, origin, "/api/auth")
  })

  it("refuses a cross-site call, and changes nothing", async () => {
    const { config, mails } = passwordWorld()
    const jar = new CookieJar()
    const browser = browserAt(config, jar, origin, "/api/auth")
    await browser.signUp()
    const refused = { ok: false, error: "MissingCSRF", status: 403 }
    const change = { currentPassword: "correct horse battery", newPassword: "a new horse, a new battery" }
    expect(await fromBrowser(jar, (event) => changePassword(event, config, change), { origin: "https://evil.test" })).toEqual(refused)
    expect(await fromBrowser(jar, (event) => requestPasswordReset(event, config, { email: "ada@example.test" }), { "sec-fetch-site": "cross-site" })).toEqual(refused)
    expect(mails.map((mail) => mail.kind)).toEqual(["verify-email"])
    expect(await browser.signsIn("correct horse battery")).toBe(true)
  })
})
