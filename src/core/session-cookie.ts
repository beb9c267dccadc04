import { SessionStore } from "./cookies/session-store.js"
import type { AuthOptions } from "./options.js"
import type { Cookie, JWT } from "../types.js"

/**
 * The session cookie store of this request: its current value (joined from chunks) and how to
 * write or clear it.
 *
 * @example
 * ```ts
 * const store = sessionStoreOf(options)
 * if (!store.value) return { body: null }
 * ```
 */
export function sessionStoreOf(options: AuthOptions): SessionStore {
  return new SessionStore(options.cookies.sessionToken, options.request.cookies)
}

/**
 * Cookies that hold `token` as the session: encrypted with the configured encoder (salt = the
 * session cookie's name), expiring with the session, chunked when large. A `null` token (the `jwt`
 * callback ended the session) clears them instead.
 *
 * @example
 * ```ts
 * cookies.push(...(await writeJwtSession(options, store, token)))
 * ```
 */
export async function writeJwtSession(
  options: AuthOptions,
  store: SessionStore,
  token: JWT | null,
  expires = new Date(Date.now() + options.session.maxAge * 1000),
  maxAge = options.jwt.maxAge,
): Promise<Cookie[]> {
  if (token === null) return store.clear()
  const { jwt } = options
  const value = await jwt.encode({ token, secret: jwt.secret, maxAge, salt: options.cookies.sessionToken.name })
  return store.write(value, { expires })
}
