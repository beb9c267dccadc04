/**
 * The Password provider through `Auth()`: sign-up creates the user and their password account (the
 * hash in the account row) and signs them in; sign-in checks the password, answers an unknown email
 * as a wrong password, refuses an unverified email where verification is required, and replaces a
 * hash made with older parameters (or an app's legacy hash) while the password is at hand.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import { hashPassword, verifyPassword } from "../../src/core/password/index.js"
import { CookieJar, csrfTokenFor, origin, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"
import type { PasswordOptions } from "../../src/providers/password.js"

const secret = "password-provider-test-secret-0123456789"

/** A cheap scrypt cost for the many sign-ins here (the default's cost is in bench:password). */
const hashing = { scrypt: { ln: 12 } }

function world(strategy: "jwt" | "database", options: PasswordOptions = {}) {
  const adapter = MemoryAdapter()
  const config: AuthConfig = { secret, trustHost: true, adapter, session: { strategy }, providers: [Password({ hashing, ...options })] }
  return { adapter, config }
}

async function signUp(config: AuthConfig, jar: CookieJar, form: Record<string, string>) {
  return send(config, jar, "/signup/password", { form: { csrfToken: await csrfTokenFor(config, jar), callbackUrl: `${origin}/welcome`, ...form } })
}

async function signIn(config: AuthConfig, jar: CookieJar, email: string, password: string) {
  return send(config, jar, "/callback/password", { form: { csrfToken: await csrfTokenFor(config, jar), email, password, callbackUrl: `${origin}/dashboard` } })
}

async function sessionEmail(config: AuthConfig, jar: CookieJar) {
  return ((await (await send(config, jar, "/session")).json()) as { user?: { email?: string } } | null)?.user?.email
}

const rejected = `${origin}/auth/signin?error=CredentialsSignin&code=credentials`

