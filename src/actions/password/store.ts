/**
 * Where a password account lives: the user's account row of the Password provider (its id as the
 * provider, the user's id as `providerAccountId`), the hash in its `refresh_token` column: every
 * Auth.js schema has it, and `updateAccountTokens` compares and sets it atomically, so of two
 * changes of one password (a rehash at sign-in, a reset) exactly one wins.
 *
 * @module
 */
import type { Adapter, AdapterUser } from "../../adapters.js"

/**
 * The form of an email address password accounts are kept under: trimmed and lowercased, as the
 * email provider keeps them.
 *
 * @example
 * ```ts
 * passwordEmail("  Ada@Example.TEST ") // "ada@example.test"
 * ```
 */
export function passwordEmail(email: string): string {
  return email.normalize("NFC").trim().toLowerCase()
}

/**
 * The user the email names and the hash of their password account, or `undefined` when there is no
 * such user or they have no password.
 *
 * @example
 * ```ts
 * const found = await findPasswordAccount(adapter, "password", "ada@example.test") // { user, hash: "$scrypt$…" }
 * ```
 */
export async function findPasswordAccount(adapter: Adapter, providerId: string, email: string): Promise<{ user: AdapterUser; hash: string } | undefined> {
  const user = await adapter.getUserByEmail!(passwordEmail(email))
  if (!user) return undefined
  const account = await adapter.getAccount!(user.id, providerId)
  return typeof account?.refresh_token === "string" && account.refresh_token !== "" ? { user, hash: account.refresh_token } : undefined
}

/**
 * Replaces the hash of a user's password account while it is still `expected`, and says whether it did.
 *
 * @example
 * ```ts
 * await replacePasswordHash(adapter, "password", user.id, oldHash, await hashPassword(password)) // true
 * ```
 */
export async function replacePasswordHash(adapter: Adapter, providerId: string, userId: string, expected: string, hash: string): Promise<boolean> {
  return (await adapter.updateAccountTokens!({ provider: providerId, providerAccountId: userId }, expected, { refresh_token: hash })) === true
}

/** The adapter methods password accounts need. */
export const passwordAdapterMethods = ["getUserByEmail", "getAccount", "linkAccount", "updateAccountTokens"] as const
