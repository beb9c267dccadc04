/**
 * Ending a user's sessions when their password changes (`endOtherSessions`): database sessions are
 * deleted (the adapter's `deleteUserSessions`); JWT sessions cannot be deleted, so the change is
 * recorded in the revocation store (`user:<id>`, the moment of the change) and a session signed in
 * before it is refused when next read. A change made from a session keeps that one: it is issued
 * again, after the moment of the change. And finding who is signed in, for the signed-in flows.
 *
 * @module
 */
import { revocationStoreOf } from "../../core/revocation-store.js"
import { decodeSessionCookie, sessionStoreOf, writeJwtSession } from "../../core/session-cookie.js"
import { databaseToken, metaOfDatabaseToken, metaOfToken, sessionMetaClaim } from "../../core/session-lifetime.js"
import type { SessionsEndEvent } from "../../machines/password-reset.js"
import type { SessionUserEvent } from "../../machines/password-session.js"
import { sessionUser } from "../second-factor/session-user.js"
import type { AuthOptions } from "../../core/options.js"
import type { Reported } from "../../machines/run-flow.js"

async function revokeUser(options: AuthOptions, userId: string, at: number): Promise<void> {
  // Remembered as long as a session signed in before it could still be read.
  const keepUntil = at + (options.session.absoluteMaxAge ?? options.session.maxAge) * 1000
  await revocationStoreOf(options.config).revoke(`user:${userId}`, at, keepUntil)
}

/**
 * Ends every session of `userId` (a reset: it was not made from a session). Reports, never throws.
 *
 * @example
 * ```ts
 * await endUserSessions(options, user.id) // { type: "sessions.ended" }
 * ```
 */
export async function endUserSessions(options: AuthOptions, userId: string): Promise<SessionsEndEvent> {
  try {
    if (options.session.strategy === "jwt") await revokeUser(options, userId, Date.now())
    else await options.adapter!.deleteUserSessions!(userId)
    return { type: "sessions.ended" }
  } catch (error) {
    return { type: "sessions.failed", error }
  }
}

/**
 * Ends every session of `userId` but this request's, which is issued again (its cookies reported
 * with the event): a JWT with its sign-in recorded at the change, a database session under a new
 * token with the same expiry and sign-in time. Reports, never throws.
 *
 * @example
 * ```ts
 * await endOtherUserSessions(options, user.id) // { type: "sessions.ended", cookies: [the session cookie, issued again] }
 * ```
 */
export async function endOtherUserSessions(options: AuthOptions, userId: string): Promise<Reported<SessionsEndEvent>> {
  try {
    const store = sessionStoreOf(options)
    const now = Date.now()
    if (options.session.strategy === "jwt") {
      const token = await decodeSessionCookie(options, store)
      await revokeUser(options, userId, now)
      // Signed in again, in effect: the current password was typed. Not before the revocation, so it is kept.
      if (!token) return { type: "sessions.ended" }
      return { type: "sessions.ended", cookies: await writeJwtSession(options, store, { ...token, [sessionMetaClaim]: { ...metaOfToken(token), signedInAt: now } }) }
    }
    const adapter = options.adapter!
    const current = store.value ? await adapter.getSessionAndUser!(store.value) : null
    await adapter.deleteUserSessions!(userId)
    if (!current || current.user.id !== userId) return { type: "sessions.ended" }
    const meta = options.session.recordsSignIn ? (metaOfDatabaseToken(current.session.sessionToken) ?? { signedInAt: now }) : undefined
    const generated = options.session.generateSessionToken()
    const sessionToken = meta ? databaseToken(generated, meta) : generated
    const session = await adapter.createSession!({ sessionToken, userId, expires: current.session.expires })
    return { type: "sessions.ended", cookies: store.write(session.sessionToken, { expires: session.expires }) }
  } catch (error) {
    return { type: "sessions.failed", error }
  }
}

/**
 * The `findSessionUser` effect of the signed-in Password flows (change the password, change the
 * address): the signed-in user with the address their account has now (a JWT carries the one it
 * was issued with), nobody (no session, or no address), or the failure.
 *
 * @example
 * ```ts
 * const effects = { findSessionUser: () => findSessionUser(options) }
 * ```
 */
export async function findSessionUser(options: AuthOptions): Promise<SessionUserEvent> {
  try {
    const signedIn = await sessionUser(options)
    const user = signedIn && (await options.adapter!.getUser!(signedIn.id))
    return user && typeof user.email === "string" ? { type: "session.user", user: { id: user.id, email: user.email } } : { type: "session.none" }
  } catch (error) {
    return { type: "session.failed", error }
  }
}
