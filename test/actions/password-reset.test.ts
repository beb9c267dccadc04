/**
 * Forgotten and changed passwords through `Auth()`, with JWT and database sessions (the memory
 * adapter) and on SQLite (the Kysely adapter): the reset link works once, within an hour, and not
 * after the password changed otherwise; an unknown address is answered exactly as a known one; a
 * reset or a change ends the user's other sessions (unless `endOtherSessions: false`); a wrong
 * current password is refused, and many at once are counted against the credentials budget.
 */
import { describe, expect, it, vi } from "vitest"
import { memoryStore } from "../../src/rate-limit.js"
import { linkBindings, sealPasswordLink } from "../../src/actions/password/link-token.js"
import { CookieJar, csrfTokenFor, origin, send } from "../helpers.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"
import type { PasswordOptions } from "../../src/providers/password.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { Adapter } from "../../src/adapters.js"
import { forgot, newPassword, password, passwordWorld, sessionEmail, setCookieNames, signIn, signInWith, signUp } from "./password-world.js"

const secret = "password-reset-test-secret-0123456789abcdef"

const world = (kind: "jwt" | "database" | "sqlite", options: PasswordOptions = {}, extra: Partial<AuthConfig> = {}) => passwordWorld(secret, kind, options, extra)

async function reset(config: AuthConfig, jar: CookieJar, token: string, typed = newPassword) {
  return send(config, jar, "/reset-password/password", { form: { csrfToken: await csrfTokenFor(config, jar), token, password: typed } })
}

async function change(config: AuthConfig, jar: CookieJar, currentPassword: string, typed = newPassword) {
  return send(config, jar, "/change-password/password", { form: { csrfToken: await csrfTokenFor(config, jar), currentPassword, newPassword: typed } })
}

/** The token of the last reset mail. */
function tokenOf(mails: PasswordMail[]): string {
  const mail = mails.filter((candidate) => candidate.kind === "reset-password").at(-1) as Extract<PasswordMail, { kind: "reset-password" }>
  return new URL(mail.url).searchParams.get("token")!
}

const changeForm = (query: Record<string, string>) => `${origin}/auth/change-password/password?${new URLSearchParams(query)}`

