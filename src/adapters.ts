/**
 * The Adapter contract: how authflow reads and writes users, accounts, sessions, verification
 * tokens and second factors in a database. Every method is optional in the type; the configuration
 * decides which are required (database sessions, email sign-in, WebAuthn, a second factor) and says
 * which are missing at start.
 *
 * @example
 * ```ts
 * import type { Adapter } from "authflow/adapters"
 * const adapter: Adapter = { async getUser(id) { return db.users.find(id) ?? null } }
 * ```
 * @module
 */
import type { Account, Awaitable, User } from "./base-types.js"

/** A user row. `emailVerified` is set when an email link was used. */
export interface AdapterUser extends User {
  id: string
  email: string
  emailVerified: Date | null
}

/** An account row: a provider identity linked to a user. */
export interface AdapterAccount extends Account {
  userId: string
  type: "oauth" | "oidc" | "email" | "webauthn"
}

/** A database session row. */
export interface AdapterSession {
  /**
   * The row's own key, where the store has one (authflow's SQL and memory adapters do, as Auth.js's
   * adapters do): returned as stored, and handed on to `callbacks.session` with the row. authflow
   * never reads it and never passes it in.
   */
  id?: string
  sessionToken: string
  userId: string
  expires: Date
}

/** A verification token row; `token` is stored hashed. */
export interface VerificationToken {
  identifier: string
  token: string
  expires: Date
}

/** A WebAuthn authenticator row. */
export interface AdapterAuthenticator {
  userId: string
  providerAccountId: string
  credentialID: string
  credentialPublicKey: string
  counter: number
  credentialBackedUp: boolean
  credentialDeviceType: string
  transports?: string | null
}

/**
 * A user's second factor: a TOTP authenticator app (RFC 6238). authflow writes it only once the
 * user typed one correct code, so a stored factor is always a working one.
 *
 * @example
 * ```ts
 * const factor: AdapterFactor = {
 *   id: crypto.randomUUID(), userId: user.id, type: "totp", name: "Phone", secret: sealedSecret,
 *   algorithm: "SHA-1", digits: 6, period: 30, lastUsedStep: null, createdAt: new Date(),
 * }
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238 RFC 6238 (TOTP)
 */
export interface AdapterFactor {
  /** The factor's key, made by authflow (a UUID). */
  id: string
  userId: string
  type: "totp"
  /** The user's name for it, e.g. "Phone"; several factors may share one. */
  name: string
  /** The TOTP secret sealed by authflow: an opaque string the adapter stores as is and never reads. */
  secret: string
  algorithm: "SHA-1" | "SHA-256" | "SHA-512"
  digits: number
  /** Seconds per time step. */
  period: number
  /** The last accepted TOTP time step (Unix time / period), or `null` before the first: a code of that step or an earlier one is a replay. */
  lastUsedStep: number | null
  createdAt: Date
}

/**
 * Methods an adapter may implement. All may be async.
 *
 * @example
 * ```ts
 * const adapter: Adapter = {
 *   createUser: (user) => db.insert("users", { ...user, id: crypto.randomUUID() }),
 *   getSessionAndUser: (token) => db.sessionWithUser(token),
 * }
 * ```
 */
