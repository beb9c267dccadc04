/**
 * The password form actions of `SvelteKitAuth()` on a form post (fields read from the form), on
 * hand-built request events whose `event.cookies.set` writes go back into the browser's jar.
 */
import type { RequestEvent } from "@sveltejs/kit"
import { describe, expect, it } from "vitest"
import SvelteKitAuth from "../../src/frameworks/sveltekit/index.js"
import type { ServerPasswords } from "../../src/frameworks/shared/passwords.js"
import type { Cookie } from "../../src/types.js"
import { buildRequest, CookieJar } from "../helpers.js"
import { keep } from "./factors-scenario.js"
import { browserAt, changeAndReset, email, passwordSecret, passwordWorld } from "./passwords-scenario.js"

const origin = "http://app.test"
const env = { AUTH_SECRET: passwordSecret, AUTH_TRUST_HOST: "true" }

/** A form post of `form` from the browser `jar` to the account page. */
function eventOf(jar: CookieJar, form: object): RequestEvent {
  const url = `${origin}/account?/action`
  const request = buildRequest(url, { form: form as Record<string, string> }, jar)
  const cookies = { set: (name: string, value: string, options: Cookie["options"]) => keep(jar, [{ name, value, options }]) }
  return { request, url: new URL(url), cookies, locals: {}, getClientAddress: () => "203.0.113.9" } as unknown as RequestEvent
}

describe("SvelteKitAuth() password form actions", () => {
  it.each(["jwt", "database"] as const)("change the password and the address, ask for and use a reset link from form posts (%s sessions)", async (strategy) => {
    const { config, mails } = passwordWorld(strategy)
    const auth = SvelteKitAuth(config, { env })
    const jar = new CookieJar()
    const passwords: ServerPasswords = {
      changePassword: (fields) => auth.changePassword(eventOf(jar, fields)),
      changeEmail: (fields) => auth.changeEmail(eventOf(jar, fields)),
      requestPasswordReset: (fields) => auth.requestPasswordReset(eventOf(jar, fields)),
      resetPassword: (fields) => auth.resetPassword(eventOf(jar, fields)),
    }
    await changeAndReset(passwords, jar, config, mails, origin, "/auth")
  })

  it("takes the fields from `input` when called from an app's own action, whose form is already read", async () => {
    const { config } = passwordWorld()
    const auth = SvelteKitAuth(config, { env })
    const jar = new CookieJar()
    const browser = browserAt(config, jar, origin, "/auth")
    await browser.signUp()
    const event = eventOf(jar, { unrelated: "field" })
    await event.request.formData()
    expect(await auth.changePassword(event, { currentPassword: "correct horse battery", newPassword: "a new horse, a new battery" })).toEqual({ ok: true, error: undefined, status: 200 })
    expect(await browser.signedInAs()).toBe(email)
  })
})
