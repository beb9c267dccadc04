/**
 * The fields every authflow adapter stores, shared so that the memory and SQL adapters keep and
 * return exactly the same shapes: a test that passes on one passes on the other.
 *
 * @example
 * ```ts
 * import { accountShape } from "./fields.js"
 * const stored = accountShape({ ...account, expires_in: 3600 }) // expires_in is dropped
 * ```
 * @module
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterFactor, AdapterSession, AdapterUser, VerificationToken } from "../adapters.js"

/**
 * The optional account fields an adapter keeps, besides `userId`, `type`, `provider` and
 * `providerAccountId`. Other keys of a token response (`expires_in`, provider extensions) are
 * not stored: they are either derived (`expires_at`) or meaningless after sign-in.
 *
 * @example
 * ```ts
 * for (const field of accountTokenFields) console.log(field, account[field])
 * ```
 */
export const accountTokenFields = [
  "access_token",
  "expires_at",
  "id_token",
  "refresh_token",
  "scope",
  "session_state",
  "token_type",
] as const

/**
 * One of {@link accountTokenFields}.
 *
 * @example
 * ```ts
 * const field: AccountTokenField = "refresh_token"
 * ```
 */
export type AccountTokenField = (typeof accountTokenFields)[number]

/**
 * The stored shape of a user: the contract fields only, with `name` and `image` as `null` when
 * absent (SQL columns cannot tell absent from null).
 *
 * @example
 * ```ts
 * userShape({ id: "u1", email: "a@b.c", emailVerified: null }) // { id: "u1", name: null, email: "a@b.c", emailVerified: null, image: null }
 * ```
 */
export function userShape(user: AdapterUser): AdapterUser {
  return {
    id: user.id,
    name: user.name ?? null,
    email: user.email,
    emailVerified: user.emailVerified === null || user.emailVerified === undefined ? null : new Date(user.emailVerified),
    image: user.image ?? null,
  }
}

/**
 * The stored shape of an account: the identifying fields plus each token field that is set.
 * Absent token fields are left out rather than returned as `null`, as providers return them.
 *
 * @example
 * ```ts
 * accountShape({ userId: "u1", type: "oauth", provider: "github", providerAccountId: "42", access_token: undefined })
 * // { userId: "u1", type: "oauth", provider: "github", providerAccountId: "42" }
 * ```
 */
export function accountShape(account: AdapterAccount): AdapterAccount {
  const shaped: AdapterAccount = {
    userId: account.userId,
    type: account.type,
    provider: account.provider,
    providerAccountId: account.providerAccountId,
  }
  for (const field of accountTokenFields) {
    const value = account[field]
    if (value !== null && value !== undefined) (shaped as Record<string, unknown>)[field] = value
  }
  return shaped
}

/**
 * The stored shape of a database session: its `id` (when it has one), token, user and expiry.
 *
 * @example
 * ```ts
 * sessionShape({ id: "4f0c…", sessionToken: "t", userId: "u1", expires: new Date() })
 * ```
 */
export function sessionShape(session: AdapterSession): AdapterSession {
  return { ...(session.id !== undefined && { id: session.id }), sessionToken: session.sessionToken, userId: session.userId, expires: new Date(session.expires) }
}

/**
 * The stored shape of a verification token.
 *
 * @example
 * ```ts
 * verificationTokenShape({ identifier: "a@b.c", token: "hashed", expires: new Date() })
 * ```
 */
export function verificationTokenShape(token: VerificationToken): VerificationToken {
  return { identifier: token.identifier, token: token.token, expires: new Date(token.expires) }
}

/**
 * The stored shape of a WebAuthn authenticator, with `transports` as `null` when absent.
 *
 * @example
 * ```ts
 * authenticatorShape(authenticator).transports // "usb,nfc" or null
 * ```
 */
export function authenticatorShape(authenticator: AdapterAuthenticator): AdapterAuthenticator {
  return {
    userId: authenticator.userId,
    providerAccountId: authenticator.providerAccountId,
    credentialID: authenticator.credentialID,
    credentialPublicKey: authenticator.credentialPublicKey,
    counter: authenticator.counter,
    credentialBackedUp: authenticator.credentialBackedUp,
    credentialDeviceType: authenticator.credentialDeviceType,
    transports: authenticator.transports ?? null,
  }
}

/**
 * The stored shape of a second factor: the contract fields only, `createdAt` a fresh `Date`.
 *
 * @example
 * ```ts
 * factorShape(factor).lastUsedStep // null before its first use
 * ```
 */
export function factorShape({ id, userId, type, name, secret, algorithm, digits, period, lastUsedStep, createdAt }: AdapterFactor): AdapterFactor {
  return { id, userId, type, name, secret, algorithm, digits, period, lastUsedStep: lastUsedStep ?? null, createdAt: new Date(createdAt) }
}
