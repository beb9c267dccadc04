/**
 * The second-factor server functions of `authflow/solid-start`, called as a `"use server"`
 * function would with `getRequestEvent()`: a hand-built event from the browser's jar, whose
 * `event.response.headers` Set-Cookie lines go back into that jar.
 */
import { describe, expect, it } from "vitest"
import {
  confirmAuthenticatorApp,
  enrolAuthenticatorApp,
  listFactors,
  regenerateBackupCodes,
  removeFactor,
  renameFactor,
  type FactorEvent,
  type SolidAuthConfig,
} from "../../src/frameworks/solid-start/index.js"
import type { ServerFactors } from "../../src/frameworks/shared/factors.js"
import { ada, buildRequest, CookieJar } from "../helpers.js"
import { enrolAndManage, factorWorld, signInAda } from "./factors-scenario.js"

const origin = "http://solid.test"

/** Runs `call` on an event from the browser `jar` (a server function's POST), then keeps the cookies it set. */
async function fromBrowser<R>(jar: CookieJar, call: (event: FactorEvent) => Promise<R>, headers: Record<string, string> = { origin }): Promise<R> {
  const event: FactorEvent = { request: buildRequest(`${origin}/_server?id=factors`, { method: "POST", headers }, jar), response: { headers: new Headers() }, clientAddress: "203.0.113.9" }
  const result = await call(event)
  jar.take(new Response(null, { headers: event.response.headers }))
  return result
}

describe("solid-start second factors", () => {
  it.each(["jwt", "database"] as const)("enrol, confirm, list, rename, regenerate and remove from server functions (%s sessions)", async (strategy) => {
    const { adapter, config } = await factorWorld(strategy)
    const solidConfig: SolidAuthConfig = config
    const jar = new CookieJar()
    const factors: ServerFactors = {
      listFactors: () => fromBrowser(jar, (event) => listFactors(event, solidConfig)),
      enrolAuthenticatorApp: () => fromBrowser(jar, (event) => enrolAuthenticatorApp(event, solidConfig)),
      confirmAuthenticatorApp: (code, options) => fromBrowser(jar, (event) => confirmAuthenticatorApp(event, solidConfig, code, options)),
      renameFactor: (id, name) => fromBrowser(jar, (event) => renameFactor(event, solidConfig, id, name)),
      removeFactor: (id, options) => fromBrowser(jar, (event) => removeFactor(event, solidConfig, id, options)),
      regenerateBackupCodes: () => fromBrowser(jar, (event) => regenerateBackupCodes(event, solidConfig)),
    }
    await enrolAndManage(factors, jar, () => signInAda(config, jar, origin, "/api/auth"), adapter)
  })

  it("refuses a cross-site call that would change something, and changes nothing", async () => {
    const { adapter, config } = await factorWorld()
    const jar = new CookieJar()
    await signInAda(config, jar, origin, "/api/auth")
    const refused = { ok: false, error: "MissingCSRF", status: 403 }
    expect(await fromBrowser(jar, (event) => regenerateBackupCodes(event, config), { origin: "https://evil.test" })).toEqual(refused)
    expect(await fromBrowser(jar, (event) => enrolAuthenticatorApp(event, config), { "sec-fetch-site": "cross-site" })).toEqual(refused)
    expect(await adapter.countBackupCodes(ada.id)).toBe(0)
    // Behind a proxy the request's URL names the server, the forwarded host the site: same origin.
    const proxied = { origin: "https://app.example", "x-forwarded-host": "app.example", "x-forwarded-proto": "https" }
    expect(await fromBrowser(jar, (event) => regenerateBackupCodes(event, config), proxied)).toMatchObject({ ok: true })
    // A read is not refused: another site cannot read the answer.
    expect(await fromBrowser(jar, (event) => listFactors(event, config), { origin: "https://evil.test" })).toMatchObject({ ok: true, backupCodes: 10 })
  })
})