describe.each(["jwt", "database", "sqlite"] as const)("Password reset and change with %s", (kind) => {
  it("mails a one-hour link, resets on it once, marks the address verified and ends every session", async () => {
    const { config, adapter, mails, errors } = await world(kind)
    const laptop = new CookieJar()
    await signUp(config, laptop, "ada@example.test")
    const phone = new CookieJar()
    expect((await signIn(config, phone, "ada@example.test")).headers.get("location")).toBe(`${origin}/dashboard`)
    expect(await sessionEmail(config, laptop)).toBe("ada@example.test")

    const asked = await forgot(config, new CookieJar(), "  Ada@Example.TEST ")
    expect(asked.status).toBe(302)
    expect(asked.headers.get("location")).toBe(signInWith({ notice: "reset-sent" }))
    const mail = mails.find((candidate) => candidate.kind === "reset-password") as Extract<PasswordMail, { kind: "reset-password" }>
    expect(mail).toEqual({ kind: "reset-password", to: "ada@example.test", url: expect.stringMatching(/^https:\/\/app\.test\/auth\/reset-password\/password\?token=/), expires: expect.any(Date) })
    const lifetime = mail.expires.valueOf() - Date.now()
    expect(lifetime).toBeGreaterThan(59 * 60 * 1000)
    expect(lifetime).toBeLessThanOrEqual(60 * 60 * 1000)

    // The link opens the form, carrying the token.
    const page = await send(config, new CookieJar(), mail.url)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(`name="token" value="${tokenOf(mails)}"`)

    // Too short: back to the form, the link still good.
    const refused = await reset(config, new CookieJar(), tokenOf(mails), "short")
    expect(refused.headers.get("location")).toBe(`${origin}/auth/reset-password/password?${new URLSearchParams({ token: tokenOf(mails), error: "PasswordResetRefused", reason: "too-short" })}`)

    const done = await reset(config, new CookieJar(), tokenOf(mails))
    expect(done.headers.get("location")).toBe(signInWith({ notice: "password-reset" }))
    expect(mails.at(-1)).toEqual({ kind: "password-changed", to: "ada@example.test" })
    expect((await adapter.getUserByEmail!("ada@example.test"))!.emailVerified).toBeInstanceOf(Date)
    // Every session ended: the reset was not made from one.
    expect(await sessionEmail(config, laptop)).toBeUndefined()
    expect(await sessionEmail(config, phone)).toBeUndefined()
    // The old password opens nothing, the new one signs in.
    expect((await signIn(config, new CookieJar(), "ada@example.test")).headers.get("location")).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
    const again = new CookieJar()
    expect((await signIn(config, again, "ada@example.test", newPassword)).headers.get("location")).toBe(`${origin}/dashboard`)
    expect(await sessionEmail(config, again)).toBe("ada@example.test")
    // Used once: the link opens no more.
    expect((await reset(config, new CookieJar(), tokenOf(mails), "yet another good password")).headers.get("location")).toBe(signInWith({ error: "PasswordLinkInvalid" }))
    // Nothing failed on the way: only the refusals were logged.
    expect(errors.map((error) => (error as { type?: string }).type)).toEqual(["CredentialsSignin", "PasswordLinkInvalid"])
  })

  it("a link dies once the password changes by another route; an expired one is refused", async () => {
    const { config, adapter, mails } = await world(kind)
    const jar = new CookieJar()
    await signUp(config, jar, "ada@example.test")
    await forgot(config, new CookieJar(), "ada@example.test")
    const first = tokenOf(mails)
    await forgot(config, new CookieJar(), "ada@example.test")
    const second = tokenOf(mails)
    expect(second).not.toBe(first)
    // A signed-in change: both links die with the hash they were bound to.
    expect((await change(config, jar, password)).headers.get("location")).toBe(changeForm({ notice: "password-changed" }))
    expect((await reset(config, new CookieJar(), first)).headers.get("location")).toBe(signInWith({ error: "PasswordLinkInvalid" }))
    expect((await reset(config, new CookieJar(), second)).headers.get("location")).toBe(signInWith({ error: "PasswordLinkInvalid" }))

    // Sealed over the current hash an hour and a minute ago: expired.
    const user = (await adapter.getUserByEmail!("ada@example.test"))!
    const hash = (await adapter.getAccount!(user.id, "password"))!.refresh_token as string
    const [bound] = await linkBindings(secret, hash)
    vi.useFakeTimers({ now: Date.now() - 61 * 60 * 1000, toFake: ["Date"] })
    let expired: string
    try {
      expired = await sealPasswordLink(secret, "reset-password", { userId: user.id, email: "ada@example.test", bound: bound! })
    } finally {
      vi.useRealTimers()
    }
    expect((await reset(config, new CookieJar(), expired)).headers.get("location")).toBe(signInWith({ error: "PasswordLinkExpired" }))
    // A verification link is not a reset link.
    expect((await reset(config, new CookieJar(), "not-a-token")).headers.get("location")).toBe(signInWith({ error: "PasswordLinkInvalid" }))
  })

  it("answers an unknown address, and one without a password, exactly as a known one, and mails neither", async () => {
    const { config, adapter, mails } = await world(kind)
    await signUp(config, new CookieJar(), "ada@example.test")
    await adapter.createUser!({ id: "u-oauth", email: "bob@example.test", emailVerified: null })
    mails.length = 0
    const known = await forgot(config, new CookieJar(), "ada@example.test")
    expect(mails.map((mail) => mail.kind)).toEqual(["reset-password"])
    for (const address of ["nobody@example.test", "bob@example.test"]) {
      const unknown = await forgot(config, new CookieJar(), address)
      expect(unknown.status).toBe(known.status)
      expect(unknown.headers.get("location")).toBe(known.headers.get("location"))
      expect(setCookieNames(unknown)).toEqual(setCookieNames(known))
    }
    expect(mails).toHaveLength(1)
    // The sign-in page links the forgot form, which renders.
    expect(await (await send(config, new CookieJar(), "/signin")).text()).toContain(`href="${origin}/auth/forgot-password/password"`)
    const page = await send(config, new CookieJar(), "/forgot-password/password")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('name="email"')
    // Not an address: back to the form.
    expect((await forgot(config, new CookieJar(), "not-an-address")).headers.get("location")).toBe(`${origin}/auth/forgot-password/password?error=InvalidEmail`)
  })

  it("changes the password signed in: a wrong current one is refused, the session stays and the others end", async () => {
    const { config, mails } = await world(kind)
    const laptop = new CookieJar()
    await signUp(config, laptop, "ada@example.test")
    const phone = new CookieJar()
    await signIn(config, phone, "ada@example.test")
    mails.length = 0
    expect((await change(config, laptop, "wrong horse battery")).headers.get("location")).toBe(changeForm({ error: "CredentialsSignin" }))
    expect((await change(config, laptop, password, "short")).headers.get("location")).toBe(changeForm({ error: "PasswordChangeRefused", reason: "too-short" }))
    expect(mails).toEqual([])
    const page = await send(config, laptop, "/change-password/password")
    expect(await page.text()).toContain('name="currentPassword"')
    expect((await change(config, laptop, password)).headers.get("location")).toBe(changeForm({ notice: "password-changed" }))
    expect(mails).toEqual([{ kind: "password-changed", to: "ada@example.test" }])
    expect(await sessionEmail(config, laptop)).toBe("ada@example.test")
    expect(await sessionEmail(config, phone)).toBeUndefined()
    expect((await signIn(config, new CookieJar(), "ada@example.test", newPassword)).headers.get("location")).toBe(`${origin}/dashboard`)
    // Nobody signed in: to sign in, and back.
    expect((await change(config, new CookieJar(), newPassword)).headers.get("location")).toBe(signInWith({ callbackUrl: `${origin}/auth/change-password/password` }))
    expect((await send(config, new CookieJar(), "/change-password/password")).headers.get("location")).toBe(signInWith({ callbackUrl: `${origin}/auth/change-password/password` }))
  })

  it("keeps every session with endOtherSessions: false", async () => {
    const { config, mails } = await world(kind, { endOtherSessions: false })
    const laptop = new CookieJar()
    await signUp(config, laptop, "ada@example.test")
    const phone = new CookieJar()
    await signIn(config, phone, "ada@example.test")
    expect((await change(config, laptop, password)).headers.get("location")).toBe(changeForm({ notice: "password-changed" }))
    expect(await sessionEmail(config, phone)).toBe("ada@example.test")
    await forgot(config, new CookieJar(), "ada@example.test")
    expect((await reset(config, new CookieJar(), tokenOf(mails), "the third good password")).headers.get("location")).toBe(signInWith({ notice: "password-reset" }))
    expect(await sessionEmail(config, phone)).toBe("ada@example.test")
    expect(await sessionEmail(config, laptop)).toBe("ada@example.test")
  })
})

