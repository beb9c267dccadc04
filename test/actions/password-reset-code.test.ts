/**
 * Resetting a forgotten password by a mailed code (`resetBy: "code"`), through `Auth()` with JWT and
 * database sessions (the memory adapter) and on SQLite (the Kysely adapter): the right code and a
 * new password reset it and end every session; a wrong code goes back with the tries left, the
 * fifth ends the flow; an expired code, a replayed flow cookie, another browser and a password
 * changed meanwhile are refused; a refused new password keeps the code; an unknown address is
 * answered exactly as a known one.
 */
import { describe, expect, it, vi } from "vitest"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"
import type { PasswordOptions } from "../../src/providers/password.js"
import { forgot, newPassword, password, passwordWorld, sessionEmail, setCookieNames, signIn, signInWith, signUp } from "./password-world.js"

const secret = "password-reset-code-test-secret-0123456789abcdef"
const codeCookie = `${cookieNames.https.flow}.password-reset-code`

const world = (kind: "jwt" | "database" | "sqlite", options: PasswordOptions = {}) => passwordWorld(secret, kind, { resetBy: "code", ...options })

async function reset(config: AuthConfig, jar: CookieJar, code: string, typed = newPassword) {
  return send(config, jar, "/reset-password/password", { form: { csrfToken: await csrfTokenFor(config, jar), code, password: typed } })
}

