/**
 * The second-factor functions of `SvelteKitAuth()`: `listFactors` as a `load` calls it, the rest as
 * form actions on a form post (fields read from the form), on hand-built request events whose
 * `event.cookies.set` writes go back into the browser's jar.
 */
import type { RequestEvent } from "@sveltejs/kit"
import { describe, expect, it } from "vitest"
import SvelteKitAuth from "../../src/frameworks/sveltekit/index.js"
import type { ServerFactors } from "../../src/frameworks/shared/factors.js"
import { totpFromUri } from "../../src/testing/index.js"
import type { Cookie } from "../../src/types.js"
import { ada, buildRequest, CookieJar } from "../helpers.js"
import { enrolAndManage, factorSecret, factorWorld, keep, signInAda } from "./factors-scenario.js"

const origin = "http://app.test"
const env = { AUTH_SECRET: factorSecret, AUTH_TRUST_HOST: "true" }

/** A request event from the browser `jar`: a page load, or a form post of `form` to the account page. */
function eventOf(jar: CookieJar, form?: Record<string, string>, headers: Record<string, string> = {}): RequestEvent {
  const url = `${origin}/account${form ? "?/action" : ""}`
  const request = buildRequest(url, { ...(form && { form }), headers }, jar)
  const cookies = { set: (name: string, value: string, options: Cookie["options"]) => keep(jar, [{ name, value, options }]) }
  return { request, url: new URL(url), cookies, locals: {}, getClientAddress: () => "203.0.113.9" } as unknown as RequestEvent
}

/** Drops the undefined fields, as a form would not send them. */
const form = (fields: Record<string, string | undefined>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Record<string, string>

describe("SvelteKitAuth() second factors", () => {
  it.each(["jwt", "database"] as const)("enrol, confirm, list, rename, regenerate and remove through a load and form actions (%s sessions)", async (strategy) => {
    const { adapter, config } = await factorWorld(strategy)
    const auth = SvelteKitAuth(config, { env })
    const jar = new CookieJar()
    const factors: ServerFactors = {
      listFactors: () => auth.listFactors(eventOf(jar)),
      enrolAuthenticatorApp: () => auth.enrolAuthenticatorApp(eventOf(jar, {})),
      confirmAuthenticatorApp: (code, options = {}) => auth.confirmAuthenticatorApp(eventOf(jar, form({ code, name: options.name }))),
      renameFactor: (factorId, name) => auth.renameFactor(eventOf(jar, { factorId, name })),
      removeFactor: (factorId, options = {}) => auth.removeFactor(eventOf(jar, form({ factorId, code: options.code }))),
      regenerateBackupCodes: () => auth.regenerateBackupCodes(eventOf(jar, {})),
    }
    await enrolAndManage(factors, jar, () => signInAda(config, jar, origin, "/auth"), adapter)
  })

  it("takes the fields from `input` when called from an app's own action, whose form is already read", async () => {
    const { adapter, config } = await factorWorld()
    const auth = SvelteKitAuth(config, { env })
    const jar = new CookieJar()
    await signInAda(config, jar, origin, "/auth")
    const enrolment = await auth.enrolAuthenticatorApp(eventOf(jar, {}))
    if (!enrolment.ok) throw new Error(enrolment.error)
    const event = eventOf(jar, { unrelated: "field" })
    await event.request.formData()
    const confirmed = await auth.confirmAuthenticatorApp(event, { code: await totpFromUri(enrolment.otpauthUri).code(), name: "Tablet" })
    expect(confirmed).toMatchObject({ ok: true, factor: { name: "Tablet" } })
    expect((await adapter.listFactorsByUserId(ada.id)).map(({ name }) => name)).toEqual(["Tablet"])
  })

  it("answers a form without its fields as the server does: no factorId, no such app", async () => {
    const { config } = await factorWorld()
    const auth = SvelteKitAuth(config, { env })
    const jar = new CookieJar()
    await signInAda(config, jar, origin, "/auth")
    expect(await auth.renameFactor(eventOf(jar, { name: "no id" }))).toEqual({ ok: false, error: "unknown-factor", status: 404 })
  })
})
