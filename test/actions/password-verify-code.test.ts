/**
 * Verifying a Password account's address by an emailed code (`verifyBy: "code"` and `"both"`)
 * through `Auth()`, with both session strategies: sign-up mails a 6-digit code and goes to the code
 * page; the right code verifies the address and signs in; a wrong one counts, the fifth kills it,
 * it expires after 10 minutes, works once and only in the browser that signed up; a taken address
 * is answered exactly as a new one; a sign-in of an unverified address mails a fresh code.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"
import type { PasswordOptions } from "../../src/providers/password.js"
import { decode } from "../../src/jwt.js"

const secret = "password-verify-code-test-secret-0123456789"
const hashing = { scrypt: { ln: 12 } }
const password = "correct horse battery"
const names = cookieNames.https
const codeCookie = `${names.flow}.password-code`
const codePage = `${origin}/auth/verify-request?provider=password&type=code`
const ada = "ada@example.test"

function world(strategy: "jwt" | "database", options: PasswordOptions = {}) {
  const mails: PasswordMail[] = []
  const adapter = MemoryAdapter()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy },
    providers: [Password({ hashing, verification: "required", verifyBy: "code", sendMail: (mail) => void mails.push(mail), ...options })],
  }
  return { adapter, config, mails }
}

async function signUp(config: AuthConfig, jar: CookieJar, email = ada) {
  return send(config, jar, "/signup/password", { form: { csrfToken: await csrfTokenFor(config, jar), callbackUrl: `${origin}/welcome`, email, password } })
}

async function signIn(config: AuthConfig, jar: CookieJar, email = ada) {
  return send(config, jar, "/callback/password", { form: { csrfToken: await csrfTokenFor(config, jar), email, password, callbackUrl: `${origin}/dashboard` } })
}

async function type(config: AuthConfig, jar: CookieJar, code: string) {
  return send(config, jar, "/verify-email/password", { form: { csrfToken: await csrfTokenFor(config, jar), code } })
}

async function sessionEmail(config: AuthConfig, jar: CookieJar) {
  return ((await (await send(config, jar, "/session")).json()) as { user?: { email?: string } } | null)?.user?.email
}

const codeOf = (mails: PasswordMail[]) => (mails.filter((mail) => mail.kind === "verify-email").at(-1) as { code?: string }).code!
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0")
const signInWith = (query: Record<string, string>) => `${origin}/auth/signin?${new URLSearchParams(query)}`
const refusals = (errors: Error[]) => errors.map((error) => (error.cause as { refusal?: string } | undefined)?.refusal)

describe.each(["jwt", "database"] as const)("Password verification by code with %s sessions", (strategy) => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("signs up, mails a code, and the right code verifies the address and signs in", async () => {
    const { config, adapter, mails } = world(strategy)
    const jar = new CookieJar()
    const signedUp = await signUp(config, jar)
    expect(signedUp.headers.get("location")).toBe(codePage)
    expect(mails).toEqual([{ kind: "verify-email", to: ada, url: codePage, expires: expect.any(Date), code: expect.stringMatching(/^\d{6}$/) }])
    expect(jar.get(codeCookie)).toBeTruthy()
    expect(jar.get(codeCookie)).not.toContain(codeOf(mails))
    const page = await (await send(config, jar, "/verify-request?provider=password&type=code")).text()
    expect(page).toContain('action="https://app.test/auth/verify-email/password"')
    expect(page).toContain("to verify your address")

    const verified = await type(config, jar, codeOf(mails))
    expect(verified.headers.get("location")).toBe(`${origin}/welcome`)
    expect(jar.get(codeCookie)).toBeUndefined()
    expect(await sessionEmail(config, jar)).toBe(ada)
    expect((await adapter.getUserByEmail(ada))!.emailVerified).toBeInstanceOf(Date)
    // Verified: a sign-in elsewhere goes straight in.
    expect((await signIn(config, new CookieJar())).headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("with both, the mail carries the link and the code, and either verifies", async () => {
    const { config, adapter, mails } = world(strategy, { verifyBy: "both" })
    const jar = new CookieJar()
    expect((await signUp(config, jar)).headers.get("location")).toBe(codePage)
    const mail = mails[0] as { url: string; code: string }
    expect(mail.url).toMatch(/^https:\/\/app\.test\/auth\/verify-email\/password\?token=/)
    expect(mail.code).toMatch(/^\d{6}$/)
    expect((await send(config, new CookieJar(), mail.url.slice(`${origin}/auth`.length))).headers.get("location")).toBe(signInWith({ notice: "email-verified" }))
    // The code still signs this browser in (the address is verified already).
    expect((await type(config, jar, mail.code)).headers.get("location")).toBe(`${origin}/welcome`)
    expect(await sessionEmail(config, jar)).toBe(ada)
    expect((await adapter.getUserByEmail(ada))!.emailVerified).toBeInstanceOf(Date)
  })

  it("a wrong code counts and says the tries left; the fifth kills the code, the right one included", async () => {
    const { config, adapter, mails } = world(strategy)
    const jar = new CookieJar()
    await signUp(config, jar)
    const code = codeOf(mails)
    for (let attempt = 1; attempt < 5; attempt++) {
      const refused = await type(config, jar, wrong(code))
      expect(refused.headers.get("location")).toBe(`${codePage}&error=Verification&reason=wrong-code&left=${5 - attempt}`)
    }
    expect(await (await send(config, jar, "/verify-request?provider=password&type=code&reason=wrong-code&left=1")).text()).toContain("tries left: 1")
    const { logger, errors } = recordingLogger()
    const fifth = await type({ ...config, logger }, jar, wrong(code))
    expect(fifth.headers.get("location")).toBe(signInWith({ error: "PasswordCodeInvalid" }))
    expect(refusals(errors)).toEqual(["attemptsExhausted"])
    expect(jar.get(codeCookie)).toBeUndefined()
    expect((await type(config, jar, code)).headers.get("location")).toBe(signInWith({ error: "PasswordCodeInvalid" }))
    expect(await sessionEmail(config, jar)).toBeUndefined()
    expect((await adapter.getUserByEmail(ada))!.emailVerified).toBeNull()
  })

  it("expires after 10 minutes; signing in again mails a fresh code that works", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-01-01T00:00:00Z") })
    const { config, mails } = world(strategy)
    const jar = new CookieJar()
    await signUp(config, jar)
    const code = codeOf(mails)
    vi.setSystemTime(Date.now() + 9 * 60_000)
    await type(config, jar, wrong(code))
    vi.setSystemTime(Date.now() + 60_000)
    const expired = await type(config, jar, code)
    expect(expired.headers.get("location")).toBe(signInWith({ error: "PasswordCodeExpired" }))
    expect(await sessionEmail(config, jar)).toBeUndefined()

    const again = await signIn(config, jar)
    expect(again.headers.get("location")).toBe(codePage)
    expect(mails.filter((mail) => mail.kind === "verify-email")).toHaveLength(2)
    expect(codeOf(mails)).toMatch(/^\d{6}$/)
    expect((await type(config, jar, codeOf(mails))).headers.get("location")).toBe(`${origin}/dashboard`)
    expect(await sessionEmail(config, jar)).toBe(ada)
  })

  it("a code works once: the flow cookie sent again is refused", async () => {
    const { config, mails } = world(strategy)
    const jar = new CookieJar()
    await signUp(config, jar)
    const saved = new Map(jar.cookies)
    expect((await type(config, jar, codeOf(mails))).headers.get("location")).toBe(`${origin}/welcome`)
    const replay = new CookieJar()
    for (const [name, value] of saved) replay.cookies.set(name, value)
    const { logger, errors } = recordingLogger()
    expect((await type({ ...config, logger }, replay, codeOf(mails))).headers.get("location")).toBe(signInWith({ error: "PasswordCodeInvalid" }))
    expect(refusals(errors)).toEqual(["flowReplayed"])
    expect(await sessionEmail(config, replay)).toBeUndefined()
  })

  it("another browser's flow cookie does not work, and the page there says so", async () => {
    const { config, mails } = world(strategy)
    const jar = new CookieJar()
    await signUp(config, jar)
    const other = new CookieJar()
    await csrfTokenFor(config, other)
    expect(await (await send(config, other, "/verify-request?provider=password&type=code")).text()).toContain("This browser did not ask for a code")
    // Only the flow cookie copied: its binding cookie stayed in the browser that signed up.
    other.cookies.set(codeCookie, jar.get(codeCookie)!)
    const { logger, errors } = recordingLogger()
    expect((await type({ ...config, logger }, other, codeOf(mails))).headers.get("location")).toBe(signInWith({ error: "PasswordCodeInvalid" }))
    expect(refusals(errors)).toEqual([expect.stringMatching(/^(missing|foreign-browser)$/)])
    expect(await sessionEmail(config, other)).toBeUndefined()
    // Still good where it was asked for.
    expect((await type(config, jar, codeOf(mails))).headers.get("location")).toBe(`${origin}/welcome`)
  })

  it("a taken address is answered as a new one: status, Location, Set-Cookie names; no code passes", async () => {
    const { config, mails } = world(strategy)
    await signUp(config, new CookieJar())
    const taken = new CookieJar()
    const fresh = new CookieJar()
    const takenAnswer = await signUp(config, taken)
    const freshAnswer = await signUp(config, fresh, "grace@example.test")
    const names = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split("=")[0]).sort()
    expect(takenAnswer.status).toBe(freshAnswer.status)
    expect(takenAnswer.headers.get("location")).toBe(freshAnswer.headers.get("location"))
    expect(names(takenAnswer)).toEqual(names(freshAnswer))
    expect(taken.get(codeCookie)!.length).toBe(fresh.get(codeCookie)!.length)
    expect(mails.map((mail) => mail.kind)).toEqual(["verify-email", "email-taken", "verify-email"])
    // The owner's code (of the first sign-up) does not open the taken address's flow.
    const ownersCode = (mails[0] as { code: string }).code
    expect((await type(config, taken, ownersCode)).headers.get("location")).toContain("reason=wrong-code&left=4")
    expect(await sessionEmail(config, taken)).toBeUndefined()
  })

  it("what is not a code counts as a wrong one, never a 500", async () => {
    const { config, mails } = world(strategy)
    const jar = new CookieJar()
    await signUp(config, jar)
    for (const typed of ["abc", "", "1234567", "１２３４５６"]) expect((await type(config, jar, typed)).status).toBe(302)
    expect((await type(config, jar, codeOf(mails))).headers.get("location")).toBe(`${origin}/welcome`)
  })

  it("with optional verification, sign-up goes to the code page, and the password signs in without it", async () => {
    const { config, mails, adapter } = world(strategy, { verification: "optional" })
    const jar = new CookieJar()
    expect((await signUp(config, jar)).headers.get("location")).toBe(codePage)
    expect(codeOf(mails)).toMatch(/^\d{6}$/)
    expect((await signIn(config, new CookieJar())).headers.get("location")).toBe(`${origin}/dashboard`)
    expect((await type(config, jar, codeOf(mails))).headers.get("location")).toBe(`${origin}/welcome`)
    expect((await adapter.getUserByEmail(ada))!.emailVerified).toBeInstanceOf(Date)
  })

  it("seals only what the next request needs, in a small cookie: the code's keyed hash, never the code", async () => {
    const { config, mails } = world(strategy)
    const jar = new CookieJar()
    await signUp(config, jar)
    const opened = (await decode({ token: jar.get(codeCookie)!, secret, salt: codeCookie })) as unknown as { s: { value: string; context: Record<string, unknown> } }
    expect(opened.s.value).toBe("awaitingCode")
    expect(Object.keys(opened.s.context).sort()).toEqual(["attempts", "bound", "callbackUrl", "codeHash", "email", "expiresAt"])
    expect(JSON.stringify(opened)).not.toContain(codeOf(mails))
    console.log(`password code flow cookie: ${jar.get(codeCookie)!.length} bytes`)
    expect(jar.get(codeCookie)!.length).toBeLessThan(1100)
  })

  it("without CSRF token the code is refused", async () => {
    const { config, mails } = world(strategy)
    const jar = new CookieJar()
    await signUp(config, jar)
    const refused = await send(config, jar, "/verify-email/password", { form: { code: codeOf(mails) } })
    expect(refused.headers.get("location")).toBe(signInWith({ error: "MissingCSRF" }))
  })
})

describe("verifyBy in the configuration", () => {
  it("an unknown value fails the configuration with a clear error", async () => {
    const { config } = world("jwt", { verifyBy: "sms" as never })
    const { logger, errors } = recordingLogger()
    const response = await send({ ...config, logger }, new CookieJar(), "/signup/password")
    expect(response.status).toBe(500)
    expect(errors.map((error) => error.message)).toEqual([expect.stringContaining('has verifyBy "sms": use "link", "code" or "both"')])
  })
})
