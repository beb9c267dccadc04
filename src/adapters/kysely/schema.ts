/**
 * The tables of the SQL adapter, as Kysely types.
 *
 * Naming: tables and columns are snake_case (`verification_tokens.identifier`,
 * `accounts.provider_account_id`), so they need no quoting in PostgreSQL; the adapter maps them to
 * the camelCase fields of the contract. The OAuth token columns keep the names of the token
 * response (`access_token`, `expires_at`), which are snake_case already.
 *
 * Storage of values the two dialects disagree on:
 * - moments: PostgreSQL `timestamptz`; SQLite ISO-8601 text in UTC (`2026-01-01T00:00:00.000Z`),
 *   which sorts as time does. Both are written as ISO-8601 text and read back as `Date`.
 * - booleans: PostgreSQL `boolean`; SQLite integer 0/1. Written as 0/1, read back as `boolean`.
 * - `expires_at`, the WebAuthn counter (an unsigned 32-bit number) and a factor's last used TOTP
 *   step: PostgreSQL and MySQL `bigint`, which `pg` returns as a string; SQLite integer. Read back
 *   as `number`.
 *
 * @example
 * ```ts
 * import type { Kysely } from "kysely"
 * import type { AuthflowDatabase } from "authflow/adapters/kysely"
 * declare const db: Kysely<AuthflowDatabase>
 * const count = await db.selectFrom("sessions").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()
 * ```
 * @module
 */
import type { ColumnType } from "kysely"

/**
 * A moment: written as ISO-8601 text, read as a `Date` (PostgreSQL) or as that text (SQLite).
 *
 * @example
 * ```ts
 * const expires: DateColumn["__insert__"] = new Date().toISOString()
 * ```
 */
export type DateColumn = ColumnType<Date | string, string, string>

/**
 * A moment that may be absent.
 *
 * @example
 * ```ts
 * const emailVerified: NullableDateColumn["__insert__"] = null
 * ```
 */
export type NullableDateColumn = ColumnType<Date | string | null, string | null, string | null>

/**
 * A boolean: written as 0 or 1 (PostgreSQL accepts both for `boolean`), read as a `boolean`
 * (PostgreSQL) or a number (SQLite).
 *
 * @example
 * ```ts
 * const backedUp: BooleanColumn["__insert__"] = 1
 * ```
 */
export type BooleanColumn = ColumnType<boolean | number, 0 | 1, 0 | 1>

/**
 * A 64-bit integer: written as a number, read as a string (`pg` and `bigint`) or a number (SQLite).
 *
 * @example
 * ```ts
 * const counter: BigIntColumn["__insert__"] = 4_294_967_295
 * ```
 */
export type BigIntColumn = ColumnType<number | string | bigint, number, number>

/**
 * The `users` table. `email` is unique when present.
 *
 * @example
 * ```ts
 * const row: Selectable<UsersTable> = await db.selectFrom("users").selectAll().executeTakeFirstOrThrow()
 * ```
 */
export interface UsersTable {
  id: string
  name: string | null
  email: string | null
  email_verified: NullableDateColumn
  image: string | null
}

/**
 * The `accounts` table: provider identities linked to users, unique by
 * (`provider`, `provider_account_id`); deleting the user deletes them.
 *
 * @example
 * ```ts
 * await db.selectFrom("accounts").select("provider").where("user_id", "=", userId).execute()
 * ```
 */
export interface AccountsTable {
  id: string
  user_id: string
  type: string
  provider: string
  provider_account_id: string
  refresh_token: string | null
  access_token: string | null
  expires_at: ColumnType<number | string | bigint | null, number | null, number | null>
  token_type: string | null
  scope: string | null
  id_token: string | null
  session_state: string | null
}

/**
 * The `sessions` table: database sessions, unique by `session_token`; deleting the user deletes them.
 *
 * @example
 * ```ts
 * await db.deleteFrom("sessions").where("user_id", "=", userId).execute() // sign out everywhere
 * ```
 */
export interface SessionsTable {
  id: string
  session_token: string
  user_id: string
  expires: DateColumn
}

/**
 * The `verification_tokens` table, keyed by (`identifier`, `token`); `token` is a hash.
 *
 * @example
 * ```ts
 * await db.deleteFrom("verification_tokens").where("expires", "<", new Date().toISOString()).execute() // purge
 * ```
 */
export interface VerificationTokensTable {
  identifier: string
  token: string
  expires: DateColumn
}

/**
 * The `authenticators` table: WebAuthn credentials keyed by `credential_id`; deleting the user
 * deletes them. `transports` is the comma-separated list WebAuthn reports.
 *
 * @example
 * ```ts
 * await db.selectFrom("authenticators").select("credential_id").where("user_id", "=", userId).execute()
 * ```
 */
export interface AuthenticatorsTable {
  credential_id: string
  user_id: string
  provider_account_id: string
  credential_public_key: string
  counter: BigIntColumn
  credential_backed_up: BooleanColumn
  credential_device_type: string
  transports: string | null
}

/**
 * The `factors` table: second factors (TOTP authenticator apps) keyed by `id`; deleting the user
 * deletes them. `secret` is sealed by authflow before it gets here; `last_used_step` is the last
 * accepted TOTP time step, `null` before the first.
 *
 * @example
 * ```ts
 * await db.selectFrom("factors").select(["id", "name"]).where("user_id", "=", userId).orderBy("created_at").execute()
 * ```
 */
export interface FactorsTable {
  id: string
  user_id: string
  type: string
  name: string
  secret: string
  algorithm: string
  digits: number
  period: number
  last_used_step: ColumnType<number | string | bigint | null, number | null, number | null>
  created_at: DateColumn
}

/**
 * The `backup_codes` table: a user's single-use backup codes, hashed by authflow, keyed by
 * (`user_id`, `code_hash`); deleting the user deletes them.
 *
 * @example
 * ```ts
 * const left = await db.selectFrom("backup_codes").select((eb) => eb.fn.countAll().as("n")).where("user_id", "=", userId).executeTakeFirstOrThrow()
 * ```
 */
export interface BackupCodesTable {
  user_id: string
  code_hash: string
}

/**
 * Every table of the SQL adapter: the type parameter of `Kysely` for {@link KyselyAdapter}. An
 * application with more tables can extend it.
 *
 * @example
 * ```ts
 * interface AppDatabase extends AuthflowDatabase { posts: PostsTable }
 * const db = new Kysely<AppDatabase>({ dialect })
 * ```
 */
export interface AuthflowDatabase {
  users: UsersTable
  accounts: AccountsTable
  sessions: SessionsTable
  verification_tokens: VerificationTokensTable
  authenticators: AuthenticatorsTable
  factors: FactorsTable
  backup_codes: BackupCodesTable
}