/** The code of the last reset mail. */
function codeOf(mails: PasswordMail[]): string {
  return (mails.filter((candidate) => candidate.kind === "reset-password").at(-1) as Extract<PasswordMail, { kind: "reset-password" }>).code!
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0")
const forgotWith = (query: Record<string, string>) => `${origin}/auth/forgot-password/password?${new URLSearchParams(query)}`
const codeForm = (query: Record<string, string> = {}) => `${origin}/auth/reset-password/password?${new URLSearchParams({ type: "code", ...query })}`

describe.each(["jwt", "database", "sqlite"] as const)("Password reset by code with %s", (kind) => {
  it("mails a code, resets with it and the new password once, marks the address verified and ends every session", async () => {
    const { config, adapter, mails, errors } = await world(kind)
    const laptop = new CookieJar()
    await signUp(config, laptop, "ada@example.test")
    const phone = new CookieJar()
    await signIn(config, phone, "ada@example.test")
    expect(await sessionEmail(config, laptop)).toBe("ada@example.test")

    const browser = new CookieJar()
    const asked = await forgot(config, browser, "ada@example.test")
    expect(asked.status).toBe(302)
    expect(asked.headers.get("location")).toBe(codeForm())
    expect(browser.get(codeCookie)).toBeDefined()
    const mail = mails.find((candidate) => candidate.kind === "reset-password") as Extract<PasswordMail, { kind: "reset-password" }>
    expect(mail).toEqual({ kind: "reset-password", to: "ada@example.test", url: codeForm(), expires: expect.any(Date), code: expect.stringMatching(/^\d{6}$/) })
    expect(mail.expires.valueOf() - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000)

    // The page takes the code and the new password on one form.
    const page = await (await send(config, browser, mail.url)).text()
    expect(page).toContain('name="code"')
    expect(page).toContain('name="password"')

    // Too short: back to the form, the code still good and no try counted.
    const refused = await reset(config, browser, mail.code!, "short")
    expect(refused.headers.get("location")).toBe(codeForm({ error: "PasswordResetRefused", reason: "too-short" }))
    // A wrong code: back with the tries left.
    expect((await reset(config, browser, wrong(mail.code!))).headers.get("location")).toBe(codeForm({ error: "Verification", reason: "wrong-code", left: "4" }))

    const done = await reset(config, browser, mail.code!)
    expect(done.headers.get("location")).toBe(signInWith({ notice: "password-reset" }))
    expect(browser.get(codeCookie)).toBeUndefined()
    expect(mails.at(-1)).toEqual({ kind: "password-changed", to: "ada@example.test" })
    expect((await adapter.getUserByEmail!("ada@example.test"))!.emailVerified).toBeInstanceOf(Date)
    expect(await sessionEmail(config, laptop)).toBeUndefined()
    expect(await sessionEmail(config, phone)).toBeUndefined()
    expect((await signIn(config, new CookieJar(), "ada@example.test")).headers.get("location")).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
    expect((await signIn(config, new CookieJar(), "ada@example.test", newPassword)).headers.get("location")).toBe(`${origin}/dashboard`)
    // Used once: the flow is gone from the browser.
    expect((await reset(config, browser, mail.code!, "yet another good password")).headers.get("location")).toBe(forgotWith({ error: "PasswordCodeInvalid" }))
    expect(errors.map((error) => (error as { type?: string }).type)).toEqual(["CredentialsSignin", "PasswordCodeInvalid"])
  })

  it("the fifth wrong code ends the flow; a replayed cookie, another browser and an expired code are refused", async () => {
    const { config, mails } = await world(kind)
    await signUp(config, new CookieJar(), "ada@example.test")
    const browser = new CookieJar()
    await forgot(config, browser, "ada@example.test")
    const code = codeOf(mails)
    // Another browser has no flow: refused, and the flow in the first stays good.
    expect((await reset(config, new CookieJar(), code)).headers.get("location")).toBe(forgotWith({ error: "PasswordCodeInvalid" }))
    // A copy of the flow cookie sent again is refused (the flow is claimed once).
    const copy = new CookieJar()
    for (const [name, value] of browser.cookies) copy.cookies.set(name, value)
    expect((await reset(config, browser, wrong(code))).headers.get("location")).toBe(codeForm({ error: "Verification", reason: "wrong-code", left: "4" }))
    expect((await reset(config, copy, code)).headers.get("location")).toBe(forgotWith({ error: "PasswordCodeInvalid" }))
    for (const left of ["3", "2", "1"]) expect((await reset(config, browser, wrong(code))).headers.get("location")).toBe(codeForm({ error: "Verification", reason: "wrong-code", left }))
    expect((await reset(config, browser, wrong(code))).headers.get("location")).toBe(forgotWith({ error: "PasswordCodeInvalid" }))
    expect((await reset(config, browser, code)).headers.get("location")).toBe(forgotWith({ error: "PasswordCodeInvalid" }))
    expect((await signIn(config, new CookieJar(), "ada@example.test")).headers.get("location")).toBe(`${origin}/dashboard`)

    // Typed 11 minutes after it was mailed: expired.
    const late = new CookieJar()
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 11 * 60 * 1000 })
    try {
      await forgot(config, late, "ada@example.test")
    } finally {
      vi.useRealTimers()
    }
    expect((await reset(config, late, codeOf(mails))).headers.get("location")).toBe(forgotWith({ error: "PasswordCodeExpired" }))
    // The forgot form says why, in reset words (not "sign in again"), and asks for a new code.
    const expiredPage = await (await send(config, late, forgotWith({ error: "PasswordCodeExpired" }))).text()
    expect(expiredPage).toContain("That code has expired. Ask for a new one below.")
    expect(expiredPage).toContain('name="email"')
    expect(await (await send(config, late, forgotWith({ error: "PasswordCodeInvalid" }))).text()).toContain("That code can no longer be used. Ask for a new one below.")
  })

  it("a code dies once the password changes by another route", async () => {
    const { config, mails } = await world(kind)
    await signUp(config, new CookieJar(), "ada@example.test")
    const first = new CookieJar()
    await forgot(config, first, "ada@example.test")
    const firstCode = codeOf(mails)
    const second = new CookieJar()
    await forgot(config, second, "ada@example.test")
    expect((await reset(config, second, codeOf(mails))).headers.get("location")).toBe(signInWith({ notice: "password-reset" }))
    expect((await reset(config, first, firstCode, "yet another good password")).headers.get("location")).toBe(forgotWith({ error: "PasswordCodeInvalid" }))
    expect((await signIn(config, new CookieJar(), "ada@example.test", newPassword)).headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("answers an unknown address exactly as a known one, with a flow no code satisfies", async () => {
    const { config, mails } = await world(kind)
    await signUp(config, new CookieJar(), "ada@example.test")
    mails.length = 0
    const known = await forgot(config, new CookieJar(), "ada@example.test")
    expect(mails.map((mail) => mail.kind)).toEqual(["reset-password"])
    const stranger = new CookieJar()
    const unknown = await forgot(config, stranger, "nobody@example.test")
    expect(unknown.status).toBe(known.status)
    expect(unknown.headers.get("location")).toBe(known.headers.get("location"))
    expect(setCookieNames(unknown)).toEqual(setCookieNames(known))
    expect(mails).toHaveLength(1)
    // Ada's code, typed in the stranger's flow, fails as any wrong code does.
    expect((await reset(config, stranger, codeOf(mails))).headers.get("location")).toBe(codeForm({ error: "Verification", reason: "wrong-code", left: "4" }))
  })
})

describe("Password reset by code and link (resetBy: both)", () => {
  it("mails the link and the code in one mail; either resets", async () => {
    const { config, mails } = await world("database", { resetBy: "both" })
    await signUp(config, new CookieJar(), "ada@example.test")
    const browser = new CookieJar()
    expect((await forgot(config, browser, "ada@example.test")).headers.get("location")).toBe(codeForm())
    const mail = mails.at(-1) as Extract<PasswordMail, { kind: "reset-password" }>
    expect(mail.url).toMatch(/^https:\/\/app\.test\/auth\/reset-password\/password\?token=/)
    expect(mail.code).toMatch(/^\d{6}$/)
    expect((await reset(config, browser, mail.code!)).headers.get("location")).toBe(signInWith({ notice: "password-reset" }))
  })
})

describe("resetBy in the configuration", () => {
  it("an unknown value fails the configuration with a clear error", async () => {
    const { config } = await world("jwt", { resetBy: "sms" as never })
    const { logger, errors } = recordingLogger()
    const response = await send({ ...config, logger }, new CookieJar(), "/forgot-password/password")
    expect(response.status).toBe(500)
    expect(errors.map((error) => error.message)).toEqual([expect.stringContaining('has resetBy "sms": use "link", "code" or "both"')])
  })
})
