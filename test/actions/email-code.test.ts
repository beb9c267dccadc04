/**
 * Emailed sign-in codes (the email provider's `code` option) through the real `Auth()`: the code
 * signs in as the link does, with JWT and database sessions, and each refusal ends the way it
 * says: a wrong code (back to the page, sealed anew), an expired one, the fifth wrong one, a flow
 * cookie sent again, a code typed in another browser, the rate limiter.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { memoryStore } from "../../src/rate-limit.js"
import type { EmailCodeMode, EmailConfig, SendVerificationRequestParams } from "../../src/providers/email-config.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { decode } from "../../src/jwt.js"

const names = cookieNames.https
const ada = "ada@example.test"
const codeCookie = `${names.flow}.email-code`
const codePage = `${origin}/auth/verify-request?provider=email&type=code`

function world(code: EmailCodeMode, overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const mails: SendVerificationRequestParams[] = []
  const provider: EmailConfig = { id: "email", type: "email", name: "Email", code, sendVerificationRequest: (params) => void mails.push(params) }
  const config: AuthConfig = { secret: "code-secret", trustHost: true, adapter, providers: [provider], rateLimit: false, ...overrides }
  return { adapter, mails, config }
}

/** Asks for a sign-in email in `jar`'s browser. */
async function ask(config: AuthConfig, jar: CookieJar): Promise<Response> {
  return send(config, jar, "/signin/email", { form: { csrfToken: await csrfTokenFor(config, jar), email: ada, callbackUrl: "/dashboard" } })
}

