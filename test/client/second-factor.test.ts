/**
 * The second-factor functions of `authflow/client` against a real `Auth()`: `fetch` hands each
 * request to `Auth()` with a cookie jar, `window.location` is a recorder. Managing authenticator
 * apps (`/factors`) and passing the second factor of a sign-in (`/second-factor`), with the
 * refusals as a single-page app meets them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import * as client from "../../src/client/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { base32Encode, hashBackupCode, newTotpSecret, sealFactorSecret } from "../../src/core/second-factor/index.js"
import { softwareTotp, totpFromUri } from "../../src/testing/index.js"
import { ada, adaCredentials, basePath, CookieJar, cookieNames, origin, recordingLogger } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

const secret = "client-second-factor-secret-at-least-32-chars"
const names = cookieNames.https
const page = `${origin}/account`

async function world(secondFactor: Exclude<AuthConfig["secondFactor"], boolean | undefined> = {}, extra: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  await adapter.createUser({ ...ada, emailVerified: null })
  const config: AuthConfig = { secret, trustHost: true, adapter, logger: recordingLogger().logger, providers: [adaCredentials()], secondFactor: { issuer: "Example", ...secondFactor }, ...extra }
  return { adapter, config }
}

/** Gives ada an app (returned) and two backup codes, as an earlier enrolment would have. */
async function withApp(adapter: ReturnType<typeof MemoryAdapter>) {
  const totpSecret = newTotpSecret()
  await adapter.createFactor({ id: "f1", userId: ada.id, type: "totp", name: "Phone", secret: await sealFactorSecret(totpSecret, secret), algorithm: "SHA-1", digits: 6, period: 30, lastUsedStep: null, createdAt: new Date() })
  await adapter.replaceBackupCodes(ada.id, [await hashBackupCode("abcde-fghjk", secret), await hashBackupCode("mnpqr-stuvw", secret)])
  return softwareTotp(base32Encode(totpSecret))
}

/** A browser whose `fetch` reaches `Auth(config)`; once `losesCsrfCookie` is set, it drops the CSRF cookie before each POST (blocked or expired). */
function browserFor(config: AuthConfig) {
  const jar = new CookieJar()
  const quirks = { losesCsrfCookie: false }
  const requests: { method: string; url: URL; headers: Headers; body: string }[] = []
  vi.stubGlobal("fetch", async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input), origin)
    const method = init?.method ?? "GET"
    if (quirks.losesCsrfCookie && method === "POST") jar.cookies.delete(names.csrfToken)
    const headers = new Headers(init?.headers)
    if (jar.cookies.size) headers.set("cookie", jar.header())
    const body = typeof init?.body === "string" ? init.body : ""
    requests.push({ method, url, headers, body })
    const response = await Auth(new Request(url, { method, headers, body: body || undefined }), config)
    jar.take(response)
    return response
  })
  const location = { href: page, reload: vi.fn() }
  vi.stubGlobal("window", { location })
  return { jar, requests, location, quirks }
}

const signInAsAda = (redirectTo = "/dashboard") => client.signIn("credentials", { username: "ada", password: "lovelace", redirect: false, redirectTo })

async function sessionEmail() {
  return (await client.getSession())?.user?.email ?? null
}