export interface Adapter {
  /** Stores a new user and returns it. authflow passes the id to use; an empty id asks the adapter to generate one. */
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  /** The user with this id, or `null`. */
  getUser?(id: string): Awaitable<AdapterUser | null>
  /** The user with exactly this email, or `null`. Emails are unique among users. */
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  /** The user a provider account is linked to, or `null`. */
  getUserByAccount?(account: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterUser | null>
  /** Changes the given fields of a user (`undefined` leaves a field as is) and returns the whole user. Throws for an unknown id. */
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  /** Deletes a user with its accounts, sessions, authenticators, second factors and backup codes; returns the deleted user, or `null` when there was none. authflow itself never calls it. */
  deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined | void>
  /** Links a provider account to an existing user. Linking a (`provider`, `providerAccountId`) pair that is already linked must fail. */
  linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined | void>
  /** Removes the link to a provider account and returns it, or `undefined` when there was none. authflow itself never calls it. */
  unlinkAccount?(account: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterAccount | undefined | void>
  /** Stores a database session for an existing user and returns it. Session tokens are unique. */
  createSession?(session: AdapterSession): Awaitable<AdapterSession>
  /** The session with this token and its user, or `null`. Expired sessions are returned too: checking `expires` is the caller's job. */
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  /** Changes the given fields of a session (usually `expires`) and returns it, or `null` for an unknown token. */
  updateSession?(session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">): Awaitable<AdapterSession | null | undefined | void>
  /** Deletes a session and returns it, or `null` when there was none. */
  deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined | void>
  /**
   * authflow only, optional: deletes every session of a user and returns how many there were. A
   * back-channel logout calls it to delete the user's rows at once; without it, they are deleted
   * when next read.
   */
  deleteUserSessions?(userId: string): Awaitable<number>
  /** Stores a verification token; the pair (`identifier`, `token`) is unique. */
  createVerificationToken?(token: VerificationToken): Awaitable<VerificationToken | null | undefined | void>
  /** Deletes the token and returns it, or `null`: single use, so of concurrent calls for one token exactly one gets it. Expired tokens are returned as they are; checking `expires` is the caller's job. */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  /** The account linked for this provider account, or `null`. Note the argument order: `providerAccountId` first. */
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  /** The user's linked accounts; an empty array for a user with none. Used by token refresh with database sessions. */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>
  /**
   * Compare-and-set of an account's tokens: changes the given token fields only while the stored
   * `refresh_token` equals `expectedRefreshToken`, atomically, and says whether it did. Token
   * refresh uses it so that of several instances refreshing one account exactly one wins.
   */
  updateAccountTokens?(
    account: Pick<AdapterAccount, "provider" | "providerAccountId">,
    expectedRefreshToken: string,
    tokens: Partial<Pick<AdapterAccount, "access_token" | "refresh_token" | "expires_at" | "token_type" | "scope" | "id_token">>,
  ): Awaitable<boolean>
  /** The WebAuthn authenticator with this credential ID, or `null`. */
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  /** Stores a WebAuthn authenticator for an existing user and returns it. Credential IDs are unique. */
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  /** The user's WebAuthn authenticators; an empty array for a user with none or an unknown user. */
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>
  /** Stores a new signature counter and returns the authenticator. Throws for an unknown credential ID. */
  updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>
  /** authflow only, optional (second factor): stores a new factor for an existing user and returns it. Factor ids are unique; an unknown user must fail. */
  createFactor?(factor: AdapterFactor): Awaitable<AdapterFactor>
  /** authflow only, optional (second factor): the user's factors, oldest first (`createdAt`, then `id`); an empty array for a user with none or an unknown user. */
  listFactorsByUserId?(userId: string): Awaitable<AdapterFactor[]>
  /** authflow only, optional (second factor): changes a factor's name and returns the factor, or `null` for an unknown id. */
  renameFactor?(id: string, name: string): Awaitable<AdapterFactor | null>
  /** authflow only, optional (second factor): deletes a factor and returns it, or `null` when there was none. */
  deleteFactor?(id: string): Awaitable<AdapterFactor | null | undefined | void>
  /**
   * authflow only, optional (second factor): atomic compare-and-set of a factor's `lastUsedStep`.
   * Sets it to `step` only while the stored one is `null` or lower than `step`, and says whether it
   * did (`false` for an unknown id). Replay protection rests on it: of concurrent calls with one
   * step, on one instance or several sharing the database, exactly one gets `true`, so one code is
   * accepted once. A read followed by a write is not enough; use one conditional write.
   */
  useFactorStep?(id: string, step: number): Awaitable<boolean>
  /**
   * authflow only, optional (second factor): the user's backup codes become exactly `codeHashes`
   * (stored hashed by authflow), the old ones gone: regeneration. Atomic: a transaction where the
   * store has them, so no reader sees a mix of old and new codes, and of two concurrent calls one
   * set wins whole. An unknown user must fail.
   */
  replaceBackupCodes?(userId: string, codeHashes: string[]): Awaitable<void>
  /**
   * authflow only, optional (second factor): single use of a backup code: deletes the user's code
   * with this hash and says whether there was one. Of concurrent calls for one code exactly one
   * gets `true` (one conditional delete, checking the rows it removed).
   */
  useBackupCode?(userId: string, codeHash: string): Awaitable<boolean>
  /** authflow only, optional (second factor): how many backup codes the user has left; 0 for none or an unknown user. */
  countBackupCodes?(userId: string): Awaitable<number>
}

/**
 * True for an ISO-8601 date string, the way dates come back from JSON columns.
 *
 * @example
 * ```ts
 * isDate("2026-01-01T00:00:00.000Z") // true
 * ```
 */
export function isDate(value: unknown): value is string {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value))
}
