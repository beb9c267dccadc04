/**
 * What only the user knows: the answers their own code gives, and the database they test on.
 *
 * @module
 */
import type { Adapter } from "../adapters.js"

/** Credentials for one credentials provider: ones its `authorize` accepts and ones it refuses. */
export interface CredentialsFixture {
  /** Form fields `authorize` accepts (it returns a user). */
  accepted: Record<string, string>
  /** Form fields `authorize` refuses (it returns `null` or throws `CredentialsSignin`). */
  rejected: Record<string, string>
  /** Form fields that make `authorize` throw another error (a lookup that fails), if there are any. */
  failing?: Record<string, string>
}

/**
 * The fixtures of {@link authflowModelTests}: what only you know about your configuration.
 *
 * @example
 * ```ts
 * const fixtures: AuthflowFixtures = {
 *   credentials: { credentials: { accepted: { username: "ada", password: "lovelace" }, rejected: { username: "ada", password: "wrong" } } },
 *   users: { existing: { email: "ada@example.test", name: "Ada Lovelace" }, newEmail: "newcomer@example.test" },
 *   freshAdapter: async () => KyselyAdapter(await migratedDatabase(":memory:")),
 * }
 * ```
 */
export interface AuthflowFixtures {
  /** Per credentials provider id, credentials its `authorize` accepts and refuses. A provider without them is listed as unreachable. */
  credentials?: Record<string, CredentialsFixture>
  /**
   * Users: one that exists in the database (created by the kit when the database lacks it), and
   * the address of one that does not exist yet.
   *
   * @default `{ existing: { email: "existing-user@example.test", name: "Existing User" }, newEmail: "new-user@example.test" }`
   */
  users?: { existing?: { email: string; name?: string }; newEmail?: string }
  /**
   * Per OAuth provider id, the profile its stand-in answers (userinfo, and the ID token's claims
   * for OpenID Connect), for a `profile()` that reads claims of its own. Merged over the
   * defaults (`id`, `login`, `name`, `preferred_username`, `email`, `email_verified`); `email` is
   * set by each path, `sub` is the stand-in's.
   */
  profiles?: Record<string, Record<string, unknown>>
  /**
   * A new, empty (or seeded) adapter for each path, so that no path sees another one's rows. Your
   * configuration's own adapter is used for every path without it.
   */
  freshAdapter?: () => Adapter | Promise<Adapter>
  /** The origin requests are sent to. Default: the configuration's `origin`, else `https://app.test`. */
  origin?: string
  /** The `callbackUrl` each sign-in asks for. Default `/`. */
  callbackUrl?: string
}

/** The users of {@link AuthflowFixtures} with their defaults filled in. */
export function usersOf(fixtures: AuthflowFixtures): { existing: { email: string; name: string }; newEmail: string } {
  const existing = fixtures.users?.existing
  return {
    existing: { email: existing?.email ?? "existing-user@example.test", name: existing?.name ?? "Existing User" },
    newEmail: fixtures.users?.newEmail ?? "new-user@example.test",
  }
}
