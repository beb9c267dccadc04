/**
 * One walk through the server-side second factors, shared by the four wrappers' tests: signed out
 * first, then signed in, enrol an authenticator app, confirm it with a code from the kit's
 * software TOTP, list, rename, make new backup codes, and remove it (the last one needs a code).
 * Each wrapper's test supplies the six functions (with `authflow/client`'s signatures) running
 * through the wrapper on a fake request made from the browser's jar, whose cookie writes go back
 * into that jar.
 */
import { expect } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { serializeCookie } from "../../src/core/cookies/serialize.js"
import type { ServerFactors } from "../../src/frameworks/shared/factors.js"
import { totpFromUri } from "../../src/testing/index.js"
import type { AuthConfig, Cookie } from "../../src/types.js"
import { ada, adaCredentials, buildRequest, CookieJar, cookieNames } from "../helpers.js"

export const factorSecret = "factor-actions-secret-factor-actions-secret"

/** A configuration with second factors on a memory adapter holding ada. */
export async function factorWorld(strategy: "jwt" | "database" = "jwt") {
  const adapter = MemoryAdapter()
  await adapter.createUser({ ...ada, emailVerified: null })
  const config = { secret: factorSecret, trustHost: true, adapter, session: { strategy }, providers: [adaCredentials()], secondFactor: { issuer: "Example" } } satisfies AuthConfig
  return { adapter, config }
}

/** Keeps cookies a framework's cookie API was given, as a browser keeps `Set-Cookie` headers. */
export function keep(jar: CookieJar, cookies: readonly Cookie[]): void {
  jar.take(new Response(null, { headers: cookies.map(({ name, value, options }): [string, string] => ["set-cookie", serializeCookie(name, value, options)]) }))
}

/** Signs ada in with her password through `Auth()` at `<origin><basePath>`; the jar gets the session. */
export async function signInAda(config: Omit<AuthConfig, "raw">, jar: CookieJar, origin: string, basePath: string): Promise<void> {
  // A wrapper completes its configuration in place (SvelteKit sets skipCSRFCheck): sign in as a browser does, with the token.
  const { skipCSRFCheck: _skipped, ...rest } = config
  const at = { ...rest, basePath }
  const csrf = await Auth(buildRequest(`${origin}${basePath}/csrf`, {}, jar), at)
  jar.take(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const form = { csrfToken, username: "ada", password: "lovelace", callbackUrl: `${origin}/` }
  jar.take(await Auth(buildRequest(`${origin}${basePath}/callback/credentials`, { form }, jar), at))
  expect(jar.get(cookieNames.http.sessionToken) ?? jar.get(cookieNames.https.sessionToken)).toBeTruthy()
}

/**
 * The walk. `factors` runs with the cookies `jar` holds at each call; `signIn` puts ada's session
 * in the jar.
 */
export async function enrolAndManage(factors: ServerFactors, jar: CookieJar, signIn: () => Promise<void>, adapter: ReturnType<typeof MemoryAdapter>): Promise<void> {
  const signedOut = { ok: false, error: "signed-out", status: 401 }
  expect(await factors.listFactors()).toEqual(signedOut)
  expect(await factors.enrolAuthenticatorApp()).toEqual(signedOut)

  await signIn()
  // A server call has no callback URL to remember: without one in the jar, none is written.
  for (const name of [...jar.cookies.keys()]) if (name.endsWith("authjs.callback-url")) jar.cookies.delete(name)
  const before = [...jar.cookies.keys()].sort()
  expect(await factors.listFactors()).toEqual({ ok: true, error: undefined, status: 200, factors: [], backupCodes: 0 })
  // The list sets no cookie at all (a Server Component could not write one).
  expect([...jar.cookies.keys()].sort()).toEqual(before)

  const enrolment = await factors.enrolAuthenticatorApp()
  if (!enrolment.ok) throw new Error(`enrolment refused: ${enrolment.error}`)
  expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/Example:ada%40example\.test\?/)
  expect(enrolment.secret).toMatch(/^[A-Z2-7]+$/)
  const enrolmentCookies = [...jar.cookies.keys()].filter((name) => !before.includes(name))
  expect(enrolmentCookies.some((name) => name.endsWith("authflow.second-factor"))).toBe(true)
  expect(enrolmentCookies.some((name) => name.endsWith("authjs.callback-url"))).toBe(false)
  const app = totpFromUri(enrolment.otpauthUri)

  expect(await factors.confirmAuthenticatorApp("000000")).toEqual({ ok: false, error: "wrong-code", status: 400 })
  expect(await adapter.listFactorsByUserId(ada.id)).toEqual([])
  const confirmed = await factors.confirmAuthenticatorApp(await app.code(), { name: "Phone" })
  if (!confirmed.ok) throw new Error(`confirmation refused: ${confirmed.error}`)
  expect(confirmed.factor.name).toBe("Phone")
  expect(confirmed.backupCodes).toHaveLength(10)
  expect([...jar.cookies.keys()].some((name) => name.endsWith("authflow.second-factor"))).toBe(false)
  // The enrolment ended with its confirmation: the same code cannot confirm it again.
  expect(await factors.confirmAuthenticatorApp(await app.code())).toMatchObject({ ok: false, error: "enrolment-ended", status: 409 })

  const listed = await factors.listFactors()
  if (!listed.ok) throw new Error(`list refused: ${listed.error}`)
  expect(listed.factors.map(({ name }) => name)).toEqual(["Phone"])
  expect(listed.backupCodes).toBe(10)
  const { id } = listed.factors[0]!

  expect(await factors.renameFactor(id, "  Work phone  ")).toMatchObject({ ok: true, status: 200 })
  expect(await factors.renameFactor("someone-elses", "Mine now")).toEqual({ ok: false, error: "unknown-factor", status: 404 })
  expect(await factors.listFactors()).toMatchObject({ ok: true, factors: [{ id, name: "Work phone" }] })

  const regenerated = await factors.regenerateBackupCodes()
  if (!regenerated.ok) throw new Error(`regeneration refused: ${regenerated.error}`)
  expect(regenerated.backupCodes).toHaveLength(10)
  expect(regenerated.backupCodes.some((code) => confirmed.backupCodes!.includes(code))).toBe(false)
  expect(await adapter.countBackupCodes(ada.id)).toBe(10)

  expect(await factors.removeFactor(id)).toEqual({ ok: false, error: "removal-refused", status: 403 })
  expect(await factors.removeFactor(id, { code: "000000" })).toEqual({ ok: false, error: "removal-refused", status: 403 })
  // The confirmation used the current step: removing takes the next one.
  expect(await factors.removeFactor(id, { code: await app.code(Date.now() + 30_000) })).toMatchObject({ ok: true, status: 200 })
  expect(await factors.listFactors()).toMatchObject({ ok: true, factors: [] })
}
