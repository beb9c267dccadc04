/**
 * Step-up through `Auth()`: a sign-in with second factors on records when and how the user
 * authenticated (the auth-context cookie); `/step-up` sends a signed-in user on when that is recent
 * enough, and otherwise through their second factor again (the session untouched) or to sign in.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { memoryRevocationStore } from "../../src/core/revocation-store.js"
import { encode } from "../../src/core/jwt/index.js"
import { base32Encode, hashBackupCode, newTotpSecret, sealFactorSecret } from "../../src/core/second-factor/index.js"
import { softwareTotp } from "../../src/testing/index.js"
import { ada, adaCredentials, CookieJar, cookieNames, csrfTokenFor, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

const secret = "step-up-test-secret-at-least-32-characters"
const names = cookieNames.https
const settings = "https://app.test/settings"
const minutes = (count: number) => count * 60_000

async function world(strategy: "jwt" | "database", { enrolled = true, secondFactor = true as AuthConfig["secondFactor"] } = {}) {
  const adapter = MemoryAdapter()
  await adapter.createUser({ ...ada, emailVerified: null })
  const totpSecret = newTotpSecret()
  if (enrolled) {
    await adapter.createFactor({ id: "f1", userId: ada.id, type: "totp", name: "Phone", secret: await sealFactorSecret(totpSecret, secret), algorithm: "SHA-1", digits: 6, period: 30, lastUsedStep: null, createdAt: new Date() })
    await adapter.replaceBackupCodes(ada.id, [await hashBackupCode("abcde-fghjk", secret)])
  }
  const revocations = memoryRevocationStore()
  const config: AuthConfig = { secret, trustHost: true, adapter, session: { strategy }, providers: [adaCredentials()], secondFactor, revocationStore: revocations }
  return { config, revocations, app: softwareTotp(base32Encode(totpSecret)) }
}

async function signInWithPassword(config: AuthConfig, jar: CookieJar) {
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: "lovelace", callbackUrl: "https://app.test/dashboard" } })
}

async function passSecondFactor(config: AuthConfig, jar: CookieJar, code: string) {
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, "/second-factor", { form: { csrfToken, method: "totp", code } })
}

/** A signed-in Ada: password, then her app's code when she has one. */
async function signedIn(config: AuthConfig, app: ReturnType<typeof softwareTotp>, enrolled = true) {
  const jar = new CookieJar()
  await signInWithPassword(config, jar)
  if (enrolled) await passSecondFactor(config, jar, await app.code())
  expect(jar.get(names.sessionToken)).toBeDefined()
  return jar
}

async function status(config: AuthConfig, jar: CookieJar, query: string) {
  const response = await send(config, jar, `/step-up?${query}`, { headers: { accept: "application/json" } })
  expect(response.status).toBe(200)
  return (await response.json()) as { recent: boolean; authTime?: string; amr?: string[]; next?: string }
}

async function sessionEmail(config: AuthConfig, jar: CookieJar) {
  return ((await (await send(config, jar, "/session")).json()) as { user?: { email?: string } } | null)?.user?.email
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(Date.parse("2026-03-01T10:00:10.000Z"))
})
afterEach(() => vi.useRealTimers())

