/**
 * What the JWT and the database session reads share: whether a provider's tokens are refreshed,
 * the refresh error marked on the session, and whether a back-channel logout ended it.
 * @module
 */
import { revocationKeys, revocationStoreOf } from "../core/revocation-store.js"
import { onFirstUse } from "../core/on-first-use.js"
import { refreshEnabled } from "../core/refresh-options.js"
import type { SessionRefresh } from "./session-refresh.js"
import type { SessionMeta } from "../core/session-lifetime.js"
import type { AuthOptions } from "../core/options.js"
import type { Cookie, Session } from "../types.js"

// The refresh of provider tokens (and the OAuth client it talks with) is loaded by the first
// session read whose configuration refreshes a provider: a configuration that refreshes none never
// loads it.
export const sessionRefresh = /* @__PURE__ */ onFirstUse(() => import("./session-refresh.js"))

/**
 * Whether the configuration refreshes any provider's tokens.
 *
 * @example
 * ```ts
 * const refresh = refreshesAny(options) ? await (await sessionRefresh()).refreshSessionTokens(options, { userId }) : undefined
 * ```
 */
export const refreshesAny = (options: AuthOptions): boolean => options.providers.some((provider) => refreshEnabled(options.config, provider))

/**
 * The session as the `session` callback answered it, marked when a refresh of its tokens failed.
 *
 * @example
 * ```ts
 * body = await withRefreshError(await callbacks.session(params), refresh)
 * ```
 */
export async function withRefreshError(session: Session, refresh: SessionRefresh | undefined): Promise<Session> {
  return refresh?.failed ? (await sessionRefresh()).sessionRefreshError(session, refresh) : session
}

/** What reading the session found, and the cookies it writes: the session issued again, or cleared. */
export interface SessionRead {
  body: Session | null
  cookies: Cookie[]
}

/** Whether a back-channel logout ended this session: its user or provider session was revoked after it signed in. */
export async function revoked(options: AuthOptions, userId: string | undefined, meta: SessionMeta | undefined): Promise<boolean> {
  if (!options.session.revocable) return false
  const at = await revocationStoreOf(options.config).revokedAt(revocationKeys(userId, meta))
  return at !== undefined && (!meta || meta.signedInAt < at)
}