describe.each(["jwt", "database"] as const)("Password provider with %s sessions", (strategy) => {
  it("signs up (the hash in the account row, never the password), then signs in again with the password", async () => {
    const { config, adapter } = world(strategy)
    const created: unknown[] = []
    config.events = { createUser: ({ user }) => void created.push(user.email) }
    const jar = new CookieJar()
    const signedUp = await signUp(config, jar, { email: " Ada@Example.TEST ", password: "correct horse battery", name: "Ada" })
    expect(created).toEqual(["ada@example.test"])
    expect(signedUp.headers.get("location")).toBe(`${origin}/welcome`)
    expect(await sessionEmail(config, jar)).toBe("ada@example.test")
    const user = (await adapter.getUserByEmail("ada@example.test"))!
    expect(user).toMatchObject({ name: "Ada", emailVerified: null })
    const account = (await adapter.getAccount(user.id, "password"))!
    expect(account.refresh_token).toMatch(/^\$scrypt\$/)
    expect(JSON.stringify(account)).not.toContain("correct horse battery")

    const again = new CookieJar()
    expect((await signIn(config, again, "ADA@example.test", "correct horse battery")).headers.get("location")).toBe(`${origin}/dashboard`)
    expect(await sessionEmail(config, again)).toBe("ada@example.test")

    // An internationalised domain is kept as its A-labels, and either form signs in.
    await signUp(config, new CookieJar(), { email: "bob@Bücher.example", password: "correct horse battery" })
    expect(await adapter.getUserByEmail("bob@xn--bcher-kva.example")).not.toBeNull()
    expect((await signIn(config, new CookieJar(), "bob@bücher.example", "correct horse battery")).headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("a wrong password and an unknown email end alike, with no session", async () => {
    const { config } = world(strategy)
    await signUp(config, new CookieJar(), { email: "ada@example.test", password: "correct horse battery" })
    for (const [email, password] of [["ada@example.test", "wrong horse battery"], ["nobody@example.test", "correct horse battery"], ["", ""]] as const) {
      const jar = new CookieJar()
      expect([email, (await signIn(config, jar, email, password)).headers.get("location")]).toEqual([email, rejected])
      expect(await sessionEmail(config, jar)).toBeUndefined()
    }
  })

  it("refuses a sign-up it cannot take, saying why, and stores nothing", async () => {
    const { config, adapter } = world(strategy, { checkPassword: (password) => password !== "password123" })
    const cases: [Record<string, string>, string][] = [
      [{ email: "not-an-address", password: "correct horse battery" }, "invalid-email"],
      [{ password: "correct horse battery" }, "invalid-email"],
      [{ email: "ada@example.test", password: "short" }, "too-short"],
      [{ email: "ada@example.test", password: "x".repeat(129) }, "too-long"],
      [{ email: "ada@example.test", password: "password123" }, "refused-password"],
    ]
    for (const [form, reason] of cases) {
      const jar = new CookieJar()
      const refused = await signUp(config, jar, form)
      expect([reason, refused.headers.get("location")]).toEqual([reason, `${origin}/auth/signin?error=SignUpRefused`])
      expect(await sessionEmail(config, jar)).toBeUndefined()
    }
    expect(await adapter.getUserByEmail("ada@example.test")).toBeNull()
  })

  it("a taken email is EmailTaken, and the account keeps its password", async () => {
    const { config } = world(strategy)
    await signUp(config, new CookieJar(), { email: "ada@example.test", password: "correct horse battery" })
    const jar = new CookieJar()
    expect((await signUp(config, jar, { email: "ada@example.test", password: "another horse battery" })).headers.get("location")).toBe(`${origin}/auth/signin?error=EmailTaken`)
    expect((await signIn(config, new CookieJar(), "ada@example.test", "another horse battery")).headers.get("location")).toBe(rejected)
  })

  it("five sign-ups racing to one address leave one account, and the others are told the address is taken", async () => {
    const { config, adapter } = world(strategy)
    const racers = await Promise.all([1, 2, 3, 4, 5].map(async (n) => (await signUp(config, new CookieJar(), { email: "ada@example.test", password: `correct horse battery ${n}` })).headers.get("location")))
    expect(racers.filter((location) => location === `${origin}/welcome`)).toHaveLength(1)
    expect(racers.filter((location) => location === `${origin}/auth/signin?error=EmailTaken`)).toHaveLength(4)
    const owner = (await adapter.getUserByEmail("ada@example.test"))!
    expect((await adapter.getAccount!(owner.id, "password"))?.refresh_token).toMatch(/^\$scrypt\$/)
  })

  it("where verification is required, a new account waits for it, and signs in once the email is verified", async () => {
    const { config, adapter } = world(strategy, { verification: "required", sendMail: () => {} })
    const jar = new CookieJar()
    expect((await signUp(config, jar, { email: "ada@example.test", password: "correct horse battery" })).headers.get("location")).toBe(`${origin}/auth/signin?notice=verify-email`)
    expect(await sessionEmail(config, jar)).toBeUndefined()
    expect((await signIn(config, jar, "ada@example.test", "correct horse battery")).headers.get("location")).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=email_unverified`)
    const user = (await adapter.getUserByEmail("ada@example.test"))!
    await adapter.updateUser({ id: user.id, emailVerified: new Date() })
    expect((await signIn(config, jar, "ada@example.test", "correct horse battery")).headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("replaces an app's legacy hash at the first sign-in, and a hash with older parameters", async () => {
    const { config, adapter } = world(strategy, { verifyLegacyHash: (password, hash) => hash === `$legacy$${password}` })
    const user = await adapter.createUser({ id: "", email: "ada@example.test", emailVerified: null } as never)
    await adapter.linkAccount({ userId: user.id, type: "credentials" as never, provider: "password", providerAccountId: user.id, refresh_token: "$legacy$correct horse battery" })
    expect((await signIn(config, new CookieJar(), "ada@example.test", "correct horse battery")).headers.get("location")).toBe(`${origin}/dashboard`)
    const upgraded = (await adapter.getAccount(user.id, "password"))!.refresh_token!
    expect(upgraded).toMatch(/^\$scrypt\$ln=12,/)
    expect(await verifyPassword("correct horse battery", upgraded, hashing)).toEqual({ valid: true, needsRehash: false })
    expect((await signIn(config, new CookieJar(), "ada@example.test", "wrong horse battery")).headers.get("location")).toBe(rejected)

    // A hash made with another scrypt cost than the configured one is replaced the same way.
    const bob = await adapter.createUser({ id: "", email: "bob@example.test", emailVerified: null } as never)
    await adapter.linkAccount({ userId: bob.id, type: "credentials" as never, provider: "password", providerAccountId: bob.id, refresh_token: await hashPassword("bob's long password", { scrypt: { ln: 14 } }) })
    expect((await signIn(config, new CookieJar(), "bob@example.test", "bob's long password")).headers.get("location")).toBe(`${origin}/dashboard`)
    expect((await adapter.getAccount(bob.id, "password"))!.refresh_token).toMatch(/^\$scrypt\$ln=12,/)
  })

  it("needs the CSRF token for sign-up and sign-in", async () => {
    const { config } = world(strategy)
    const jar = new CookieJar()
    expect((await send(config, jar, "/signup/password", { form: { email: "ada@example.test", password: "correct horse battery" } })).headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
    expect((await send(config, jar, "/callback/password", { form: { email: "ada@example.test", password: "correct horse battery" } })).headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
  })
})

describe("the built-in pages", () => {
  it("the sign-in page links to the sign-up page, whose form signs a new user up; refusals are explained", async () => {
    const { config } = world("jwt")
    const jar = new CookieJar()
    const signInPage = await (await send(config, jar, "/signin")).text()
    expect(signInPage).toContain(`href="${origin}/auth/signup/password"`)
    const page = await send(config, jar, `/signup/password?callbackUrl=${encodeURIComponent(`${origin}/welcome`)}`)
    const html = await page.text()
    expect([page.status, html.includes("Create an account"), html.includes('autocomplete="new-password"')]).toEqual([200, true, true])
    const action = /<form action="([^"]+)"/.exec(html)![1]!
    const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)![1]!
    const callbackUrl = /name="callbackUrl" value="([^"]+)"/.exec(html)![1]!
    expect(action).toBe(`${origin}/auth/signup/password`)
    const submitted = await send(config, jar, action, { form: { csrfToken, callbackUrl, email: "ada@example.test", password: "correct horse battery" } })
    expect(submitted.headers.get("location")).toBe(`${origin}/welcome`)
    expect(await sessionEmail(config, jar)).toBe("ada@example.test")
    expect(await (await send(config, new CookieJar(), "/signin?error=EmailTaken")).text()).toContain("An account with this email address exists")
  })
})

describe("Password provider configuration", () => {
  it("without an adapter it fails at start in one line", async () => {
    const config: AuthConfig = { secret, trustHost: true, providers: [Password()] }
    const response = await send(config, new CookieJar(), "/session")
    expect(response.status).toBe(500)
  })

  it("sign-up is served only for a Password provider", async () => {
    const { config } = world("jwt")
    const jar = new CookieJar()
    expect((await send(config, jar, "/signup/credentials", { form: { csrfToken: await csrfTokenFor(config, jar) } })).headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`)
  })
})