beforeEach(() => void client.configure({ basePath, baseUrl: "" }))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe("managing authenticator apps", () => {
  it("enrols an app only after a right code, with backup codes once, then renames, regenerates and removes it", async () => {
    const { config, adapter } = await world()
    const browser = browserFor(config)
    expect((await signInAsAda())?.ok).toBe(true)
    expect(await client.listFactors()).toEqual({ ok: true, error: undefined, status: 200, factors: [], backupCodes: 0 })
    const listing = browser.requests.at(-1)!
    expect(`${listing.method} ${listing.url.pathname}`).toBe(`GET ${basePath}/factors`)
    expect(listing.headers.get("accept")).toBe("application/json")

    const enrolment = await client.enrolAuthenticatorApp()
    if (!enrolment.ok) throw new Error(`enrolment refused: ${enrolment.error}`)
    expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/Example:ada%40example\.test\?/)
    expect(enrolment.otpauthUri).toContain(`secret=${enrolment.secret}`)
    const post = browser.requests.at(-1)!
    expect(post.headers.get("content-type")).toBe("application/json")
    expect(JSON.parse(post.body)).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/), action: "enrol" })
    const app = totpFromUri(enrolment.otpauthUri)

    expect(await client.confirmAuthenticatorApp("000000", { name: "Phone" })).toEqual({ ok: false, error: "wrong-code", status: 400 })
    expect(await adapter.listFactorsByUserId(ada.id)).toEqual([])

    const confirmed = await client.confirmAuthenticatorApp(await app.code(), { name: "Phone" })
    if (!confirmed.ok) throw new Error(`confirmation refused: ${confirmed.error}`)
    expect(confirmed.factor).toMatchObject({ name: "Phone", id: expect.any(String) })
    expect(confirmed.backupCodes).toHaveLength(10)
    expect(await adapter.countBackupCodes(ada.id)).toBe(10)

    const listed = await client.listFactors()
    expect(listed.ok && listed.factors.map((factor) => factor.name)).toEqual(["Phone"])
    expect(listed.ok && listed.backupCodes).toBe(10)

    expect(await client.renameFactor(confirmed.factor.id, "  Work phone  ")).toEqual({ ok: true, error: undefined, status: 200 })
    expect((await adapter.listFactorsByUserId(ada.id))[0]!.name).toBe("Work phone")

    const regenerated = await client.regenerateBackupCodes()
    if (!regenerated.ok) throw new Error(`regeneration refused: ${regenerated.error}`)
    expect(regenerated.backupCodes).toHaveLength(10)
    expect(regenerated.backupCodes.some((code) => confirmed.backupCodes!.includes(code))).toBe(false)

    // The last app goes only with a current code from it; the enrolment used this step's code.
    expect(await client.removeFactor(confirmed.factor.id)).toEqual({ ok: false, error: "removal-refused", status: 403 })
    expect(await client.removeFactor(confirmed.factor.id, { code: "000000" })).toEqual({ ok: false, error: "removal-refused", status: 403 })
    expect(await client.removeFactor(confirmed.factor.id, { code: await app.code(Date.now() + 30_000) })).toEqual({ ok: true, error: undefined, status: 200 })
    expect(await adapter.listFactorsByUserId(ada.id)).toEqual([])
  })

  it("names another user's app unknown, and a second app needs no code to go", async () => {
    const { config, adapter } = await world()
    browserFor(config)
    await withApp(adapter)
    await adapter.createUser({ id: "2", name: "Charles Babbage", email: "charles@example.test", emailVerified: null })
    await adapter.createFactor({ id: "f2", userId: "2", type: "totp", name: "Theirs", secret: "x", algorithm: "SHA-1", digits: 6, period: 30, lastUsedStep: null, createdAt: new Date() })
    await adapter.createFactor({ id: "f3", userId: ada.id, type: "totp", name: "Tablet", secret: "x", algorithm: "SHA-1", digits: 6, period: 30, lastUsedStep: null, createdAt: new Date() })
    await client.signIn("credentials", { username: "ada", password: "lovelace", redirect: false })
    // Ada has apps: the sign-in waits for one, or for a backup code.
    expect((await client.submitSecondFactor({ method: "backup", code: "abcde-fghjk", redirect: false }))?.ok).toBe(true)

    expect(await client.renameFactor("f2", "Mine now")).toEqual({ ok: false, error: "unknown-factor", status: 404 })
    expect(await client.removeFactor("f2")).toEqual({ ok: false, error: "unknown-factor", status: 404 })
    expect(await client.removeFactor("f3")).toEqual({ ok: true, error: undefined, status: 200 })
    expect((await adapter.listFactorsByUserId(ada.id)).map((factor) => factor.id)).toEqual(["f1"])
  })

  it("reports signed-out for every function without a session", async () => {
    const { config } = await world()
    browserFor(config)
    const signedOut = { ok: false, error: "signed-out", status: 401 }
    expect(await client.listFactors()).toEqual(signedOut)
    expect(await client.enrolAuthenticatorApp()).toEqual(signedOut)
    expect(await client.renameFactor("f1", "x")).toEqual(signedOut)
    expect(await client.removeFactor("f1")).toEqual(signedOut)
    expect(await client.regenerateBackupCodes()).toEqual(signedOut)
  })

  it("reads a confirmation with no enrolment waiting and a rate limit as error values", async () => {
    const { config } = await world({}, { rateLimit: { limits: { "second-factor": { identifier: { max: 0, windowSeconds: 60 } } } } })
    browserFor(config)
    await signInAsAda()
    // No enrolment waits: the route says it ended, so the app can start again.
    expect(await client.confirmAuthenticatorApp("123456")).toEqual({ ok: false, error: "enrolment-ended", status: 409 })
    expect((await client.enrolAuthenticatorApp()).ok).toBe(true)
    expect(await client.confirmAuthenticatorApp("123456")).toEqual({ ok: false, error: "RateLimited", status: 429 })
  })

  it("reads a CSRF refusal as an error value", async () => {
    const { config } = await world()
    const browser = browserFor(config)
    await signInAsAda()
    browser.quirks.losesCsrfCookie = true
    expect(await client.regenerateBackupCodes()).toEqual({ ok: false, error: "MissingCSRF", status: 200 })
    expect(await client.enrolAuthenticatorApp()).toEqual({ ok: false, error: "MissingCSRF", status: 200 })
  })
})

