/**
 * `requestPasswordReset`, `resetPassword` and `changePassword` of `authflow/client` against a real
 * `Auth()`: a reset asked for and made, a refused password and a spent link reported, a change
 * refused for a wrong current password and then made, nobody signed in reported.
 */
import { describe, expect, it } from "vitest"
import * as client from "../../src/client/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"
import { origin, recordingLogger } from "../helpers.js"
import { clientAgainstAuth, stubAuthFetch } from "./auth-fetch.js"

const password = "correct horse battery"

function world(options: { resetBy?: "link" | "code" | "both" } = {}) {
  const mails: PasswordMail[] = []
  const config: AuthConfig = {
    secret: "client-password-secret-0123456789abcdef",
    trustHost: true,
    adapter: MemoryAdapter(),
    logger: recordingLogger().logger,
    providers: [Password({ hashing: { scrypt: { ln: 10 } }, sendMail: (mail) => void mails.push(mail), ...options })],
  }
  const jar = stubAuthFetch(config)
  return { mails, jar }
}

clientAgainstAuth()

describe("password functions of authflow/client", () => {
  it("change, then forgot and reset", async () => {
    const { mails, jar } = world()
    expect(await client.changePassword({ currentPassword: password, newPassword: "another good one" })).toMatchObject({ ok: false, error: "SessionRequired" })
    const csrfToken = (await client.getCsrfToken())!
    await fetch(`${origin}/auth/signup/password`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, email: "ada@example.test", password }).toString() })
    expect(await client.changePassword({ currentPassword: "wrong horse battery", newPassword: "another good one" })).toMatchObject({ ok: false, error: "CredentialsSignin" })
    expect(await client.changePassword({ currentPassword: password, newPassword: "short" })).toMatchObject({ ok: false, error: "PasswordChangeRefused", reason: "too-short" })
    expect(await client.changePassword({ currentPassword: password, newPassword: "another good one" })).toEqual({ ok: true, error: undefined, url: `${origin}/auth/change-password/password?notice=password-changed`, status: 200 })

    expect(await client.requestPasswordReset({ email: "nobody@example.test" })).toEqual({ ok: true, error: undefined, url: `${origin}/auth/signin?notice=reset-sent`, status: 200 })
    expect(await client.requestPasswordReset({ email: "ada@example.test" })).toEqual({ ok: true, error: undefined, url: `${origin}/auth/signin?notice=reset-sent`, status: 200 })
    const mail = mails.find((candidate) => candidate.kind === "reset-password") as Extract<PasswordMail, { kind: "reset-password" }>
    const token = new URL(mail.url).searchParams.get("token")!
    expect(await client.resetPassword({ token, password: "short" })).toMatchObject({ ok: false, error: "PasswordResetRefused", reason: "too-short" })
    expect(await client.resetPassword({ token, password: "the third good one" })).toMatchObject({ ok: true, url: `${origin}/auth/signin?notice=password-reset` })
    expect(await client.resetPassword({ token, password: "the fourth good one" })).toMatchObject({ ok: false, error: "PasswordLinkInvalid" })
  })
  it("forgot and reset by code, in the browser that asked", async () => {
    const { mails, jar } = world({ resetBy: "code" })
    const csrfToken = (await client.getCsrfToken())!
    await fetch(`${origin}/auth/signup/password`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, email: "ada@example.test", password }).toString() })
    jar.cookies.clear()
    expect(await client.requestPasswordReset({ email: "ada@example.test" })).toMatchObject({ ok: true, url: `${origin}/auth/reset-password/password?type=code` })
    const code = (mails.find((candidate) => candidate.kind === "reset-password") as Extract<PasswordMail, { kind: "reset-password" }>).code!
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0")
    expect(await client.resetPassword({ code: wrong, password: "a good new one" })).toMatchObject({ ok: false, error: "Verification", reason: "wrong-code" })
    expect(await client.resetPassword({ code, password: "short" })).toMatchObject({ ok: false, error: "PasswordResetRefused", reason: "too-short" })
    expect(await client.resetPassword({ code, password: "a good new one" })).toMatchObject({ ok: true, url: `${origin}/auth/signin?notice=password-reset` })
    expect(await client.resetPassword({ code, password: "another good one" })).toMatchObject({ ok: false, error: "PasswordCodeInvalid" })
  })
})
