/**
 * What the model tests of the Password provider's machines share beyond the harness: the memory
 * adapter with the stores a path fails, the password account and signed-in session of the model's
 * user, the configuration of a flow on database sessions, one form posted through `Auth()` with the
 * run checked against the path, the finals every flow shows alike, and the coverage check.
 */
import { expect } from "vitest"
import type { AnyStateMachine } from "xstate"
import type { Adapter } from "../../src/adapters.js"
import type { RateLimitRoute } from "../../src/core/rate-limit/limiter.js"
import type { AuthConfig } from "../../src/types.js"
import { coverageReport } from "../../src/testing/coverage.js"
import type { TransitionRecorder } from "../../src/testing/recorder.js"
import { cookieNames, csrfTokenFor, origin, recordingLogger, send, type CookieJar } from "../helpers.js"
import { modelClientHeaders, rateLimitOf, type FlowEndings } from "./harness.js"
import { linkSecret } from "./password-links.js"

/** A fault of an adapter method: the error it throws, or `false` for none; a function is asked at each call. */
export type Fault = Error | false | undefined | (() => Error | false | undefined)

/**
 * The adapter `memory` with each method named in `faults` throwing its fault's error (rejecting,
 * as an async method does) while it has one, and otherwise answering as `memory` does.
 */
export function faultyAdapter(memory: Adapter, faults: { [K in keyof Adapter]?: Fault }): Adapter {
  const adapter: Record<string, unknown> = { ...memory }
  for (const [name, fault] of Object.entries(faults) as [keyof Adapter, Fault][]) {
    const method = memory[name] as (...args: unknown[]) => unknown
    adapter[name] = async (...args: unknown[]) => {
      const error = typeof fault === "function" ? fault() : fault
      if (error) throw error
      return method.apply(memory, args)
    }
  }
  return adapter as Adapter
}

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
  csrfValid: boolean
}

/**
 * Posts the scenario's form (with the CSRF token where it is valid) to `route` in one request, and
 * checks that the flow ran the path's states and ended, answering a redirect.
 */
export async function postForm(s: FormScenario, path: { states: readonly string[] }, endings: FlowEndings, route: string, jar: CookieJar) {
  const { logger, errors } = recordingLogger()
  const config = { ...s.config, logger }
  const csrfToken = await csrfTokenFor(config, jar)
  endings.reset()
  const response = await send({ ...config, inspect: endings.inspect }, jar, route, { form: { ...(s.csrfValid && { csrfToken }), ...s.form }, headers: modelClientHeaders })
  expect(endings.recorder.runs.map((run) => run.states)).toEqual([path.states])
  expect(endings.statuses).toEqual(["done"])
  expect(response.status).toBe(302)
  return { response, location: response.headers.get("location"), errors }
}

/**
 * What the finals every flow shows alike show: `rateLimited` sends the browser to the sign-in page
 * with the wait, and each state of `failed` to the error page with `Configuration`, an error
 * logged. Whether `state` is one of them.
 */
export function expectSharedFinal(state: string, location: string | null, errors: readonly unknown[], failed: readonly string[]): boolean {
  if (state === "rateLimited") {
    expect(location).toMatch(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`))
    return true
  }
  if (!failed.includes(state)) return false
  expect(location).toBe(`${origin}/auth/error?error=Configuration`)
  expect(errors.length).toBeGreaterThan(0)
  return true
}

/**
 * Checks that the paths took every transition of `machine` the recorder saw but the `unreachable`
 * ones (each with its reason), and none of those, after logging the count as `name`.
 */
export function expectFullCoverage(name: string, machine: AnyStateMachine, recorder: TransitionRecorder, paths: number, unreachable: ReadonlyMap<string, string> = new Map()): void {
  const { line, missing } = coverageReport(machine, recorder)
  console.log(`${name}: ${paths} paths;`, line)
  expect(missing.filter((key) => !unreachable.has(key)), `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  if (unreachable.size > 0) expect(missing.filter((key) => unreachable.has(key))).toEqual([...unreachable.keys()])
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