describe("passing the second factor of a sign-in", () => {
  it("finds the methods in the sign-in's answer, reports a wrong code's reason, then signs in without navigating", async () => {
    const { config, adapter } = await world({ maxAttempts: 3 })
    const app = await withApp(adapter)
    const browser = browserFor(config)
    const waiting = await signInAsAda()
    expect(new URL(waiting!.url!).pathname).toBe(`${basePath}/second-factor`)
    expect(client.secondFactorMethods(waiting?.url)).toEqual(["totp", "backup"])
    expect(await sessionEmail()).toBeNull()

    const wrong = await client.submitSecondFactor({ code: "000000", redirect: false })
    expect(wrong).toMatchObject({ ok: false, error: "SecondFactorRefused", reason: "wrong-code", status: 200 })
    expect(new URL(wrong!.url!).pathname).toBe(`${basePath}/second-factor`)
    expect(await sessionEmail()).toBeNull()
    const post = browser.requests.findLast((request) => request.method === "POST")!
    expect(post.url.pathname).toBe(`${basePath}/second-factor`)
    expect(Object.fromEntries(new URLSearchParams(post.body))).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/), method: "totp", code: "000000" })

    const unknown = await client.submitSecondFactor({ method: "backup", code: "zzzzz-zzzzz", redirect: false })
    expect(unknown).toMatchObject({ ok: false, error: "SecondFactorRefused", reason: "unknown-backup-code" })

    const passed = await client.submitSecondFactor({ code: await app.code(), redirect: false })
    expect(passed).toEqual({ ok: true, url: `${origin}/dashboard`, error: undefined, reason: undefined, status: 200 })
    expect(browser.location.href).toBe(page)
    expect(await sessionEmail()).toBe(ada.email)
    expect(browser.jar.get(names.trustedDevice)).toBeUndefined()
  })

  it("tells the other tabs once the second factor passed, not before; navigates to the callback URL by default; remembers the device when asked", async () => {
    const { config, adapter } = await world()
    await withApp(adapter)
    const browser = browserFor(config)
    const heard = vi.fn()
    const stop = client.onSessionChange(heard)
    try {
      await signInAsAda("/after")
      // The password passed, but no session exists yet: nothing to tell.
      expect(heard).not.toHaveBeenCalled()
      expect(await client.submitSecondFactor({ method: "backup", code: "mnpqr-stuvw", remember: true })).toBeUndefined()
      expect(browser.location.href).toBe(`${origin}/after`)
      expect(heard).toHaveBeenCalledWith({ event: "session", data: { trigger: "signin" } })
      expect(browser.jar.get(names.trustedDevice)).toBeDefined()
      expect(new URLSearchParams(browser.requests.findLast((request) => request.method === "POST")!.body).get("remember")).toBe("true")
    } finally {
      stop()
    }
  })

  it("navigates a refused code back to the page that shows the refusal", async () => {
    const { config, adapter } = await world()
    await withApp(adapter)
    const browser = browserFor(config)
    await signInAsAda()
    await client.submitSecondFactor({ code: "000000" })
    const shown = new URL(browser.location.href)
    expect(shown.pathname).toBe(`${basePath}/second-factor`)
    expect(Object.fromEntries(shown.searchParams)).toMatchObject({ error: "SecondFactorRefused", reason: "wrong-code" })
  })

  it("ends the sign-in after the last attempt, and refuses without a waiting sign-in or a CSRF cookie", async () => {
    const { config, adapter } = await world({ maxAttempts: 1 })
    const app = await withApp(adapter)
    const browser = browserFor(config)
    await signInAsAda()
    const exhausted = await client.submitSecondFactor({ code: "000000", redirect: false })
    expect(exhausted).toMatchObject({ ok: false, error: "SecondFactorAttemptsExhausted", reason: undefined, url: `${origin}${basePath}/signin?error=SecondFactorAttemptsExhausted` })
    // The flow ended: the right code now has no sign-in to finish, and the sign-in starts again.
    const ended = await client.submitSecondFactor({ code: await app.code(), redirect: false })
    expect(ended).toMatchObject({ ok: false, error: "SecondFactorRefused", reason: undefined, url: `${origin}${basePath}/signin?error=SecondFactorRefused` })
    expect(await sessionEmail()).toBeNull()

    await signInAsAda()
    browser.quirks.losesCsrfCookie = true
    expect(await client.submitSecondFactor({ code: await app.code(), redirect: false })).toMatchObject({ ok: false, error: "MissingCSRF" })
  })

  it("emails a code and signs in with it", async () => {
    const sent: { email: string; code: string }[] = []
    const { config } = await world({ required: true, sendCode: ({ email, code }) => void sent.push({ email, code }) })
    const browser = browserFor(config)
    expect(client.secondFactorMethods((await signInAsAda())?.url)).toEqual(["email"])
    expect(await client.submitSecondFactor({ method: "email", code: "123456", redirect: false })).toMatchObject({ ok: false, error: "SecondFactorRefused", reason: "no-email-code" })

    const asked = await client.requestEmailCode()
    expect(asked).toMatchObject({ ok: true, error: undefined, reason: undefined, status: 200 })
    expect(new URL(asked.url!).searchParams.get("sent")).toBe("email")
    expect(browser.location.href).toBe(page)
    expect(sent).toEqual([{ email: ada.email, code: expect.stringMatching(/^\d{6}$/) }])
    expect(await client.submitSecondFactor({ method: "email", code: sent[0]!.code, redirect: false })).toMatchObject({ ok: true, url: `${origin}/dashboard` })
    expect(await sessionEmail()).toBe(ada.email)
  })

  it("finds no methods in an answer that is not the second-factor page", () => {
    expect(client.secondFactorMethods(`${origin}/dashboard`)).toBeUndefined()
    expect(client.secondFactorMethods(null)).toBeUndefined()
    expect(client.secondFactorMethods("/auth/second-factor?methods=carrier-pigeon")).toBeUndefined()
  })
})

