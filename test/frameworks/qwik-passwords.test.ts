/**
 * The server side of `QwikAuth$`'s password actions (`qwikPasswordRunner`, what
 * `useChangePassword`, `useResetPassword`… run), on hand-built request events whose
 * `event.cookie.set` writes go back into the browser's jar. The QRL wiring itself needs a Qwik City
 * build (see qwik.test.ts).
 */
import { describe, expect, it } from "vitest"
import { qwikPasswordRunner } from "../../src/frameworks/qwik/passwords.js"
import type { ServerPasswords } from "../../src/frameworks/shared/passwords.js"
import { CookieJar } from "../helpers.js"
import { qwikActionEvents, qwikConfigOf, qwikOrigin as origin } from "./qwik-events.js"
import { browserAt, changeAndReset, passwordSecret, passwordWorld } from "./passwords-scenario.js"

/** A request event from the browser `jar`, an action posted from the account page. */
const eventOf = qwikActionEvents(passwordSecret)

describe("QwikAuth$ password actions (server side)", () => {
  it.each(["jwt", "database"] as const)("change the password and the address, ask for and use a reset link through the actions' inputs (%s sessions)", async (strategy) => {
    const { config, mails } = passwordWorld(strategy)
    const run = qwikPasswordRunner(qwikConfigOf(config))
    const jar = new CookieJar()
    const passwords: ServerPasswords = {
      changePassword: (input) => run("change-password", input, eventOf(jar)),
      changeEmail: (input) => run("change-email", input, eventOf(jar)),
      requestPasswordReset: (input) => run("forgot-password", input, eventOf(jar)),
      resetPassword: (input) => run("reset-password", input, eventOf(jar)),
    }
    await changeAndReset(passwords, jar, config, mails, origin, "/auth")
  })

  it("leaves out input fields that are not strings: the route refuses what is missing", async () => {
    const { config } = passwordWorld()
    const run = qwikPasswordRunner(qwikConfigOf(config))
    const jar = new CookieJar()
    await browserAt(config, jar, origin, "/auth").signUp()
    expect(await run("change-password", { currentPassword: 12345, newPassword: "a new horse, a new battery" }, eventOf(jar))).toEqual({ ok: false, error: "CredentialsSignin", status: 400 })
    expect(await run("forgot-password", undefined, eventOf(jar))).toEqual({ ok: false, error: "InvalidEmail", status: 400 })
  })
})
