/**
 * What the model tests of the Password provider's machines share beyond the harness: the answers of
 * a reset's own steps, a password write another change races, the password account and signed-in
 * session of the model's user, the configuration of a flow on database sessions, one form posted (or
 * one link opened) through `Auth()` with the run checked against the path, and the finals of the
 * signed-in forms and of the links.
 */
import { expect } from "vitest"
import type { Adapter } from "../../src/adapters.js"
import type { RateLimitRoute } from "../../src/core/rate-limit/limiter.js"
import type { AuthConfig } from "../../src/types.js"
import type { NewPasswordEvent } from "../../src/machines/password-reset.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { modelClientHeaders, rateLimitOf, type FlowEndings } from "./harness.js"
import { linkSecret } from "./password-links.js"

/** The error of a store that is down: `down("user store")` says "user store down". */
export const down = (what: string) => new Error(`${what} down`)

/**
 * What a reset's own steps can meet once its link or code checked out: the account as it was,
 * verified meanwhile, or its password changed meanwhile; the user store failing; the new password
 * good or refused; the write, the verification mark, the sessions and the notice failing.
 */
export const resetStepEvents: NewPasswordEvent[] = [
  { type: "account.found", bound: true, verified: false },
  { type: "account.found", bound: true, verified: true },
  { type: "account.found", bound: false, verified: false },
  { type: "lookup.failed", error: down("user store") },
  { type: "newPassword.read" },
  { type: "newPassword.read", problem: "too-short" },
  { type: "write.failed", error: down("account store") },
  { type: "verify.failed", error: down("user update") },
  { type: "sessions.failed", error: down("session store") },
  { type: "mail.failed", error: down("SMTP") },
]

/**
 * An `updateAccountTokens` that throws `fault` where there is one, and where `raced` lets another
 * change of the password land first (the compare-and-set then loses).
 */
export function racedTokenWrite(memory: Adapter, fault: Error | false, raced: boolean): Adapter["updateAccountTokens"] {
  return async (account, expected, tokens) => {
    if (fault) throw fault
    if (raced) await memory.updateAccountTokens!(account, expected, { refresh_token: "$scrypt$raced" })
    return memory.updateAccountTokens!(account, expected, tokens)
  }
}

/** Links the Password provider's account of `userId`, its hash `hash`. */
export function linkPasswordAccount(memory: Adapter, userId: string, hash: string) {
  return memory.linkAccount!({ userId, type: "credentials" as never, provider: "password", providerAccountId: userId, refresh_token: hash })
}

/** Signs `userId` in with the database session `sessionToken`, its cookie in `jar`. */
export async function signInSession(memory: Adapter, jar: CookieJar, userId: string, sessionToken: string): Promise<void> {
  await memory.createSession!({ sessionToken, userId, expires: new Date(Date.now() + 3600_000) })
  jar.cookies.set(cookieNames.https.sessionToken, sessionToken)
}

/** The configuration of a Password flow on database sessions, limited on `route` as the path's events say. */
export function databaseConfig(adapter: Adapter, events: readonly { type: string }[], route: RateLimitRoute, providers: AuthConfig["providers"]): AuthConfig {
  return { secret: linkSecret, trustHost: true, adapter, session: { strategy: "database" }, ...rateLimitOf(events, route), providers }
}

/** A path's scenario as {@link postForm} drives it. */
export interface FormScenario {
  config: AuthConfig
  form: Record<string, string>
  /** Fields that make the body JSON, sent beside the form's (a field that is not a string can only be sent so). */
  json?: Record<string, unknown>
  csrfValid: boolean
}

/**
 * Posts the scenario's form (with the CSRF token where it is valid; as JSON where the scenario has
 * JSON fields) to `route` in one request, and
 * checks that the flow ran the path's states and ended, answering a redirect.
 */
export async function postForm(s: FormScenario, path: { states: readonly string[] }, endings: FlowEndings, route: string, jar: CookieJar) {
  const { logger, errors } = recordingLogger()
  const config = { ...s.config, logger }
  const csrfToken = await csrfTokenFor(config, jar)
  endings.reset()
  const fields = { ...(s.csrfValid && { csrfToken }), ...s.form }
  const body = s.json ? { json: { ...fields, ...s.json } } : { form: fields }
  const response = await send({ ...config, inspect: endings.inspect }, jar, route, { ...body, headers: modelClientHeaders })
  expect(endings.recorder.runs.map((run) => run.states)).toEqual([path.states])
  expect(endings.statuses).toEqual(["done"])
  expect(response.status).toBe(302)
  return { response, location: response.headers.get("location"), errors }
}

/**
 * Opens the link `route` in a browser of its own, in one request, and checks that the flow ran the
 * path's states and ended, answering a redirect.
 */
export async function openLink(config: AuthConfig, path: { states: readonly string[] }, endings: FlowEndings, route: string) {
  const { logger, errors } = recordingLogger()
  endings.reset()
  const response = await send({ ...config, logger, inspect: endings.inspect }, new CookieJar(), route)
  expect(endings.recorder.runs.map((run) => run.states)).toEqual([path.states])
  expect(endings.statuses).toEqual(["done"])
  expect(response.status).toBe(302)
  return { response, location: response.headers.get("location"), errors }
}

/**
 * What the finals of a mailed link show alike: a link missing, tampered with or stale (its address
 * or password changed since) sends the browser to the sign-in page with `PasswordLinkInvalid`, an
 * expired one with `PasswordLinkExpired`. Whether `state` is one of them.
 */
export function expectLinkFinal(state: string, location: string | null): boolean {
  if (state !== "linkMissing" && state !== "linkInvalid" && state !== "linkStale" && state !== "linkExpired") return false
  expect(location).toBe(`${origin}/auth/signin?error=${state === "linkExpired" ? "PasswordLinkExpired" : "PasswordLinkInvalid"}`)
  return true
}

/**
 * What the finals of a signed-in form (change password, change email) at `route` show alike: no
 * CSRF token, nobody signed in (to sign in, and back), a wrong password, no password account; each
 * sends the browser back to the form with its error. Whether `state` is one of them.
 */
export function expectSignedInFormFinal(state: string, location: string | null, route: string): boolean {
  const page = (query: Record<string, string>) => `${origin}/auth${route}?${new URLSearchParams(query)}`
  const expected: Record<string, string> = {
    csrfRejected: page({ error: "MissingCSRF" }),
    signInRequired: `${origin}/auth/signin?${new URLSearchParams({ callbackUrl: `${origin}/auth${route}` })}`,
    passwordRejected: page({ error: "CredentialsSignin" }),
    noPasswordAccount: page({ error: "NoPassword" }),
  }
  if (!(state in expected)) return false
  expect(location).toBe(expected[state])
  return true
}