describe("a server that answers redirects as redirects", () => {
  /** Strips `X-Auth-Return-Redirect` from each request and follows a 302 as a browser's `fetch` does, ending on a page. */
  function browserFollowingRedirects(config: AuthConfig) {
    const jar = new CookieJar()
    vi.stubGlobal("fetch", async (input: string | URL, init?: RequestInit) => {
      const url = new URL(String(input), origin)
      const headers = new Headers(init?.headers)
      headers.delete("x-auth-return-redirect")
      if (jar.cookies.size) headers.set("cookie", jar.header())
      const body = typeof init?.body === "string" ? init.body : undefined
      const response = await Auth(new Request(url, { method: init?.method ?? "GET", headers, body }), config)
      jar.take(response)
      const location = response.headers.get("location")
      if (response.status !== 302 || !location) return response
      const landed = new Response("<!doctype html><p>a page</p>", { headers: { "Content-Type": "text/html" } })
      Object.defineProperties(landed, { redirected: { value: true }, url: { value: new URL(location, url).href } })
      return landed
    })
    vi.stubGlobal("window", { location: { href: page, reload: vi.fn() } })
    return jar
  }

  it("reads where the browser landed as the answer", async () => {
    const { config, adapter } = await world()
    const app = await withApp(adapter)
    browserFollowingRedirects(config)
    const waiting = await signInAsAda()
    expect(client.secondFactorMethods(waiting?.url)).toEqual(["totp", "backup"])
    expect(await client.submitSecondFactor({ code: "000000", redirect: false })).toMatchObject({ ok: false, error: "SecondFactorRefused", reason: "wrong-code" })
    expect(await client.submitSecondFactor({ code: await app.code(), redirect: false })).toMatchObject({ ok: true, url: `${origin}/dashboard`, error: undefined })
    expect(await sessionEmail()).toBe(ada.email)
    expect((await client.regenerateBackupCodes()).ok).toBe(true)
  })
})