describe.each(["jwt", "database"] as const)("step-up with %s sessions", (strategy) => {
  it("a sign-in records when and how: password and app code are recent for five minutes", async () => {
    const { config, app } = await world(strategy)
    const jar = await signedIn(config, app)
    expect(jar.get(names.authContext)).toBeDefined()
    expect(await status(config, jar, "maxAge=300&factor=second")).toEqual({ recent: true, authTime: "2026-03-01T10:00:10.000Z", amr: ["pwd", "otp", "mfa"] })
    const passing = await send(config, jar, `/step-up?maxAge=300&callbackUrl=${encodeURIComponent(settings)}`)
    expect([passing.status, passing.headers.get("location")]).toEqual([302, settings])
  })

  it("once it is older, the user proves the app again; the session stays and the context is renewed", async () => {
    const { config, app } = await world(strategy)
    const jar = await signedIn(config, app)
    const session = jar.get(names.sessionToken)
    vi.setSystemTime(Date.now() + minutes(10))
    expect(await status(config, jar, "maxAge=300")).toEqual({ recent: false, next: "second-factor" })

    const sent = await send(config, jar, `/step-up?maxAge=300&callbackUrl=${encodeURIComponent(settings)}`)
    const page = new URL(sent.headers.get("location")!)
    expect([page.pathname, page.searchParams.get("methods")]).toEqual(["/auth/second-factor", "totp,backup"])
    expect(jar.get(names.secondFactor)).toBeDefined()
    expect(await sessionEmail(config, jar)).toBe(ada.email)

    vi.setSystemTime(Date.now() + 30_000)
    const passed = await passSecondFactor(config, jar, await app.code())
    expect([passed.status, passed.headers.get("location")]).toEqual([302, settings])
    expect(passed.headers.getSetCookie().some((cookie) => cookie.startsWith(`${names.sessionToken}=`))).toBe(false)
    if (strategy === "database") expect(jar.get(names.sessionToken)).toBe(session)
    expect(jar.get(names.secondFactor)).toBeUndefined()
    expect(await status(config, jar, "maxAge=300&factor=second")).toEqual({ recent: true, authTime: "2026-03-01T10:10:40.000Z", amr: ["pwd", "otp", "mfa"] })
  })

  it("a wrong code in a step-up is refused and waits, and the session stays", async () => {
    const { config, app } = await world(strategy)
    const jar = await signedIn(config, app)
    vi.setSystemTime(Date.now() + minutes(10))
    await send(config, jar, "/step-up?maxAge=60")
    const refused = new URL((await passSecondFactor(config, jar, "000000")).headers.get("location")!)
    expect([refused.pathname, refused.searchParams.get("reason")]).toEqual(["/auth/second-factor", "wrong-code"])
    expect(await sessionEmail(config, jar)).toBe(ada.email)
    expect((await status(config, jar, "maxAge=60")).recent).toBe(false)
  })

  it("a user without a factor signs in again for a recent authentication, and cannot meet a demand for a second factor", async () => {
    const { config, app } = await world(strategy, { enrolled: false })
    const jar = await signedIn(config, app, false)
    expect(await status(config, jar, "maxAge=300")).toEqual({ recent: true, authTime: "2026-03-01T10:00:10.000Z", amr: ["pwd"] })
    expect(await status(config, jar, "maxAge=300&factor=second")).toEqual({ recent: false, next: "unavailable" })
    const unavailable = await send(config, jar, "/step-up?maxAge=300&factor=second")
    expect(unavailable.headers.get("location")).toBe("https://app.test/auth/error?error=SecondFactorUnavailable")

    vi.setSystemTime(Date.now() + minutes(10))
    expect(await status(config, jar, "maxAge=300")).toEqual({ recent: false, next: "signin" })
    const again = await send(config, jar, `/step-up?maxAge=300&callbackUrl=${encodeURIComponent(settings)}`)
    expect(again.headers.get("location")).toBe(`https://app.test/auth/signin?${new URLSearchParams({ callbackUrl: settings })}`)
    await signInWithPassword(config, jar)
    expect((await status(config, jar, "maxAge=300")).recent).toBe(true)
  })

  it("signing out clears when and how the user authenticated with the session", async () => {
    const { config, app } = await world(strategy)
    const jar = await signedIn(config, app)
    expect(jar.get(names.authContext)).toBeDefined()
    await send(config, jar, "/signout", { form: { csrfToken: await csrfTokenFor(config, jar) } })
    expect([jar.get(names.sessionToken), jar.get(names.authContext)]).toEqual([undefined, undefined])
  })

  it("signed out: to the sign-in page", async () => {
    const { config } = await world(strategy)
    const jar = new CookieJar()
    expect(await status(config, jar, "maxAge=300")).toEqual({ recent: false, next: "signin" })
    expect((await send(config, jar, "/step-up")).headers.get("location")).toBe(`https://app.test/auth/signin?${new URLSearchParams({ callbackUrl: "https://app.test" })}`)
  })

  it("another user's auth context, planted in this browser, does not count", async () => {
    const { config, app } = await world(strategy)
    const jar = await signedIn(config, app)
    const name = names.authContext
    jar.cookies.set(name, await encode({ token: { u: "someone-else", t: Date.now(), a: ["pwd", "otp", "mfa"] } as never, secret, salt: name, maxAge: 3600 }))
    expect(await status(config, jar, "maxAge=300")).toEqual({ recent: false, next: "second-factor" })
  })

  it("an authentication before the user's sessions were revoked does not count", async () => {
    const { config, app, revocations } = await world(strategy)
    const jar = await signedIn(config, app)
    vi.setSystemTime(Date.now() + 1000)
    await revocations.revoke(`user:${ada.id}`, Date.now(), Date.now() + minutes(60))
    expect(await status(config, jar, "maxAge=300")).toEqual({ recent: false, next: "second-factor" })
  })
})

describe("/step-up refuses what it cannot read", () => {
  it("a maxAge that is not whole seconds, or an unknown factor, is a 400 that says how to write it", async () => {
    const { config, app } = await world("jwt")
    const jar = await signedIn(config, app)
    const cases = { "maxAge=five": 'such as /step-up?maxAge=300 (got "five")', "maxAge=-1": '(got "-1")', "factor=third": 'factor "any" or "second" (got "third")' }
    for (const [query, fix] of Object.entries(cases)) {
      const response = await send(config, jar, `/step-up?${query}`)
      expect([query, response.status]).toEqual([query, 400])
      expect(await response.text()).toContain(fix)
      const asJson = await send(config, jar, `/step-up?${query}`, { headers: { accept: "application/json" } })
      expect(((await asJson.json()) as { error: string }).error).toContain(fix)
    }
    expect(jar.get(names.secondFactor)).toBeUndefined()
  })

  it("is not served when second factors are off, and a sign-in then sets no auth-context cookie", async () => {
    const { config, app } = await world("jwt", { enrolled: false, secondFactor: false })
    const jar = await signedIn(config, app, false)
    expect(jar.get(names.authContext)).toBeUndefined()
    expect((await send(config, jar, "/step-up")).headers.get("location")).toBe("https://app.test/auth/error?error=Configuration")
  })
})
