/**
 * The browser's other signed-in accounts (`multiSession`): the sealed, chunked `other-sessions`
 * cookie that holds them, and what one session token says of its account. The active account stays
 * in the session cookie; these effects read and write beside it and report to the multi-session
 * machine, which decides.
 *
 * @module
 */
import { decode, encode } from "../../core/jwt/index.js"
import { SessionStore } from "../../core/cookies/session-store.js"
import { sessionStoreOf } from "../../core/session-cookie.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, JWT } from "../../types.js"

/** One other account: its session (a JWT, or a database session token), its user's id, and when it was kept. */
export interface OtherSession {
  /** The session token, as the session cookie held it. */
  t: string
  /** The user's id (`sub` of a JWT, the row's `userId`), when known. */
  u?: string
  /** When it left the active place (ms): the oldest drops first. */
  a: number
}

/** A signed-in session as read from its token: whose it is and until when. */
export interface ReadSession {
  token: string
  userId?: string
  expires: Date
  /** The JWT's claims (JWT sessions), for `events.signOut`. */
  payload?: JWT
}

/** The others cookie's store for this request. */
function othersStore(options: AuthOptions): SessionStore {
  return new SessionStore(options.cookies.otherSessions, options.request.cookies)
}

/**
 * The other accounts this request's cookie holds, newest first: empty when there is none, or when
 * it does not unseal (tampered, planted, sealed with another secret, expired).
 *
 * @example
 * ```ts
 * const others = await readOthers(options) // [{ t: "eyJ…", u: "u2", a: 1767225600000 }]
 * ```
 */
export async function readOthers(options: AuthOptions): Promise<OtherSession[]> {
  const { name } = options.cookies.otherSessions
  for (const candidate of othersStore(options).candidates()) {
    try {
      const payload = await decode<{ o?: unknown }>({ token: candidate, secret: options.secret, salt: name })
      if (payload && Array.isArray(payload.o)) return payload.o.filter(isOtherSession)
    } catch {
      // not ours: the next candidate, or none
    }
  }
  return []
}

function isOtherSession(value: unknown): value is OtherSession {
  const entry = value as Partial<OtherSession> | null
  return typeof entry === "object" && entry !== null && typeof entry.t === "string" && entry.t !== "" && typeof entry.a === "number" && (entry.u === undefined || typeof entry.u === "string")
}

/**
 * The cookies that hold `others` (sealed with the secret, salt = the cookie's name, chunked above
 * 4 KB, living as long as a session), or that clear the cookie when there are none.
 *
 * @example
 * ```ts
 * const written = await writeOthers(options, others)
 * ```
 */
export async function writeOthers(options: AuthOptions, others: readonly OtherSession[]): Promise<Cookie[]> {
  const store = othersStore(options)
  if (!others.length) return store.clear()
  const { name } = options.cookies.otherSessions
  const maxAge = options.session.maxAge
  const value = await encode({ token: { o: others } as never, secret: options.secret, salt: name, maxAge })
  return store.write(value, { expires: new Date(Date.now() + maxAge * 1000) })
}

/**
 * The session a token holds, when it is alive: a JWT that decodes (with the configured decoder,
 * salt = the session cookie's name), or a database session that exists and has not expired.
 * `null` otherwise.
 *
 * @example
 * ```ts
 * const session = await readSessionToken(options, other.t) // { token, userId: "u2", expires } | null
 * ```
 */
export async function readSessionToken(options: AuthOptions, token: string): Promise<ReadSession | null> {
  if (options.session.strategy === "jwt") {
    const { jwt } = options
    try {
      const payload = await jwt.decode({ token, secret: jwt.secret, salt: options.cookies.sessionToken.name })
      if (!payload) return null
      const expires = new Date(typeof payload.exp === "number" ? payload.exp * 1000 : Date.now() + options.session.maxAge * 1000)
      return { token, expires, payload, ...(typeof payload.sub === "string" && { userId: payload.sub }) }
    } catch {
      return null
    }
  }
  const found = await options.adapter!.getSessionAndUser!(token)
  if (!found || found.session.expires.valueOf() < Date.now()) return null
  return { token, userId: found.user.id, expires: found.session.expires }
}

/**
 * The active session of this request (the first of the session cookie's candidates that reads as
 * alive), or `null`.
 *
 * @example
 * ```ts
 * const active = await readActive(options)
 * ```
 */
export async function readActive(options: AuthOptions): Promise<ReadSession | null> {
  for (const candidate of sessionStoreOf(options).candidates(options.session.strategy === "jwt")) {
    const session = await readSessionToken(options, candidate)
    if (session) return session
  }
  return null
}

/**
 * The id an account is named by in the listing and in `account`: its user's id, or `#<index>` for
 * a session that names no user.
 *
 * @example
 * ```ts
 * accountId({ t: "…", u: "u2", a: 0 }, 0) // "u2"
 * ```
 */
export function accountId(other: OtherSession, index: number): string {
  return other.u ?? `#${index}`
}

/**
 * Cookies that make `session` the active one: the session cookie set to its token (chunked like
 * any session), every stale chunk cleared.
 *
 * @example
 * ```ts
 * const written = activate(options, { token, expires })
 * ```
 */
export function activate(options: AuthOptions, session: { token: string; expires: Date }): Cookie[] {
  return sessionStoreOf(options).write(session.token, { expires: session.expires })
}

/**
 * Ends one other account: a database session is deleted; `events.signOut` fires with what ended
 * (the JWT's claims, or the deleted row).
 *
 * @example
 * ```ts
 * await endSession(options, other.t)
 * ```
 */
export async function endSession(options: AuthOptions, token: string): Promise<void> {
  const { emitEvent } = await import("../../core/events.js")
  if (options.session.strategy === "jwt") {
    const read = await readSessionToken(options, token)
    await emitEvent(options.config, options.logger, "signOut", { token: read?.payload ?? null })
    return
  }
  const session = await options.adapter!.deleteSession!(token)
  await emitEvent(options.config, options.logger, "signOut", { session })
}

/** `cookies` less the ones that `later` sets again (a clearing followed by a write of the same name). */
export function withoutOverwritten(cookies: readonly Cookie[], later: readonly Cookie[]): Cookie[] {
  const names = new Set(later.map((cookie) => cookie.name))
  return cookies.filter((cookie) => !names.has(cookie.name))
}
