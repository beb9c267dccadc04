import { Auth } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import { defaultCookies } from "../src/core/cookies/defaults.js"
import { CookieJar, buildRequest, type RequestOptions } from "../src/testing/cookie-jar.js"
import type { AuthConfig } from "../src/types.js"
import type { CookiesOptions } from "../src/base-types.js"

/** The one cookie jar and request builder of every test: the kit's own (src/testing/cookie-jar.ts). */
export { CookieJar, buildRequest, type RequestOptions }

export const origin = "https://app.test"
export const basePath = "/auth"

/** The default cookies' names, by the engine's key, as `defaultCookies` names them. */
export type CookieNames = Record<keyof CookiesOptions, string>

const namesOf = (secure: boolean): CookieNames =>
  Object.fromEntries(Object.entries(defaultCookies(secure)).map(([key, cookie]) => [key, cookie.name])) as CookieNames

/**
 * The names of the engine's cookies, read from src/core/cookies/defaults.ts so that a rename is one
 * edit there: `https` as an app served over HTTPS names them (`__Secure-` and `__Host-` prefixes),
 * `http` without the prefixes. `test/core/cookies.test.ts` and `test/wire/cookies.test.ts` write the
 * wire names out, to pin them to Auth.js's.
 */
export const cookieNames = { https: namesOf(true), http: namesOf(false) } as const

/** Sends a request through `Auth()` as a browser with `jar` would, and stores the cookies it sets. */
export async function send(config: AuthConfig, jar: CookieJar, path: string, init: RequestOptions & { method?: "GET" | "POST" } = {}): Promise<Response> {
  const url = path.startsWith("http") ? path : `${origin}${basePath}${path}`
  const response = await Auth(buildRequest(url, init, jar), config)
  jar.take(response)
  return response
}

/** GET /csrf and return the token (the jar keeps the cookie). */
export async function csrfTokenFor(config: AuthConfig, jar: CookieJar): Promise<string> {
  const response = await send(config, jar, "/csrf")
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  return csrfToken
}

/** Ada Lovelace, as the credentials provider of {@link adaCredentials} signs her in. */
export const ada = { id: "1", name: "Ada Lovelace", email: "ada@example.test" }

/** A credentials provider that signs in `ada` with the password `lovelace`, and no one else. */
export function adaCredentials() {
  return Credentials({
    credentials: { username: {}, password: {} },
    authorize: ({ username, password }) => (username === "ada" && password === "lovelace" ? ada : null),
  })
}

/** A logger that records instead of printing. */
export function recordingLogger() {
  const errors: Error[] = []
  const warnings: string[] = []
  return {
    errors,
    warnings,
    logger: { error: (e: Error) => void errors.push(e), warn: (code: string) => void warnings.push(code), debug: () => {} },
  }
}