describe("Password reset races and limits", () => {
  it("of two resets racing with one link, exactly one wins", async () => {
    const { config, mails } = await world("database")
    await signUp(config, new CookieJar(), "ada@example.test")
    await forgot(config, new CookieJar(), "ada@example.test")
    const token = tokenOf(mails)
    const answers = await Promise.all(["first good password", "second good password"].map((typed) => reset(config, new CookieJar(), token, typed)))
    expect(answers.map((answer) => answer.headers.get("location")).sort()).toEqual([signInWith({ error: "PasswordLinkInvalid" }), signInWith({ notice: "password-reset" })])
  })

  it("200 concurrent wrong current passwords: at most the credentials budget is checked", async () => {
    const checked = { count: 0 }
    const memory = MemoryAdapter()
    const adapter: Adapter = {
      ...memory,
      async getAccount(providerAccountId, provider) {
        checked.count++
        return memory.getAccount(providerAccountId, provider)
      },
    }
    const { config } = await world("jwt", {}, { adapter, rateLimit: { store: memoryStore() } })
    const jar = new CookieJar()
    await signUp(config, jar, "ada@example.test")
    const csrfToken = await csrfTokenFor(config, jar)
    checked.count = 0
    const answers = await Promise.all(Array.from({ length: 200 }, () => send(config, jar, "/change-password/password", { form: { csrfToken, currentPassword: "wrong horse battery", newPassword } })))
    const locations = answers.map((answer) => answer.headers.get("location") ?? String(answer.status))
    const wrong = locations.filter((location) => location === changeForm({ error: "CredentialsSignin" })).length
    expect(checked.count).toBeLessThanOrEqual(5)
    expect(wrong).toBe(checked.count)
    expect(locations.filter((location) => location.includes("RateLimited") || location === "429")).toHaveLength(200 - wrong)
  })

  it("a database configuration whose adapter cannot delete a user's sessions is refused clearly", async () => {
    const { deleteUserSessions: _omitted, ...memory } = MemoryAdapter()
    const { config, errors } = await world("database", {}, { adapter: memory })
    const response = await send(config, new CookieJar(), "/csrf")
    expect(response.status).toBe(500)
    expect(errors[0]!.message).toMatch(/deleteUserSessions.*endOtherSessions: false/)
    const { config: kept } = await world("database", { endOtherSessions: false }, { adapter: memory })
    expect((await send(kept, new CookieJar(), "/csrf")).status).toBe(200)
  })
})
