import { SessionTokenError } from "../core/errors.js"
import { emitEvent } from "../core/events.js"
import { metaOfDatabaseToken, sessionLife } from "../core/session-lifetime.js"
import { asError } from "../core/as-error.js"
import { refreshesAny, revoked, sessionRefresh, withRefreshError, type SessionRead } from "./session-read.js"
import type { AuthOptions } from "../core/options.js"
import type { SessionStore } from "../core/cookies/session-store.js"
import type { Cookie, JWT, Session } from "../types.js"

/**
 * The session of a `strategy: "database"` configuration: the session cookie's id looked up through
 * the adapter, ended when expired or revoked, its expiry extended past `updateAge`, the `session`
 * callback's answer returned, its cookie issued again. Loaded by the first such read: a JWT-only app
 * never loads it.
 *
 * @example
 * ```ts
 * const { body, cookies } = await databaseSession(options, sessionStoreOf(options), undefined)
 * ```
 */
export async function databaseSession(options: AuthOptions, store: SessionStore, update: { data: unknown } | undefined): Promise<SessionRead> {
  const adapter = options.adapter!
  // What is found before a failure is answered with it: the session read, its cookie issued again.
  let body: Session | null = null
  let written: Cookie[] = []
  try {
    // The whole cookie first, then the chunks (session ids are never chunked, so no shorter runs):
    // a chunk planted beside the real cookie is not looked up in its place.
    let sessionToken = ""
    let found: Awaited<ReturnType<NonNullable<typeof adapter.getSessionAndUser>>> = null
    for (const candidate of store.candidates(false)) {
      found = await adapter.getSessionAndUser!((sessionToken = candidate))
      if (found) break
    }
    const now = Date.now()
    const recorded = options.session.recordsSignIn ? metaOfDatabaseToken(sessionToken) : undefined
    const life = found ? sessionLife(options.session, recorded, now, found.session.expires) : undefined
    const ended = found && (found.session.expires.valueOf() < now || !life!.alive || (await revoked(options, found.user.id, recorded)))
    if (ended) await adapter.deleteSession!(sessionToken)
    if (!found || ended) return { body: null, cookies: store.clear() }
    const { session, user } = found
    const { maxAge, updateAge } = options.session
    const newExpires = life!.expires
    if (session.expires.valueOf() - maxAge * 1000 + updateAge * 1000 <= now) {
      await adapter.updateSession!({ sessionToken, expires: newExpires })
    }
    const refresh = refreshesAny(options) ? await (await sessionRefresh()).refreshSessionTokens(options, { userId: user.id }) : undefined
    body = await withRefreshError((await options.callbacks.session({
      // The row goes to the callback as it is (a Date `expires`), as Auth.js passes it.
      session: { ...session, user } as unknown as Session,
      user,
      // Needed, like the row's cast: the public type says `token: JWT` (as Auth.js's does), and a database session has none.
      token: undefined as unknown as JWT,
      ...(update && { newSession: update.data, trigger: "update" as const }),
    })) as Session, refresh)
    written = store.write(sessionToken, { expires: newExpires })
    await emitEvent(options.config, options.logger, "session", { session: body })
  } catch (error) {
    options.logger.error(new SessionTokenError(asError(error)))
  }
  return { body, cookies: written }
}
