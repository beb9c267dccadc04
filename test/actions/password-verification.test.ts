/**
 * The Password provider's mails through `Auth()`, with both session strategies: sign-up mails the
 * link that verifies the address (a taken address is answered exactly as a new one and its owner is
 * mailed instead), the link verifies once and refuses when missing, tampered with, expired or
 * stale; a signed-in user changes their address by a link mailed to the new one, which dies once
 * the address changed.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, vi } from "vitest"
import { KyselyAdapter, createSqliteDatabase, migrateToLatest } from "../../src/adapters/kysely/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"
import type { PasswordOptions } from "../../src/providers/password.js"
import type { Adapter } from "../../src/adapters.js"

const secret = "password-verification-test-secret-0123456789"
const hashing = { scrypt: { ln: 12 } }
const password = "correct horse battery"

function world<A extends Adapter = ReturnType<typeof MemoryAdapter>>(strategy: "jwt" | "database", options: PasswordOptions = {}, adapter: A = MemoryAdapter() as unknown as A) {
  const mails: PasswordMail[] = []
  const { logger, errors } = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    logger,
    session: { strategy },
    providers: [Password({ hashing, verification: "required", sendMail: (mail) => void mails.push(mail), ...options })],
  }
  return { adapter, config, mails, errors }
}

async function signUp(config: AuthConfig, jar: CookieJar, email: string, typed = password) {
  return send(config, jar, "/signup/password", { form: { csrfToken: await csrfTokenFor(config, jar), callbackUrl: `${origin}/welcome`, email, password: typed } })
}

async function signIn(config: AuthConfig, jar: CookieJar, email: string, typed = password) {
  return send(config, jar, "/callback/password", { form: { csrfToken: await csrfTokenFor(config, jar), email, password: typed, callbackUrl: `${origin}/dashboard` } })
}

async function sessionEmail(config: AuthConfig, jar: CookieJar) {
  return ((await (await send(config, jar, "/session")).json()) as { user?: { email?: string } } | null)?.user?.email
}

/** The link of the last mail of `kind`, as a path under the auth base. */
function linkOf(mails: PasswordMail[], kind: "verify-email" | "change-email") {
  const mail = mails.filter((candidate) => candidate.kind === kind).at(-1) as Extract<PasswordMail, { url: string }>
  return mail.url.slice(`${origin}/auth`.length)
}

const setCookieNames = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split("=")[0]).sort()
const signInWith = (query: Record<string, string>) => `${origin}/auth/signin?${new URLSearchParams(query)}`

