/**
 * The second factor through `Auth()`: a credentials sign-in of a user with an authenticator app
 * stops before any session exists, waits in the sealed second-factor flow, and signs in only once
 * a code passes; every refusal is checked as a browser meets it.
 */
import { describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { memoryRevocationStore } from "../../src/core/revocation-store.js"
import { base32Encode, hashBackupCode, newTotpSecret, sealFactorSecret, totpCode } from "../../src/core/second-factor/index.js"
import { softwareTotp } from "../../src/testing/index.js"
import { ada, adaCredentials, CookieJar, cookieNames, csrfTokenFor, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

const secret = "second-factor-test-secret-at-least-32-chars"
const names = cookieNames.https

async function world(strategy: "jwt" | "database", secondFactor: AuthConfig["secondFactor"] = true) {
  const adapter = MemoryAdapter()
  await adapter.createUser({ ...ada, emailVerified: null })
  const totpSecret = newTotpSecret()
  await adapter.createFactor({
    id: "f1",
    userId: ada.id,
    type: "totp",
    name: "Phone",
    secret: await sealFactorSecret(totpSecret, secret),
    algorithm: "SHA-1",
    digits: 6,
    period: 30,
    lastUsedStep: null,
    createdAt: new Date(),
  })
  await adapter.replaceBackupCodes(ada.id, [await hashBackupCode("abcde-fghjk", secret), await hashBackupCode("mnpqr-stuvw", secret)])
  const config: AuthConfig = { secret, trustHost: true, adapter, session: { strategy }, providers: [adaCredentials()], secondFactor }
  const app = softwareTotp(base32Encode(totpSecret))
  return { adapter, config, app, totpSecret }
}

async function signInWithPassword(config: AuthConfig, jar: CookieJar) {
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: "lovelace", callbackUrl: "https://app.test/dashboard" } })
}

async function submit(config: AuthConfig, jar: CookieJar, form: Record<string, string>) {
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, "/second-factor", { form: { csrfToken, ...form } })
}

async function sessionOf(config: AuthConfig, jar: CookieJar) {
  return (await send(config, jar, "/session")).json() as Promise<{ user?: { email?: string } } | null>
}