/** Types `code` in `jar`'s browser. */
async function type(config: AuthConfig, jar: CookieJar, code: string): Promise<Response> {
  return send(config, jar, "/callback/email", { form: { csrfToken: await csrfTokenFor(config, jar), code } })
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0")

describe("emailed sign-in codes", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("by default mails only the link (the Auth.js wire)", async () => {
    const { config, mails } = world(false)
    const response = await ask(config, new CookieJar())
    expect(response.headers.get("location")).toBe(`${origin}/auth/verify-request?provider=email&type=email`)
    expect(mails[0]!.code).toBeUndefined()
    expect(mails[0]!.token).toMatch(/^[0-9a-f]{64}$/)
  })

  it("instead of the link: the mail carries a 6-digit code, the browser goes to the code page, and the code signs in (JWT)", async () => {
    const { config, mails, adapter } = world("instead")
    const jar = new CookieJar()
    const asked = await ask(config, jar)
    expect(asked.headers.get("location")).toBe(codePage)
    const [mail] = mails
    expect(mail!.code).toMatch(/^\d{6}$/)
    expect(mail!.token).toBe("")
    expect(mail!.url).toBe(codePage)
    // No link token was stored: nothing a mail scanner could open signs anyone in.
    expect(await adapter.useVerificationToken!({ identifier: ada, token: "" })).toBeNull()
    expect(jar.get(codeCookie)).toBeTruthy()
    // The sealed flow keeps no code, only its keyed hash.
    expect(jar.get(codeCookie)).not.toContain(mail!.code)

    const page = await send(config, jar, "/verify-request?provider=email&type=code")
    const html = await page.text()
    expect(html).toContain('name="code"')
    expect(html).toContain('action="https://app.test/auth/callback/email"')

    const signedIn = await type(config, jar, ` ${mail!.code!.slice(0, 3)} ${mail!.code!.slice(3)} `)
    expect(signedIn.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(jar.get(codeCookie)).toBeUndefined()
    const session = (await (await send(config, jar, "/session")).json()) as { user?: { email?: string } }
    expect(session.user?.email).toBe(ada)
    // Created, with the address verified, as the link would.
    expect((await adapter.getUserByEmail!(ada))?.emailVerified).toBeInstanceOf(Date)
  })

  it("beside the link, with database sessions: the code signs in an existing user and uses the link up", async () => {
    const { config, mails, adapter } = world("beside", { session: { strategy: "database" } })
    const existing = await adapter.createUser!({ id: "", email: ada, emailVerified: null })
    const jar = new CookieJar()
    expect((await ask(config, jar)).headers.get("location")).toBe(codePage)
    const [mail] = mails
    expect(mail!.code).toMatch(/^\d{6}$/)
    expect(new URL(mail!.url).searchParams.get("token")).toBe(mail!.token)

    expect((await type(config, jar, mail!.code!)).headers.get("location")).toBe(`${origin}/dashboard`)
    // A database session row, for the user who had the address.
    expect((await adapter.getSessionAndUser!(jar.get(names.sessionToken)!))?.user.id).toBe(existing.id)
    expect((await adapter.getUser!(existing.id))?.emailVerified).toBeInstanceOf(Date)
    // The link of the same mail works no more.
    const link = await send(config, new CookieJar(), mail!.url.replace(origin, "").replace("/auth", ""))
    expect(link.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
  })

  it("beside the link: the link still works from another device, and the code is dead once it did", async () => {
    const { config, mails } = world("beside")
    const jar = new CookieJar()
    await ask(config, jar)
    const [mail] = mails
    const phone = new CookieJar()
    expect((await send(config, phone, mail!.url.replace(`${origin}/auth`, ""))).headers.get("location")).toBe(`${origin}/dashboard`)
    const { logger, errors } = recordingLogger()
    const refused = await type({ ...config, logger }, jar, mail!.code!)
    expect(refused.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
    expect(errors.map((error) => (error.cause as { refusal?: string } | undefined)?.refusal)).toEqual(["linkUsed"])
  })

  it("seals only what the next request needs, in a small cookie: the code's keyed hash, never the code or what was typed", async () => {
    const { config, mails } = world("beside")
    const jar = new CookieJar()
    await ask(config, jar)
    const { code, token } = mails[0]!
    const opened = async () => (await decode({ token: jar.get(codeCookie)!, secret: "code-secret", salt: codeCookie })) as unknown as { s: { value: string; context: Record<string, unknown> } }
    const first = await opened()
    expect(first.s.value).toBe("awaitingCode")
    expect(Object.keys(first.s.context).sort()).toEqual(["attempts", "callbackUrl", "codeHash", "expiresAt", "identifier", "linkTokenHash"])
    expect(first.s.context.codeHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(first)).not.toContain(code)
    expect(JSON.stringify(first)).not.toContain(token)
    // 990 bytes with the link beside the code and this callback URL.
    expect(jar.get(codeCookie)!.length).toBeLessThan(1100)
    // After a wrong try: the attempt counted, and what was typed not kept.
    await type(config, jar, wrong(code!))
    const second = await opened()
    expect(second.s.context.attempts).toBe(1)
    expect(JSON.stringify(second)).not.toContain(wrong(code!))
  })

  it("a wrong code goes back to the page, the flow sealed anew; the right one still signs in", async () => {
    const { config, mails } = world("instead")
    const jar = new CookieJar()
    await ask(config, jar)
    const code = mails[0]!.code!
    const sealed = jar.get(codeCookie)
    const refused = await type(config, jar, wrong(code))
    expect(refused.headers.get("location")).toBe(`${codePage}&error=Verification&reason=wrong-code`)
    expect(jar.get(codeCookie)).toBeTruthy()
    expect(jar.get(codeCookie)).not.toBe(sealed)
    expect(await (await send(config, jar, "/verify-request?provider=email&type=code&reason=wrong-code")).text()).toContain("That code is not right")
    expect((await type(config, jar, code)).headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("the fifth wrong code ends the sign-in: even the right code is refused after it", async () => {
    const { config, mails } = world("instead")
    const jar = new CookieJar()
    await ask(config, jar)
    const code = mails[0]!.code!
    for (let attempt = 1; attempt < 5; attempt++) expect((await type(config, jar, wrong(code))).headers.get("location")).toContain("reason=wrong-code")
    const { logger, errors } = recordingLogger()
    const fifth = await type({ ...config, logger }, jar, wrong(code))
    expect(fifth.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
    expect(errors.map((error) => (error.cause as { refusal?: string } | undefined)?.refusal)).toEqual(["attemptsExhausted"])
    expect(jar.get(codeCookie)).toBeUndefined()
    expect((await type(config, jar, code)).headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
    expect(jar.get(names.sessionToken)).toBeUndefined()
  })

  it("an expired code is refused (10 minutes), though the flow cookie is still there", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-01-01T00:00:00Z") })
    const { config, mails } = world("instead")
    const jar = new CookieJar()
    await ask(config, jar)
    const code = mails[0]!.code!
    // A wrong try at 9 minutes re-seals the flow: its cookie outlives the code.
    vi.setSystemTime(Date.now() + 9 * 60_000)
    await type(config, jar, wrong(code))
    vi.setSystemTime(Date.now() + 60_000)
    const { logger, errors } = recordingLogger()
    const expired = await type({ ...config, logger }, jar, code)
    expect(expired.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
    expect(errors.map((error) => (error.cause as { refusal?: string } | undefined)?.refusal)).toEqual(["codeExpired"])
    expect(jar.get(names.sessionToken)).toBeUndefined()
  })

  it("the flow cookie sent again is refused: a code works once", async () => {
    const { config, mails } = world("instead")
    const jar = new CookieJar()
    await ask(config, jar)
    const saved = new Map(jar.cookies)
    expect((await type(config, jar, mails[0]!.code!)).headers.get("location")).toBe(`${origin}/dashboard`)
    const replay = new CookieJar()
    for (const [name, value] of saved) replay.cookies.set(name, value)
    const { logger, errors } = recordingLogger()
    const refused = await type({ ...config, logger }, replay, mails[0]!.code!)
    expect(refused.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
    expect(errors.map((error) => (error.cause as { refusal?: string } | undefined)?.refusal)).toEqual(["flowReplayed"])
    expect(replay.get(names.sessionToken)).toBeUndefined()
  })

  it("a code typed in another browser is refused with a clear error, and the page there says so", async () => {
    const { config, mails } = world("instead")
    await ask(config, new CookieJar())
    const other = new CookieJar()
    const page = await (await send(config, other, "/verify-request?provider=email&type=code")).text()
    expect(page).toContain("This browser did not ask for a code")
    expect(page).not.toContain('name="code"')
    const { logger, errors } = recordingLogger()
    const refused = await type({ ...config, logger }, other, mails[0]!.code!)
    expect(refused.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
    expect(errors.map((error) => error.message)).toEqual([expect.stringContaining("typed in another browser")])
    expect(errors.map((error) => (error.cause as { refusal?: string } | undefined)?.refusal)).toEqual(["missing"])
  })

  it("codes typed count against the email-code rate limit, per address", async () => {
    const { config, mails } = world("instead", { rateLimit: { store: memoryStore(), limits: { "email-code": { identifier: { max: 2, windowSeconds: 900 } } } } })
    const jar = new CookieJar()
    await ask(config, jar)
    const code = mails[0]!.code!
    await type(config, jar, wrong(code))
    await type(config, jar, wrong(code))
    const limited = await type(config, jar, code)
    expect(limited.status).toBe(302)
    expect(limited.headers.get("location")).toMatch(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`))
    expect(jar.get(names.sessionToken)).toBeUndefined()
  })

  it("without CSRF token the code is refused", async () => {
    const { config, mails } = world("instead")
    const jar = new CookieJar()
    await ask(config, jar)
    const refused = await send(config, jar, "/callback/email", { form: { code: mails[0]!.code! } })
    expect(refused.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
  })
})
