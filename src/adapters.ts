/**
 * The Adapter contract: how authflow reads and writes users, accounts, sessions and verification
 * tokens in a database. Every method is optional in the type; the configuration decides which are
 * required (database sessions, email sign-in, WebAuthn) and says which are missing at start.
 *
 * @example
 * ```ts
 * import type { Adapter } from "authflow/adapters"
 * const adapter: Adapter = { async getUser(id) { return db.users.find(id) ?? null } }
 * ```
 * @module
 */
import type { Account, Awaitable, User } from "./types.js"

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
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(account: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined | void>
  linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined | void>
  unlinkAccount?(account: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterAccount | undefined | void>
  createSession?(session: AdapterSession): Awaitable<AdapterSession>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">): Awaitable<AdapterSession | null | undefined | void>
  deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined | void>
  createVerificationToken?(token: VerificationToken): Awaitable<VerificationToken | null | undefined | void>
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>
  updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>
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
