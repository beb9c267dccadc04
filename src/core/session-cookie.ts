import { SessionStore } from "./cookies/session-store.js"
import type { AuthOptions } from "./options.js"
import type { Awaitable, Cookie, JWT } from "../types.js"

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
 * The JWT the session cookie holds: the first of the store's candidates ({@link SessionStore.candidates}:
 * the whole cookie, then the chunks from `.0`) that the configured decoder accepts, so a chunk cookie
 * planted beside a valid session is ignored rather than mixed into it. `null` when there is no
 * candidate or the decoder returned `null` for every one; when none decodes and one threw, that
 * (first) error is thrown. One decode in the common case: a single whole cookie.
 *
 * @example
 * ```ts
 * const payload = await decodeSessionCookie(options, sessionStoreOf(options)) // JWT | null
 * ```
 */
export function decodeSessionCookie(options: AuthOptions, store: SessionStore): Awaitable<JWT | null> {
  const candidates = store.candidates()
  const { jwt } = options
  // The common case, a single candidate: the decoder's own answer, without another async frame.
  if (candidates.length === 1) return jwt.decode({ token: candidates[0], secret: jwt.secret, salt: options.cookies.sessionToken.name })
  return firstDecoded(options, candidates)
}

async function firstDecoded(options: AuthOptions, candidates: readonly string[]): Promise<JWT | null> {
  const { jwt } = options
  const salt = options.cookies.sessionToken.name
  let failure: { error: unknown } | undefined
  for (const token of candidates) {
    try {
      const payload = await jwt.decode({ token, secret: jwt.secret, salt })
      if (payload) return payload
    } catch (error) {
      failure ??= { error }
    }
  }
  if (failure) throw failure.error
  return null
}

/**
 * Cookies that hold `token` as the session: encrypted with the configured encoder (salt = the
 * session cookie's name), expiring with the session, chunked when large. A `null` token (the `jwt`
 * callback ended the session) clears them instead.
 *
 * @example
 * ```ts
 * const written = await writeJwtSession(options, store, token) // the session cookie, whole or in chunks
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