describe.each(["jwt", "database"] as const)("second factor with %s sessions", (strategy) => {
  it("stops after the password with no session, and signs in with the app's code", async () => {
    const { config, app, adapter } = await world(strategy)
    const jar = new CookieJar()
    const stopped = await signInWithPassword(config, jar)
    expect(stopped.status).toBe(302)
    const location = new URL(stopped.headers.get("location")!)
    expect(location.pathname).toBe("/auth/second-factor")
    expect(location.searchParams.get("methods")).toBe("totp,backup")
    expect(jar.get(names.sessionToken)).toBeUndefined()
    expect(jar.get(names.secondFactor)).toBeDefined()
    expect(await sessionOf(config, jar)).toBeNull()

    const page = await send(config, jar, `/second-factor${location.search}`)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("Code from your authenticator app")
    expect(html).toContain("Backup code")

    const passed = await submit(config, jar, { method: "totp", code: await app.code() })
    expect(passed.status).toBe(302)
    expect(passed.headers.get("location")).toBe("https://app.test/dashboard")
    expect(jar.get(names.sessionToken)).toBeDefined()
    expect(jar.get(names.secondFactor)).toBeUndefined()
    expect((await sessionOf(config, jar))?.user?.email).toBe(ada.email)
    expect((await adapter.listFactorsByUserId(ada.id))[0]!.lastUsedStep).not.toBeNull()
  })

  it("refuses a wrong code and waits for another, then ends after the last attempt", async () => {
    const { config } = await world(strategy, { maxAttempts: 2 })
    const jar = new CookieJar()
    await signInWithPassword(config, jar)
    const wrong = await submit(config, jar, { method: "totp", code: "000000" })
    const again = new URL(wrong.headers.get("location")!)
    expect(again.pathname).toBe("/auth/second-factor")
    expect(again.searchParams.get("error")).toBe("SecondFactorRefused")
    expect(again.searchParams.get("reason")).toBe("wrong-code")
    expect(jar.get(names.sessionToken)).toBeUndefined()
    const page = await (await send(config, jar, `/second-factor${again.search}`)).text()
    expect(page).toContain("That code is not right")

    const last = await submit(config, jar, { method: "totp", code: "000001" })
    expect(last.headers.get("location")).toBe("https://app.test/auth/signin?error=SecondFactorAttemptsExhausted")
    expect(jar.get(names.secondFactor)).toBeUndefined()
    expect(await sessionOf(config, jar)).toBeNull()
  })

  it("accepts a code once: the same code in a second sign-in is a replay", async () => {
    const { config, totpSecret } = await world(strategy)
    const code = await totpCode(totpSecret)
    const first = new CookieJar()
    await signInWithPassword(config, first)
    expect((await submit(config, first, { method: "totp", code })).headers.get("location")).toBe("https://app.test/dashboard")

    const second = new CookieJar()
    await signInWithPassword(config, second)
    const replayed = new URL((await submit(config, second, { method: "totp", code })).headers.get("location")!)
    expect(replayed.searchParams.get("reason")).toBe("replayed-code")
    expect(await sessionOf(config, second)).toBeNull()
  })

  it("takes a backup code once, and offers backup codes only while some are left", async () => {
    const { config, adapter } = await world(strategy)
    const jar = new CookieJar()
    await signInWithPassword(config, jar)
    expect((await submit(config, jar, { method: "backup", code: "ABCDE FGHJK" })).headers.get("location")).toBe("https://app.test/dashboard")
    expect(await adapter.countBackupCodes(ada.id)).toBe(1)

    const again = new CookieJar()
    await signInWithPassword(config, again)
    const refused = new URL((await submit(config, again, { method: "backup", code: "abcde-fghjk" })).headers.get("location")!)
    expect(refused.searchParams.get("reason")).toBe("unknown-backup-code")
    expect((await submit(config, again, { method: "backup", code: "mnpqr-stuvw" })).headers.get("location")).toBe("https://app.test/dashboard")

    const none = new CookieJar()
    const stopped = new URL((await signInWithPassword(config, none)).headers.get("location")!)
    expect(stopped.searchParams.get("methods")).toBe("totp")
    const tampered = await submit(config, none, { method: "backup", code: "mnpqr-stuvw" })
    expect(tampered.headers.get("location")).toBe("https://app.test/auth/signin?error=SecondFactorRefused")
  })

  it("refuses a waiting sign-in after its 5 minutes: the sign-in starts again", async () => {
    const { config, app } = await world(strategy)
    const jar = new CookieJar()
    await signInWithPassword(config, jar)
    vi.useFakeTimers({ now: Date.now() + 5 * 60 * 1000 + 16_000, toFake: ["Date"] })
    try {
      const late = await submit(config, jar, { method: "totp", code: await app.code() })
      expect(late.headers.get("location")).toBe("https://app.test/auth/signin?error=SecondFactorRefused")
      expect(await sessionOf(config, jar)).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it("refuses the waiting flow from another browser, and a flow cookie sent twice", async () => {
    const { config, app } = await world(strategy)
    const jar = new CookieJar()
    await signInWithPassword(config, jar)
    const thief = new CookieJar()
    thief.cookies.set(names.secondFactor, jar.get(names.secondFactor)!)
    const foreign = await submit(config, thief, { method: "totp", code: await app.code() })
    expect(foreign.headers.get("location")).toBe("https://app.test/auth/signin?error=SecondFactorRefused")
    expect(await sessionOf(config, thief)).toBeNull()

    const copy = new CookieJar()
    for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
    await submit(config, jar, { method: "totp", code: "000000" })
    const replayed = await submit(config, copy, { method: "totp", code: await app.code() })
    expect(replayed.headers.get("location")).toBe("https://app.test/auth/signin?error=SecondFactorRefused")
    expect(await sessionOf(config, copy)).toBeNull()
  })

  it("offers an emailed code when a factor is required of a user who has none", async () => {
    const sent: { email: string; code: string }[] = []
    const { config, adapter } = await world(strategy, { required: true, sendCode: ({ email, code }) => void sent.push({ email, code }) })
    await adapter.deleteFactor("f1")
    await adapter.replaceBackupCodes(ada.id, [])
    const jar = new CookieJar()
    const stopped = new URL((await signInWithPassword(config, jar)).headers.get("location")!)
    expect(stopped.searchParams.get("methods")).toBe("email")
    const early = new URL((await submit(config, jar, { method: "email", code: "123456" })).headers.get("location")!)
    expect(early.searchParams.get("reason")).toBe("no-email-code")
    const asked = new URL((await submit(config, jar, { method: "email", send: "true" })).headers.get("location")!)
    expect(asked.searchParams.get("sent")).toBe("email")
    expect(sent).toHaveLength(1)
    expect(sent[0]!.email).toBe(ada.email)
    expect((await submit(config, jar, { method: "email", code: sent[0]!.code })).headers.get("location")).toBe("https://app.test/dashboard")
    expect((await sessionOf(config, jar))?.user?.email).toBe(ada.email)
  })

  it("takes an emailed code hashed before a secret rotation (compared under every listed secret)", async () => {
    const sent: { email: string; code: string }[] = []
    const { config, adapter } = await world(strategy, { required: true, sendCode: ({ email, code }) => void sent.push({ email, code }) })
    await adapter.deleteFactor("f1")
    await adapter.replaceBackupCodes(ada.id, [])
    const jar = new CookieJar()
    await signInWithPassword(config, jar)
    await submit(config, jar, { method: "email", send: "true" })
    const rotated: AuthConfig = { ...config, secret: ["a-newer-second-factor-secret-of-32-chars", secret] }
    const wrong = String((Number(sent[0]!.code) + 1) % 1_000_000).padStart(6, "0")
    expect(new URL((await submit(rotated, jar, { method: "email", code: wrong })).headers.get("location")!).searchParams.get("reason")).toBe("wrong-code")
    expect((await submit(rotated, jar, { method: "email", code: sent[0]!.code })).headers.get("location")).toBe("https://app.test/dashboard")
    expect((await sessionOf(rotated, jar))?.user?.email).toBe(ada.email)
  })

  it("remembers a trusted device until the user's factors change", async () => {
    const { config, app, adapter } = await world(strategy)
    const jar = new CookieJar()
    await signInWithPassword(config, jar)
    await submit(config, jar, { method: "totp", code: await app.code(), remember: "true" })
    expect(jar.get(names.trustedDevice)).toBeDefined()
    jar.cookies.delete(names.sessionToken)

    expect((await signInWithPassword(config, jar)).headers.get("location")).toBe("https://app.test/dashboard")
    jar.cookies.delete(names.sessionToken)

    await adapter.createFactor({ ...(await adapter.listFactorsByUserId(ada.id))[0]!, id: "f2", name: "Tablet", createdAt: new Date() })
    expect(new URL((await signInWithPassword(config, jar)).headers.get("location")!).pathname).toBe("/auth/second-factor")
  })

  it("forgets a trusted device once the user's sessions are revoked (a back-channel logout)", async () => {
    const { config, app } = await world(strategy)
    const revocations = memoryRevocationStore()
    const revocable = { ...config, revocationStore: revocations }
    const jar = new CookieJar()
    await signInWithPassword(revocable, jar)
    await submit(revocable, jar, { method: "totp", code: await app.code(), remember: "true" })
    jar.cookies.delete(names.sessionToken)
    expect((await signInWithPassword(revocable, jar)).headers.get("location")).toBe("https://app.test/dashboard")
    jar.cookies.delete(names.sessionToken)

    await revocations.revoke(`user:${ada.id}`, Date.now() + 1, Date.now() + 60_000)
    expect(new URL((await signInWithPassword(revocable, jar)).headers.get("location")!).pathname).toBe("/auth/second-factor")
  })
})

describe("second factor off", () => {
  it("signs a user with a factor in after the password when secondFactor is not set", async () => {
    const { config } = await world("jwt", false)
    const jar = new CookieJar()
    expect((await signInWithPassword(config, jar)).headers.get("location")).toBe("https://app.test/dashboard")
  })
})
