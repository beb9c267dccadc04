/**
 * Managing second factors through `Auth()` at `/factors`, signed in: enrol an authenticator app
 * (active only after one right code, with backup codes shown once), then sign in with it; rename;
 * remove (the last one only with a code from it); new backup codes; and the refusals.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { totpFromUri } from "../../src/testing/index.js"
import { ada, adaCredentials, CookieJar, cookieNames, csrfTokenFor, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

const secret = "factors-test-secret-at-least-32-characters"
const names = cookieNames.https

async function world(strategy: "jwt" | "database") {
  const adapter = MemoryAdapter()
  await adapter.createUser({ ...ada, emailVerified: null })
  const config: AuthConfig = { secret, trustHost: true, adapter, session: { strategy }, providers: [adaCredentials()], secondFactor: { issuer: "Example" } }
  return { adapter, config }
}

async function signIn(config: AuthConfig, jar: CookieJar) {
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: "lovelace", callbackUrl: "https://app.test/" } })
}

async function post(config: AuthConfig, jar: CookieJar, body: Record<string, string>) {
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, "/factors", { json: { csrfToken, ...body } })
}

async function list(config: AuthConfig, jar: CookieJar) {
  return (await send(config, jar, "/factors", { headers: { accept: "application/json" } })).json() as Promise<{ factors: { id: string; name: string }[]; backupCodes: number }>
}

describe.each(["jwt", "database"] as const)("/factors with %s sessions", (strategy) => {
  it("enrols an app only after a right code, shows backup codes once, and the next sign-in asks for the app", async () => {
    const { config, adapter } = await world(strategy)
    const jar = new CookieJar()
    expect((await signIn(config, jar)).headers.get("location")).toBe("https://app.test/")
    expect(await list(config, jar)).toEqual({ factors: [], backupCodes: 0 })

    const started = await post(config, jar, { action: "enrol" })
    expect(started.status).toBe(200)
    const { otpauthUri } = (await started.json()) as { otpauthUri: string; secret: string }
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Example:ada%40example\.test\?/)
    expect(jar.get(names.secondFactor)).toBeDefined()
    const app = totpFromUri(otpauthUri)

    const wrong = await post(config, jar, { action: "confirm", code: "000000" })
    expect(wrong.status).toBe(400)
    expect(await adapter.listFactorsByUserId(ada.id)).toEqual([])

    const confirmed = await post(config, jar, { action: "confirm", code: await app.code(), name: "Phone" })
    expect(confirmed.status).toBe(200)
    const { factor, backupCodes } = (await confirmed.json()) as { factor: { name: string }; backupCodes: string[] }
    expect(factor.name).toBe("Phone")
    expect(backupCodes).toHaveLength(10)
    expect(new Set(backupCodes).size).toBe(10)
    expect(await adapter.countBackupCodes(ada.id)).toBe(10)
    expect(jar.get(names.secondFactor)).toBeUndefined()

    const next = new CookieJar()
    expect(new URL((await signIn(config, next)).headers.get("location")!).pathname).toBe("/auth/second-factor")
    const csrfToken = await csrfTokenFor(config, next)
    const passed = await send(config, next, "/second-factor", { form: { csrfToken, method: "backup", code: backupCodes[0]! } })
    expect(passed.headers.get("location")).toBe("https://app.test/")
  })

  it("renames and removes an app; the last one goes only with a current code from it", async () => {
    const { config } = await world(strategy)
    const jar = new CookieJar()
    await signIn(config, jar)
    const app = totpFromUri(((await (await post(config, jar, { action: "enrol" })).json()) as { otpauthUri: string }).otpauthUri)
    await post(config, jar, { action: "confirm", code: await app.code() })
    const { id } = (await list(config, jar)).factors[0]!

    expect((await post(config, jar, { action: "rename", factorId: id, name: "  Work phone  " })).status).toBe(200)
    expect((await list(config, jar)).factors[0]!.name).toBe("Work phone")
    expect((await post(config, jar, { action: "rename", factorId: "someone-elses", name: "x" })).status).toBe(404)

    expect((await post(config, jar, { action: "remove", factorId: id, code: "000000" })).status).toBe(403)
    expect((await list(config, jar)).factors).toHaveLength(1)
    // The enrolment used the current code: removing waits for the next one.
    expect((await post(config, jar, { action: "remove", factorId: id, code: await app.code(Date.now() + 30_000) })).status).toBe(200)
    expect((await list(config, jar)).factors).toEqual([])
  })

  it("makes new backup codes, which replace the old ones", async () => {
    const { config, adapter } = await world(strategy)
    const jar = new CookieJar()
    await signIn(config, jar)
    const first = ((await (await post(config, jar, { action: "regenerate" })).json()) as { backupCodes: string[] }).backupCodes
    const second = ((await (await post(config, jar, { action: "regenerate" })).json()) as { backupCodes: string[] }).backupCodes
    expect(first.some((code) => second.includes(code))).toBe(false)
    expect(await adapter.countBackupCodes(ada.id)).toBe(10)
  })

  it("refuses without a session, without a CSRF token, an unknown action, and a confirmation sent twice", async () => {
    const { config } = await world(strategy)
    const outsider = new CookieJar()
    expect((await post(config, outsider, { action: "enrol" })).status).toBe(401)
    expect((await send(config, outsider, "/factors")).headers.get("location")).toBe("https://app.test/auth/signin?callbackUrl=https%3A%2F%2Fapp.test%2Fauth%2Ffactors")

    const jar = new CookieJar()
    await signIn(config, jar)
    expect((await send(config, jar, "/factors", { json: { action: "enrol" } })).headers.get("location")).toContain("error=MissingCSRF")
    expect((await post(config, jar, { action: "format-disk" })).status).toBe(400)

    const app = totpFromUri(((await (await post(config, jar, { action: "enrol" })).json()) as { otpauthUri: string }).otpauthUri)
    const copy = new CookieJar()
    for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
    expect((await post(config, jar, { action: "confirm", code: await app.code() })).status).toBe(200)
    const copied = await post(config, copy, { action: "confirm", code: await app.code() })
    expect(copied.status).toBe(409)
    expect(await copied.json()).toEqual({ error: "enrolment-ended" })
  })

  it("serves the pages: the list, the QR code with the key, the backup codes", async () => {
    const { config } = await world(strategy)
    const jar = new CookieJar()
    await signIn(config, jar)
    const listPage = await (await send(config, jar, "/factors")).text()
    expect(listPage).toContain("Add an authenticator app")
    const csrfToken = await csrfTokenFor(config, jar)
    const enrolPage = await (await send(config, jar, "/factors", { form: { csrfToken, action: "enrol" } })).text()
    expect(enrolPage).toContain("<svg")
    const key = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(enrolPage)![1]!.replaceAll(" ", "")
    const app = totpFromUri(`otpauth://totp/Example:ada?secret=${key}&issuer=Example`)
    const codesPage = await (await send(config, jar, "/factors", { form: { csrfToken, action: "confirm", code: await app.code() } })).text()
    expect(codesPage.match(/<li><code>[a-z0-9-]+<\/code><\/li>/g)).toHaveLength(10)
  })
})

it("/factors is an unknown action while second factors are off", async () => {
  const { config } = await world("jwt")
  const off = { ...config, secondFactor: false }
  const jar = new CookieJar()
  expect((await send(off, jar, "/factors")).headers.get("location")).toContain("error=Configuration")
})
