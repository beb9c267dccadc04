/**
 * The server side of `QwikAuth$`'s password actions (`qwikPasswordRunner`, what
 * `useChangePassword`, `useResetPassword`… run), on hand-built request events whose
 * `event.cookie.set` writes go back into the browser's jar. The QRL wiring itself needs a Qwik City
 * build (see qwik.test.ts).
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { describe, expect, it } from "vitest"
import { setQwikEnvDefaults } from "../../src/frameworks/qwik/env.js"
import { qwikPasswordRunner } from "../../src/frameworks/qwik/passwords.js"
import type { ServerPasswords } from "../../src/frameworks/shared/passwords.js"
import type { AuthConfig } from "../../src/types.js"
import { buildRequest, CookieJar } from "../helpers.js"
import { keep } from "./factors-scenario.js"
import { browserAt, changeAndReset, passwordSecret, passwordWorld } from "./passwords-scenario.js"

const origin = "http://app.test"
const env = { get: (name: string) => ({ AUTH_SECRET: passwordSecret, AUTH_TRUST_HOST: "true" })[name] }

/** A request event from the browser `jar`, an action posted from the account page. */
function eventOf(jar: CookieJar): RequestEventCommon {
  const url = new URL(`${origin}/account/?qaction=abc`)
  const request = buildRequest(url, { method: "POST", headers: { origin } }, jar)
  const cookie = { set: (name: string, value: string, options: object) => keep(jar, [{ name, value: decodeURIComponent(value), options }]) }
  return { url, request, cookie, env, clientConn: { ip: "203.0.113.9" } } as unknown as RequestEventCommon
}

/** What `configFor` does for each request: a completed copy of the app's configuration. */
function configOf(config: Omit<AuthConfig, "raw">) {
  return async (event: RequestEventCommon) => {
    const copy = { ...config }
    setQwikEnvDefaults(event.env, copy)
    return copy
  }
}

describe("QwikAuth$ password actions (server side)", () => {
  it.each(["jwt", "database"] as const)("change the password and the address, ask for and use a reset link through the actions' inputs (%s sessions)", async (strategy) => {
    const { config, mails } = passwordWorld(strategy)
    const run = qwikPasswordRunner(configOf(config))
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
    const run = qwikPasswordRunner(configOf(config))
    const jar = new CookieJar()
    await browserAt(config, jar, origin, "/auth").signUp()
    expect(await run("change-password", { currentPassword: 12345, newPassword: "a new horse, a new battery" }, eventOf(jar))).toEqual({ ok: false, error: "CredentialsSignin", status: 400 })
    expect(await run("forgot-password", undefined, eventOf(jar))).toEqual({ ok: false, error: "InvalidEmail", status: 400 })
  })
})
