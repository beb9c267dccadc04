/**
 * The tokens the Password provider's mails carry in their links (verify an address, reset a
 * password, confirm a new address): sealed with the auth secret under a salt per purpose, so a token
 * of one purpose never opens as another, and bound to the state it may change. A reset token holds a
 * keyed hash of the password hash it replaces, so it dies once the password changes (by this reset,
 * another reset, a change or a rehash): single-use without a table. An email change holds the old
 * address, so it dies once the address changed.
 *
 * @module
 */
import { decode, encode } from "../../core/jwt/index.js"
import { keyedHashes } from "../../core/second-factor/keyed-hash.js"

/** What a mailed link is for. */
export type PasswordLinkPurpose = "verify-email" | "reset-password" | "change-email"

/**
 * How long each link lives, in seconds: a reset one hour (OWASP), a verification or an address
 * change a day.
 *
 * @example
 * ```ts
 * PASSWORD_LINK_MAX_AGE["reset-password"] // 3600
 * ```
 */
export const PASSWORD_LINK_MAX_AGE: Readonly<Record<PasswordLinkPurpose, number>> = {
  "verify-email": 24 * 60 * 60,
  "reset-password": 60 * 60,
  "change-email": 24 * 60 * 60,
}

/** What a link token names: whose account, which address, and the keyed hash of the state it is bound to. */
export interface PasswordLinkClaims {
  userId: string
  email: string
  /** The new address, for an email change. @default none */
  newEmail?: string
  /** A keyed hash of what must not have changed since the mail was sent (the password hash, the address). */
  bound: string
}

/** A link token opened: its claims, or why it cannot be used. */
export type OpenedPasswordLink = { ok: true; claims: PasswordLinkClaims } | { ok: false; reason: "missing" | "invalid" | "expired" }

const salt = (purpose: PasswordLinkPurpose) => `authflow.password-link.${purpose}`
const bindingSalt = "authflow password link binding"

/**
 * The keyed hashes of a state a link is bound to, under each secret (the newest first): seal the
 * first, and accept a token whose `bound` is any of them.
 *
 * @example
 * ```ts
 * const [bound] = await linkBindings(options.secret, storedHash)
 * ```
 */
export function linkBindings(secret: string | readonly string[], state: string): Promise<string[]> {
  return keyedHashes(state, secret, bindingSalt)
}

/**
 * Seals a link token for `purpose`, expiring after `maxAge` seconds ({@link PASSWORD_LINK_MAX_AGE}
 * by default; a negative one seals a link already expired, as the test kit does).
 *
 * @example
 * ```ts
 * const [bound] = await linkBindings(options.secret, hash)
 * const token = await sealPasswordLink(options.secret, "reset-password", { userId: user.id, email: user.email, bound: bound! })
 * ```
 */
export function sealPasswordLink(secret: string | string[], purpose: PasswordLinkPurpose, claims: PasswordLinkClaims, maxAge: number = PASSWORD_LINK_MAX_AGE[purpose]): Promise<string> {
  const token = { u: claims.userId, e: claims.email, b: claims.bound, ...(claims.newEmail !== undefined && { n: claims.newEmail }) }
  return encode({ token: token as never, secret, salt: salt(purpose), maxAge })
}

/**
 * Opens a link token of `purpose`: its claims, or `missing`, `invalid` (not sealed by this secret
 * for this purpose, or tampered with) or `expired`. Never throws.
 *
 * @example
 * ```ts
 * const opened = await openPasswordLink(options.secret, "reset-password", request.query.token)
 * if (!opened.ok) return refuse(opened.reason)
 * ```
 */
export async function openPasswordLink(secret: string | string[], purpose: PasswordLinkPurpose, token: unknown): Promise<OpenedPasswordLink> {
  if (typeof token !== "string" || token === "") return { ok: false, reason: "missing" }
  let payload: { u?: unknown; e?: unknown; b?: unknown; n?: unknown } | null
  try {
    payload = (await decode({ token, secret, salt: salt(purpose) })) as typeof payload
  } catch (error) {
    return { ok: false, reason: (error as { code?: unknown }).code === "ERR_JWT_EXPIRED" ? "expired" : "invalid" }
  }
  if (!payload || typeof payload.u !== "string" || typeof payload.e !== "string" || typeof payload.b !== "string") return { ok: false, reason: "invalid" }
  if (payload.n !== undefined && typeof payload.n !== "string") return { ok: false, reason: "invalid" }
  return { ok: true, claims: { userId: payload.u, email: payload.e, bound: payload.b, ...(typeof payload.n === "string" && { newEmail: payload.n }) } }
}
