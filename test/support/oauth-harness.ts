/**
 * An app with one OpenID Connect provider (the in-memory stand-in) and a memory database, and a
 * browser's steps through its OAuth sign-in, for the attacks of the security tests.
 */
import { expect } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { CookieJar, cookieNames, csrfTokenFor, recordingLogger, send } from "../helpers.js"
import { opProvider, standInOP } from "./oauth-stand-in.js"
import type { StandInProvider } from "../../src/testing/stand-in.js"
import type { AuthConfig } from "../../src/types.js"

export const flowCookie = cookieNames.https.flow
export const bindingCookie = cookieNames.https.flowBinding
export const sessionCookie = cookieNames.https.sessionToken

/** A deployment: its config, its database, its provider and what it logged. */
export function oauthApp(overrides: Partial<AuthConfig> = {}, op = standInOP()) {
  const memory = MemoryAdapter()
  const { logger, errors } = recordingLogger()
  const config: AuthConfig = {
    secret: "security-test-secret",
    trustHost: true,
    providers: [opProvider(op)],
    adapter: memory,
    logger,
    ...overrides,
  }
  return { config, memory, op, errors }
}

/** POST `/signin/op` from `jar`'s browser (at `url`): the provider's authorization URL. */
export async function startSignIn(config: AuthConfig, jar: CookieJar, url = "https://app.test/auth/signin/op"): Promise<URL> {
  const csrfToken = await csrfTokenFor(config, jar)
  const response = await send(config, jar, url, { form: { csrfToken } })
  expect(response.status).toBe(302)
  return new URL(response.headers.get("location")!)
}

/** The provider's redirect back to the app after `subject` consented: the callback URL. */
export function consent(op: StandInProvider, authorizationUrl: URL, subject?: string): string {
  const redirectUri = new URL(authorizationUrl.searchParams.get("redirect_uri")!)
  redirectUri.search = op.redirectBack(authorizationUrl, { subject }).toString()
  return redirectUri.href
}

/** The user a browser's session belongs to, read through GET /session. */
export async function sessionUserOf(config: AuthConfig, jar: CookieJar): Promise<{ name?: string; email?: string } | null> {
  const session = (await (await send(config, jar, "/session")).json()) as { user?: { name?: string; email?: string } } | null
  return session?.user ?? null
}

/** The cause a refused callback logged, and that the browser landed on the sign-in page with an error. */
export function refusedWith(response: Response, errors: Error[]): Error {
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toMatch(/\/auth\/signin\?error=OAuth(CallbackError|AccountNotLinked)/)
  const last = errors.at(-1)!
  return ((last.cause as { err?: Error } | undefined)?.err ?? last) as Error
}
