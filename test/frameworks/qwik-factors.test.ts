/**
 * The server side of `QwikAuth$`'s second-factor loader and actions (`qwikFactorRunner`, what
 * `useFactors`, `useEnrolAuthenticatorApp`… run), on hand-built request events whose
 * `event.cookie.set` writes go back into the browser's jar. The QRL wiring itself needs a Qwik City
 * build (see qwik.test.ts).
 */
import { describe, expect, it } from "vitest"
import { qwikFactorRunner } from "../../src/frameworks/qwik/factors.js"
import type { ServerFactors } from "../../src/frameworks/shared/factors.js"
import { CookieJar } from "../helpers.js"
import { enrolAndManage, factorSecret, factorWorld, signInAda } from "./factors-scenario.js"
import { qwikActionEvents, qwikConfigOf, qwikOrigin as origin } from "./qwik-events.js"

/** A request event from the browser `jar`, an action posted from the account page. */
const eventOf = qwikActionEvents(factorSecret)

describe("QwikAuth$ second factors (server side)", () => {
  it.each(["jwt", "database"] as const)("enrol, confirm, list, rename, regenerate and remove through the actions' inputs (%s sessions)", async (strategy) => {
    const { adapter, config } = await factorWorld(strategy)
    const run = qwikFactorRunner(qwikConfigOf(config))
    const jar = new CookieJar()
    // The actions' inputs as a <Form> sends them: strings, an unset field left out.
    const factors: ServerFactors = {
      listFactors: () => run("list", undefined, eventOf(jar)),
      enrolAuthenticatorApp: () => run("enrol", {}, eventOf(jar)),
      confirmAuthenticatorApp: (code, options = {}) => run("confirm", { code, ...options }, eventOf(jar)),
      renameFactor: (factorId, name) => run("rename", { factorId, name }, eventOf(jar)),
      removeFactor: (factorId, options = {}) => run("remove", { factorId, ...options }, eventOf(jar)),
      regenerateBackupCodes: () => run("regenerate", {}, eventOf(jar)),
    }
    await enrolAndManage(factors, jar, () => signInAda(config, jar, origin, "/auth"), adapter)
  })

  it("leaves out input fields that are not strings", async () => {
    const { config } = await factorWorld()
    const run = qwikFactorRunner(qwikConfigOf(config))
    const jar = new CookieJar()
    await signInAda(config, jar, origin, "/auth")
    expect(await run("enrol", {}, eventOf(jar))).toMatchObject({ ok: true })
    expect(await run("confirm", { code: 123456 }, eventOf(jar))).toEqual({ ok: false, error: "wrong-code", status: 400 })
  })
})