describe.each(["jwt", "database"] as const)("Password verification and email change with %s sessions", (strategy) => {
  it("signs up, mails the link, verifies the address on it, then signs in", async () => {
    const { config, adapter, mails } = world(strategy)
    const jar = new CookieJar()
    const signedUp = await signUp(config, jar, "Ada@Example.test")
    expect(signedUp.headers.get("location")).toBe(signInWith({ notice: "verify-email" }))
    expect(await sessionEmail(config, jar)).toBeUndefined()
    expect(mails).toEqual([{ kind: "verify-email", to: "ada@example.test", url: expect.stringMatching(/^https:\/\/app\.test\/auth\/verify-email\/password\?token=/), expires: expect.any(Date) }])
    const expires = (mails[0] as { expires: Date }).expires.valueOf() - Date.now()
    expect(expires).toBeGreaterThan(23 * 3600 * 1000)
    expect(expires).toBeLessThanOrEqual(24 * 3600 * 1000)

    // Not verified yet: refused.
    expect((await signIn(config, new CookieJar(), "ada@example.test")).headers.get("location")).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=email_unverified`)
    const verified = await send(config, new CookieJar(), linkOf(mails, "verify-email"))
    expect(verified.headers.get("location")).toBe(signInWith({ notice: "email-verified" }))
    const user = (await adapter.getUserByEmail("ada@example.test"))!
    expect(user.emailVerified).toBeInstanceOf(Date)
    // Following it again changes nothing and answers the same.
    const first = user.emailVerified!.valueOf()
    expect((await send(config, new CookieJar(), linkOf(mails, "verify-email"))).headers.get("location")).toBe(signInWith({ notice: "email-verified" }))
    expect((await adapter.getUser(user.id))!.emailVerified!.valueOf()).toBe(first)

    const again = new CookieJar()
    expect((await signIn(config, again, "ada@example.test")).headers.get("location")).toBe(`${origin}/dashboard`)
    expect(await sessionEmail(config, again)).toBe("ada@example.test")
    // The sign-in page says what happened.
    const page = await (await send(config, new CookieJar(), "/signin?notice=email-verified")).text()
    expect(page).toContain("Your email address is verified. Sign in to continue.")
  })

  it("answers a taken address exactly as a new one, and mails its owner instead", async () => {
    const { config, adapter, mails } = world(strategy)
    await signUp(config, new CookieJar(), "ada@example.test")
    mails.length = 0
    const fresh = await signUp(config, new CookieJar(), "bob@example.test", "another horse battery")
    const taken = await signUp(config, new CookieJar(), "ada@example.test", "an attacker's password")
    expect([taken.status, taken.headers.get("location"), setCookieNames(taken)]).toEqual([fresh.status, fresh.headers.get("location"), setCookieNames(fresh)])
    expect(taken.headers.get("location")).toBe(signInWith({ notice: "verify-email" }))
    expect(setCookieNames(taken)).toEqual(["__Secure-authjs.callback-url"])
    expect(mails.map((mail) => [mail.kind, mail.to])).toEqual([["verify-email", "bob@example.test"], ["email-taken", "ada@example.test"]])
    expect(mails[1]).toEqual({ kind: "email-taken", to: "ada@example.test", signInUrl: `${origin}/auth/signin`, resetUrl: `${origin}/auth/forgot-password/password` })
    // The attacker's password opens nothing: the account keeps its own.
    await send(config, new CookieJar(), linkOf(mails, "verify-email"))
    expect((await signIn(config, new CookieJar(), "ada@example.test", "an attacker's password")).headers.get("location")).toContain("error=CredentialsSignin")
    expect(await adapter.getUserByEmail("ada@example.test")).toMatchObject({ emailVerified: null })
  })

  it("takes about as long for a taken address as for a new one (the hash is paid in both)", async () => {
    const { config } = world(strategy, { hashing: { scrypt: { ln: 15 } } })
    await signUp(config, new CookieJar(), "ada@example.test")
    const time = async (email: string) => {
      const start = performance.now()
      await signUp(config, new CookieJar(), email)
      return performance.now() - start
    }
    const fresh: number[] = []
    const taken: number[] = []
    for (let round = 0; round < 3; round++) {
      fresh.push(await time(`new${round}@example.test`))
      taken.push(await time("ada@example.test"))
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[1]!
    // Without the dummy hash the taken address answers in a small fraction of a new one's time.
    console.log(`sign-up ${strategy}: new ${median(fresh).toFixed(0)} ms, taken ${median(taken).toFixed(0)} ms`)
    expect(median(taken) / median(fresh)).toBeGreaterThan(0.5)
  })

  it("a failed verification mail still answers as sent, logged; the account exists", async () => {
    const { config, adapter, errors } = world(strategy, {
      sendMail: () => {
        throw new Error("SMTP down")
      },
    })
    const response = await signUp(config, new CookieJar(), "ada@example.test")
    expect(response.headers.get("location")).toBe(signInWith({ notice: "verify-email" }))
    expect(await adapter.getUserByEmail("ada@example.test")).not.toBeNull()
    expect(errors.map((error) => error.message)).toContain('The Password provider "password" could not send a mail (verify-email)')
  })

  it("refuses a missing, tampered, expired or stale link, each with its error", async () => {
    const { config, adapter, mails } = world(strategy)
    await signUp(config, new CookieJar(), "ada@example.test")
    const link = linkOf(mails, "verify-email")
    const refused = async (path: string) => (await send(config, new CookieJar(), path)).headers.get("location")
    expect(await refused("/verify-email/password")).toBe(signInWith({ error: "PasswordLinkInvalid" }))
    expect(await refused(`${link.slice(0, -3)}abc`)).toBe(signInWith({ error: "PasswordLinkInvalid" }))
    // A link of another purpose does not open here.
    expect(await refused(link.replace("/verify-email/", "/confirm-email/"))).toBe(signInWith({ error: "PasswordLinkInvalid" }))
    vi.useFakeTimers({ now: Date.now() + 25 * 3600 * 1000, toFake: ["Date"] })
    try {
      expect(await refused(link)).toBe(signInWith({ error: "PasswordLinkExpired" }))
    } finally {
      vi.useRealTimers()
    }
    // The address changed since the mail: the link is bound to the old one.
    const user = (await adapter.getUserByEmail("ada@example.test"))!
    await adapter.updateUser({ id: user.id, email: "ada@elsewhere.test" })
    expect(await refused(link)).toBe(signInWith({ error: "PasswordLinkInvalid" }))
    expect((await adapter.getUser(user.id))!.emailVerified).toBeNull()
    const page = await (await send(config, new CookieJar(), "/signin?error=PasswordLinkExpired")).text()
    expect(page).toContain("That link has expired. Ask for a new one.")
  })

  it("changes the address: password, a link to the new address, the old one told; the link then dies", async () => {
    const { config, adapter, mails } = world(strategy)
    await signUp(config, new CookieJar(), "ada@example.test")
    await send(config, new CookieJar(), linkOf(mails, "verify-email"))
    const jar = new CookieJar()
    await signIn(config, jar, "ada@example.test")
    const change = async (form: Record<string, string>, from = jar) => send(config, from, "/change-email/password", { form: { csrfToken: await csrfTokenFor(config, from), ...form } })
    const pageOf = (query: Record<string, string>) => `${origin}/auth/change-email/password?${new URLSearchParams(query)}`

    // The form, for a signed-in user; nobody signed in goes to sign in first.
    expect(await (await send(config, jar, "/change-email/password")).text()).toContain("Your address is ada@example.test.")
    expect((await send(config, new CookieJar(), "/change-email/password")).headers.get("location")).toBe(signInWith({ callbackUrl: `${origin}/auth/change-email/password` }))
    expect((await change({ newEmail: "ada@new.test", password }, new CookieJar())).headers.get("location")).toBe(signInWith({ callbackUrl: `${origin}/auth/change-email/password` }))

    mails.length = 0
    expect((await change({ newEmail: "ada@new.test", password: "wrong horse battery" })).headers.get("location")).toBe(pageOf({ error: "CredentialsSignin" }))
    expect((await change({ newEmail: "not-an-address", password })).headers.get("location")).toBe(pageOf({ error: "InvalidEmail" }))
    expect((await change({ newEmail: "ADA@example.test", password })).headers.get("location")).toBe(pageOf({ error: "SameEmail" }))
    expect((await send(config, jar, "/change-email/password", { form: { newEmail: "ada@new.test", password } })).headers.get("location")).toBe(pageOf({ error: "MissingCSRF" }))
    expect(mails).toEqual([])

    expect((await change({ newEmail: " Ada@New.test ", password })).headers.get("location")).toBe(pageOf({ notice: "change-requested" }))
    expect(mails).toEqual([{ kind: "change-email", to: "ada@new.test", from: "ada@example.test", url: expect.stringMatching(/^https:\/\/app\.test\/auth\/confirm-email\/password\?token=/), expires: expect.any(Date) }])
    const link = linkOf(mails, "change-email")
    // Nothing changed until the link is followed.
    expect(await adapter.getUserByEmail("ada@new.test")).toBeNull()

    const confirmed = await send(config, new CookieJar(), link)
    expect(confirmed.headers.get("location")).toBe(signInWith({ notice: "email-changed" }))
    const user = (await adapter.getUserByEmail("ada@new.test"))!
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect(await adapter.getUserByEmail("ada@example.test")).toBeNull()
    expect(mails.at(-1)).toEqual({ kind: "email-changed", to: "ada@example.test", newEmail: "ada@new.test" })
    // Database sessions read the new address at once; a JWT keeps the one it was issued with until issued again.
    expect(await sessionEmail(config, jar)).toBe(strategy === "database" ? "ada@new.test" : "ada@example.test")
    expect((await signIn(config, new CookieJar(), "ada@new.test")).headers.get("location")).toBe(`${origin}/dashboard`)
    expect((await signIn(config, new CookieJar(), "ada@example.test")).headers.get("location")).toContain("error=CredentialsSignin")

    // The link is bound to the old address: once it changed, it is dead.
    expect((await send(config, new CookieJar(), link)).headers.get("location")).toBe(signInWith({ error: "PasswordLinkInvalid" }))
  })

  it("answers a taken new address as a free one, mailing its owner; a confirm link refuses an address taken since", async () => {
    const { config, adapter, mails } = world(strategy)
    for (const email of ["ada@example.test", "bob@example.test"]) {
      await signUp(config, new CookieJar(), email)
      await send(config, new CookieJar(), linkOf(mails, "verify-email"))
    }
    const jar = new CookieJar()
    await signIn(config, jar, "ada@example.test")
    const change = async (newEmail: string) => send(config, jar, "/change-email/password", { form: { csrfToken: await csrfTokenFor(config, jar), newEmail, password } })
    mails.length = 0
    const taken = await change("bob@example.test")
    const free = await change("ada@new.test")
    expect([taken.status, taken.headers.get("location"), setCookieNames(taken)]).toEqual([free.status, free.headers.get("location"), setCookieNames(free)])
    expect(mails.map((mail) => [mail.kind, mail.to])).toEqual([["email-taken", "bob@example.test"], ["change-email", "ada@new.test"]])

    // Someone takes the new address before the link is followed.
    const link = linkOf(mails, "change-email")
    await adapter.createUser({ id: "carol", email: "ada@new.test", emailVerified: null })
    expect((await send(config, new CookieJar(), link)).headers.get("location")).toBe(signInWith({ error: "EmailChangeConflict" }))
    expect(await adapter.getUserByEmail("ada@example.test")).not.toBeNull()
  })
})

describe("Password verification and email change on SQLite", () => {
  it("signs up, verifies, changes the address and signs in with the new one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authflow-password-"))
    const db = createSqliteDatabase(join(dir, "auth.sqlite"))
    try {
      await migrateToLatest(db)
      const { config, adapter, mails } = world("database", {}, KyselyAdapter(db))
      await signUp(config, new CookieJar(), "ada@example.test")
      expect((await send(config, new CookieJar(), linkOf(mails, "verify-email"))).headers.get("location")).toBe(signInWith({ notice: "email-verified" }))
      const jar = new CookieJar()
      expect((await signIn(config, jar, "ada@example.test")).headers.get("location")).toBe(`${origin}/dashboard`)
      const csrfToken = await csrfTokenFor(config, jar)
      await send(config, jar, "/change-email/password", { form: { csrfToken, newEmail: "ada@new.test", password } })
      expect((await send(config, new CookieJar(), linkOf(mails, "change-email"))).headers.get("location")).toBe(signInWith({ notice: "email-changed" }))
      expect(await adapter.getUserByEmail!("ada@new.test")).toMatchObject({ emailVerified: expect.any(Date) })
      expect(await sessionEmail(config, jar)).toBe("ada@new.test")
      expect((await signIn(config, new CookieJar(), "ada@new.test")).headers.get("location")).toBe(`${origin}/dashboard`)
    } finally {
      await db.destroy()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("Password configuration", () => {
  it("refuses verification required without sendMail, in one line", async () => {
    const { logger, errors } = recordingLogger()
    const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), logger, providers: [Password({ verification: "required" })] }
    const response = await send(config, new CookieJar(), "/session")
    expect(response.status).toBe(500)
    expect(errors.map((error) => error.message)).toEqual([`The Password provider "password" requires verified addresses but cannot mail the link: pass Password({ verification: "required", sendMail })`])
  })

  it("with verification optional, mails the link and signs in at once", async () => {
    const { config, mails } = world("jwt", { verification: "optional" })
    const jar = new CookieJar()
    expect((await signUp(config, jar, "ada@example.test")).headers.get("location")).toBe(`${origin}/welcome`)
    expect(await sessionEmail(config, jar)).toBe("ada@example.test")
    expect(mails.map((mail) => mail.kind)).toEqual(["verify-email"])
  })

  it("serves the address routes only for a Password provider with sendMail", async () => {
    const { config } = world("jwt", { verification: "optional", sendMail: undefined })
    const response = await send(config, new CookieJar(), "/verify-email/password?token=x")
    expect(response.headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`)
  })
})
