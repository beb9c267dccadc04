/**
 * What a session knows of its own life beyond the sliding `maxAge`: when the user signed in, and
 * through which provider (with that provider's ID token and session id when sign-out or a
 * back-channel logout needs them). A JWT session carries it in the `authflow` claim; a database
 * session carries the sign-in time and provider in its token (`<token>.<milliseconds, base 36>.<provider>`),
 * which is the row's key and so cannot be changed without losing the session.
 *
 * @module
 */
import type { JWT } from "../types.js"

/**
 * The `authflow` claim of a session JWT.
 *
 * @example
 * ```ts
 * const meta: SessionMeta = { signedInAt: 1_790_000_000_000, provider: "op", sid: "08a5…" }
 * ```
 */
export interface SessionMeta {
  /** When the user signed in, in milliseconds since the epoch. */
  signedInAt: number
  /** The provider the user signed in with. */
  provider?: string
  /** The user's subject at the provider (the account's `providerAccountId`), for back-channel logout by `sub`. */
  subject?: string
  /** The provider's session id (`sid` of its ID token), for back-channel logout by session. */
  sid?: string
  /** The provider's ID token, for `id_token_hint` at its end-session endpoint. */
  idToken?: string
}

/** The JWT claim that holds {@link SessionMeta}. */
export const sessionMetaClaim = "authflow"

/** What the lifetime policy needs of the resolved options. */
export interface LifetimePolicy {
  maxAge: number
  absoluteMaxAge?: number
  /** Whether sessions must record their sign-in (a cap, a back-channel logout, or a provider logout needs it). */
  recordsSignIn: boolean
}

/**
 * The session's metadata from its JWT, if the claim is well formed.
 *
 * @example
 * ```ts
 * metaOfToken({ sub: "1", authflow: { signedInAt: 1_790_000_000_000 } })?.signedInAt // 1790000000000
 * ```
 */
export function metaOfToken(token: JWT): SessionMeta | undefined {
  const meta = token[sessionMetaClaim] as Partial<SessionMeta> | undefined
  return meta && typeof meta === "object" && typeof meta.signedInAt === "number" ? (meta as SessionMeta) : undefined
}

const tokenSuffix = /\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{0,64})$/

/**
 * A database session token carrying the sign-in time and provider.
 *
 * @example
 * ```ts
 * databaseToken("3b241101-…", { signedInAt: 1_790_000_000_000, provider: "op" }) // "3b241101-….mubbs7i8.op"
 * ```
 */
export function databaseToken(token: string, meta: SessionMeta): string {
  const provider = meta.provider && /^[A-Za-z0-9_-]{1,64}$/.test(meta.provider) ? meta.provider : ""
  return `${token}.${Math.floor(meta.signedInAt).toString(36)}.${provider}`
}

/**
 * The sign-in time and provider a database session token carries, or undefined for a token made
 * without them (by Auth.js, or before a lifetime option was set).
 *
 * @example
 * ```ts
 * metaOfDatabaseToken("3b241101-….mubbs7i8.op") // { signedInAt: 1790000000000, provider: "op" }
 * ```
 */
export function metaOfDatabaseToken(token: string): SessionMeta | undefined {
  const match = tokenSuffix.exec(token)
  if (!match) return undefined
  const signedInAt = parseInt(match[1]!, 36)
  if (!Number.isSafeInteger(signedInAt) || signedInAt > Date.now() + 60_000) return undefined
  return match[2] ? { signedInAt, provider: match[2] } : { signedInAt }
}

/**
 * Whether a session still lives at `now` (epoch milliseconds) and until when, from the sliding
 * `maxAge` and the hard `absoluteMaxAge` cap since sign-in. A session whose sign-in time is unknown
 * under a cap does not slide: it lives until its current expiry (`unknownSignInExpires`).
 *
 * @example
 * ```ts
 * sessionLife({ maxAge: 3600, absoluteMaxAge: 86400, recordsSignIn: true }, { signedInAt }, Date.now())
 * // { alive: true, expires: <the earlier of now + 1 h and sign-in + 1 day> }
 * ```
 */
export function sessionLife(
  policy: LifetimePolicy,
  meta: SessionMeta | undefined,
  now: number,
  unknownSignInExpires?: Date,
): { alive: boolean; expires: Date } {
  const sliding = now + policy.maxAge * 1000
  if (policy.absoluteMaxAge === undefined) return { alive: true, expires: new Date(sliding) }
  if (!meta) {
    const until = unknownSignInExpires?.valueOf() ?? sliding
    return { alive: until > now, expires: new Date(Math.min(until, sliding)) }
  }
  const cap = meta.signedInAt + policy.absoluteMaxAge * 1000
  return { alive: cap > now, expires: new Date(Math.min(cap, sliding)) }
}
