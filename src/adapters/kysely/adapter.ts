/**
 * The SQL adapter: the contract over Kysely, the same queries on PostgreSQL, SQLite and MySQL/MariaDB.
 *
 * @example
 * ```ts
 * import { KyselyAdapter, createSqliteDatabase, migrateToLatest } from "authflow/adapters/kysely"
 * const db = createSqliteDatabase("auth.sqlite")
 * await migrateToLatest(db)
 * const adapter = KyselyAdapter(db)
 * ```
 * @module
 */
import { randomUUID } from "node:crypto"
import { MysqlIntrospector, SqliteIntrospector, type Kysely, type Selectable, type Transaction } from "kysely"
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterFactor,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "../../adapters.js"
import { accountShape } from "../fields.js"
import type {
  AccountsTable,
  AuthenticatorsTable,
  AuthflowDatabase,
  FactorsTable,
  SessionsTable,
  UsersTable,
  VerificationTokensTable,
} from "./schema.js"

type UserRow = Selectable<UsersTable>
type AccountRow = Selectable<AccountsTable>
type SessionRow = Selectable<SessionsTable>
type VerificationTokenRow = Selectable<VerificationTokensTable>
type AuthenticatorRow = Selectable<AuthenticatorsTable>
type FactorRow = Selectable<FactorsTable>

/** ISO-8601 in UTC: PostgreSQL parses it as `timestamptz`, SQLite stores it as sortable text. */
function toIsoDate(value: Date | string): string {
  return new Date(value).toISOString()
}

/** MySQL's `DATETIME` literal, in UTC (the pool reads it back with `timezone: "Z"`). */
function toMysqlDate(value: Date | string): string {
  return new Date(value).toISOString().replace("T", " ").replace("Z", "")
}

function fromStoredDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value)
}

function toUser(row: UserRow): AdapterUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email as string,
    emailVerified: row.email_verified === null ? null : fromStoredDate(row.email_verified),
    image: row.image,
  }
}

function toAccount(row: AccountRow): AdapterAccount {
  return accountShape({
    userId: row.user_id,
    type: row.type as AdapterAccount["type"],
    provider: row.provider,
    providerAccountId: row.provider_account_id,
    refresh_token: row.refresh_token ?? undefined,
    access_token: row.access_token ?? undefined,
    expires_at: row.expires_at === null ? undefined : Number(row.expires_at),
    token_type: (row.token_type ?? undefined) as Lowercase<string> | undefined,
    scope: row.scope ?? undefined,
    id_token: row.id_token ?? undefined,
    session_state: row.session_state ?? undefined,
  })
}

/** The session as stored, its `id` included (Auth.js's adapter suite compares the answer with the row). */
function toSession(row: Pick<SessionRow, "id" | "session_token" | "user_id" | "expires">): AdapterSession {
  return { id: row.id, sessionToken: row.session_token, userId: row.user_id, expires: fromStoredDate(row.expires) }
}

function toVerificationToken(row: VerificationTokenRow): VerificationToken {
  return { identifier: row.identifier, token: row.token, expires: fromStoredDate(row.expires) }
}

function toAuthenticator(row: AuthenticatorRow): AdapterAuthenticator {
  return {
    userId: row.user_id,
    providerAccountId: row.provider_account_id,
    credentialID: row.credential_id,
    credentialPublicKey: row.credential_public_key,
    counter: Number(row.counter),
    credentialBackedUp: Boolean(row.credential_backed_up),
    credentialDeviceType: row.credential_device_type,
    transports: row.transports,
  }
}

function toFactor(row: FactorRow): AdapterFactor {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.type as AdapterFactor["type"],
    name: row.name,
    secret: row.secret,
    algorithm: row.algorithm as AdapterFactor["algorithm"],
    digits: Number(row.digits),
    period: Number(row.period),
    lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
    createdAt: fromStoredDate(row.created_at),
  }
}

/** An optional string column: `null` when absent or not a string. */
function optionalText(value: unknown): string | null {
  return typeof value === "string" ? value : null
}

/**
 * Creates the adapter over a Kysely database whose tables were created by `migrateToLatest`.
 * Works with the SQLite (better-sqlite3), PostgreSQL (pg) and MySQL/MariaDB (mysql2) dialects.
 * MySQL has no `RETURNING`: there a write and the read of its row run in one transaction.
 *
 * Behaviour worth knowing:
 * - `createUser` keeps the `id` it is given and generates a UUID when that id is empty.
 * - Sessions come back as stored, their generated `id` included, from every session method.
 * - `useVerificationToken` is a single `DELETE … RETURNING` (MySQL: `SELECT … FOR UPDATE` and
 *   `DELETE` in a transaction, the row returned only when that `DELETE` removed it): of concurrent
 *   calls for the same token, exactly one gets it. It does
 *   not check `expires`; the caller does.
 * - `deleteUser` deletes the user's sessions, accounts, authenticators, factors and backup codes in
 *   the same transaction, so it cascades even on a SQLite connection opened without
 *   `PRAGMA foreign_keys = ON`.
 * - `useFactorStep` is a single `UPDATE … WHERE id = ? AND (last_used_step IS NULL OR
 *   last_used_step < step)` and `useBackupCode` a single `DELETE`, each answering whether it
 *   changed a row: of concurrent calls with one step (one code), exactly one gets `true`.
 * - `replaceBackupCodes` locks the user's row (`SELECT … FOR UPDATE`; SQLite has one writer at a
 *   time), then deletes the old codes and inserts the new ones in one transaction: of concurrent
 *   regenerations one set wins whole. It rejects for an unknown user; a hash given twice is stored once.
 * - Unknown ids give `null` (`unlinkAccount`: `undefined`); `updateUser` and
 *   `updateAuthenticatorCounter` throw for an unknown id; constraint violations (a provider account
 *   linked twice, a reused session token) reject with the driver's error.
 * - `updateAccountTokens` is a single `UPDATE … WHERE refresh_token = expected` (compare-and-set):
 *   of concurrent calls expecting the same refresh token, exactly one changes the row.
 * - Account keys other than the standard token fields (see `accountTokenFields`) are not stored.
 *
 * @example
 * ```ts
 * const adapter = KyselyAdapter(createPostgresDatabase(process.env.DATABASE_URL!))
 * const config = { adapter, session: { strategy: "database" }, providers: [github] }
 * ```
 */
export function KyselyAdapter(db: Kysely<AuthflowDatabase>): Required<Adapter> {
  const writes = rowWrites(db)
  const toStoredDate = writes.returning ? toIsoDate : toMysqlDate
  return {
    async createUser(user) {
      const id = user.id || randomUUID()
      const row = await writes.insert<UserRow>("users", { id }, {
        id,
        name: user.name ?? null,
        email: user.email ?? null,
        email_verified: user.emailVerified ? toStoredDate(user.emailVerified) : null,
        image: user.image ?? null,
      })
      return toUser(row)
    },

    async getUser(id) {
      const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst()
      return row ? toUser(row) : null
    },

    async getUserByEmail(email) {
      const row = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst()
      return row ? toUser(row) : null
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const row = await db
        .selectFrom("accounts")
        .innerJoin("users", "users.id", "accounts.user_id")
        .selectAll("users")
        .where("accounts.provider", "=", provider)
        .where("accounts.provider_account_id", "=", providerAccountId)
        .executeTakeFirst()
      return row ? toUser(row) : null
    },

    async updateUser({ id, ...update }) {
      const changes: Partial<{ name: string | null; email: string | null; email_verified: string | null; image: string | null }> = {}
      if (update.name !== undefined) changes.name = update.name
      if (update.email !== undefined) changes.email = update.email
      if (update.emailVerified !== undefined) changes.email_verified = update.emailVerified ? toStoredDate(update.emailVerified) : null
      if (update.image !== undefined) changes.image = update.image
      const row =
        Object.keys(changes).length === 0
          ? await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst()
          : await writes.update<UserRow>("users", { id }, changes)
      if (!row) throw new Error("Cannot update an unknown user", { cause: { id } })
      return toUser(row)
    },

    async deleteUser(userId) {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom("sessions").where("user_id", "=", userId).execute()
        await trx.deleteFrom("accounts").where("user_id", "=", userId).execute()
        await trx.deleteFrom("authenticators").where("user_id", "=", userId).execute()
        await trx.deleteFrom("factors").where("user_id", "=", userId).execute()
        await trx.deleteFrom("backup_codes").where("user_id", "=", userId).execute()
        const row = await writes.remove<UserRow>("users", { id: userId }, trx)
        return row ? toUser(row) : null
      })
    },

    async linkAccount(account) {
      const id = randomUUID()
      const row = await writes.insert<AccountRow>("accounts", { id }, {
          id,
          user_id: account.userId,
          type: account.type,
          provider: account.provider,
          provider_account_id: account.providerAccountId,
          refresh_token: optionalText(account.refresh_token),
          access_token: optionalText(account.access_token),
          expires_at: typeof account.expires_at === "number" ? account.expires_at : null,
          token_type: optionalText(account.token_type),
          scope: optionalText(account.scope),
          id_token: optionalText(account.id_token),
          session_state: optionalText(account.session_state),
        })
      return toAccount(row)
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const row = await writes.remove<AccountRow>("accounts", { provider, provider_account_id: providerAccountId })
      return row ? toAccount(row) : undefined
    },

    async getAccount(providerAccountId, provider) {
      const row = await db
        .selectFrom("accounts")
        .selectAll()
        .where("provider", "=", provider)
        .where("provider_account_id", "=", providerAccountId)
        .executeTakeFirst()
      return row ? toAccount(row) : null
    },

    async listAccountsByUserId(userId) {
      const rows = await db.selectFrom("accounts").selectAll().where("user_id", "=", userId).orderBy("provider").orderBy("provider_account_id").execute()
      return rows.map(toAccount)
    },

    async updateAccountTokens({ provider, providerAccountId }, expectedRefreshToken, tokens) {
      const changes: Record<string, string | number | null> = {}
      for (const field of ["access_token", "refresh_token", "token_type", "scope", "id_token"] as const) {
        if (field in tokens) changes[field] = optionalText(tokens[field])
      }
      if ("expires_at" in tokens) changes.expires_at = typeof tokens.expires_at === "number" ? tokens.expires_at : null
      // One UPDATE … WHERE refresh_token = expected: of concurrent callers expecting the same token, one changes the row.
      const result = await db
        .updateTable("accounts")
        .set(changes)
        .where("provider", "=", provider)
        .where("provider_account_id", "=", providerAccountId)
        .where("refresh_token", "=", expectedRefreshToken)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    async createSession(session) {
      const id = randomUUID()
      const row = await writes.insert<SessionRow>("sessions", { id }, {
        id,
        session_token: session.sessionToken,
        user_id: session.userId,
        expires: toStoredDate(session.expires),
      })
      return toSession(row)
    },

    async deleteUserSessions(userId) {
      const result = await db.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst()
      return Number(result.numDeletedRows)
    },

    async getSessionAndUser(sessionToken) {
      const row = await db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .select([
          "sessions.id as session_id",
          "sessions.session_token",
          "sessions.user_id",
          "sessions.expires",
          "users.id",
          "users.name",
          "users.email",
          "users.email_verified",
          "users.image",
        ])
        .where("sessions.session_token", "=", sessionToken)
        .executeTakeFirst()
      return row ? { session: toSession({ ...row, id: row.session_id }), user: toUser(row) } : null
    },

    async updateSession({ sessionToken, ...update }) {
      const changes: Partial<{ user_id: string; expires: string }> = {}
      if (update.userId !== undefined) changes.user_id = update.userId
      if (update.expires !== undefined) changes.expires = toStoredDate(update.expires)
      const row =
        Object.keys(changes).length === 0
          ? await db.selectFrom("sessions").selectAll().where("session_token", "=", sessionToken).executeTakeFirst()
          : await writes.update<SessionRow>("sessions", { session_token: sessionToken }, changes)
      return row ? toSession(row) : null
    },

    async deleteSession(sessionToken) {
      const row = await writes.remove<SessionRow>("sessions", { session_token: sessionToken })
      return row ? toSession(row) : null
    },

    async createVerificationToken(token) {
      const key = { identifier: token.identifier, token: token.token }
      const row = await writes.insert<VerificationTokenRow>("verification_tokens", key, { ...key, expires: toStoredDate(token.expires) })
      return toVerificationToken(row)
    },

    async useVerificationToken({ identifier, token }) {
      // One statement: the row lock (PostgreSQL) or the database write lock (SQLite) lets exactly
      // one of concurrent callers delete, and so return, the token (MySQL: the row lock of the
      // transaction's SELECT … FOR UPDATE).
      const row = await writes.remove<VerificationTokenRow>("verification_tokens", { identifier, token })
      return row ? toVerificationToken(row) : null
    },

    async getAuthenticator(credentialID) {
      const row = await db.selectFrom("authenticators").selectAll().where("credential_id", "=", credentialID).executeTakeFirst()
      return row ? toAuthenticator(row) : null
    },

    async createAuthenticator(authenticator) {
      const row = await writes.insert<AuthenticatorRow>("authenticators", { credential_id: authenticator.credentialID }, {
          credential_id: authenticator.credentialID,
          user_id: authenticator.userId,
          provider_account_id: authenticator.providerAccountId,
          credential_public_key: authenticator.credentialPublicKey,
          counter: authenticator.counter,
          credential_backed_up: authenticator.credentialBackedUp ? 1 : 0,
          credential_device_type: authenticator.credentialDeviceType,
          transports: authenticator.transports ?? null,
        })
      return toAuthenticator(row)
    },

    async listAuthenticatorsByUserId(userId) {
      const rows = await db.selectFrom("authenticators").selectAll().where("user_id", "=", userId).orderBy("credential_id").execute()
      return rows.map(toAuthenticator)
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const row = await writes.update<AuthenticatorRow>("authenticators", { credential_id: credentialID }, { counter: newCounter })
      if (!row) throw new Error("Cannot update the counter of an unknown authenticator", { cause: { credentialID } })
      return toAuthenticator(row)
    },

    async createFactor(factor) {
      const row = await writes.insert<FactorRow>("factors", { id: factor.id }, {
        id: factor.id,
        user_id: factor.userId,
        type: factor.type,
        name: factor.name,
        secret: factor.secret,
        algorithm: factor.algorithm,
        digits: factor.digits,
        period: factor.period,
        last_used_step: factor.lastUsedStep ?? null,
        created_at: toStoredDate(factor.createdAt),
      })
      return toFactor(row)
    },

    async listFactorsByUserId(userId) {
      const rows = await db.selectFrom("factors").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute()
      return rows.map(toFactor)
    },

    async renameFactor(id, name) {
      const row = await writes.update<FactorRow>("factors", { id }, { name })
      return row ? toFactor(row) : null
    },

    async deleteFactor(id) {
      const row = await writes.remove<FactorRow>("factors", { id })
      return row ? toFactor(row) : null
    },

    async useFactorStep(id, step) {
      // One conditional UPDATE: concurrent callers with one step queue on the row lock (SQLite: the
      // write lock), and each re-checks the condition against the row the previous one left.
      const result = await db
        .updateTable("factors")
        .set({ last_used_step: step })
        .where("id", "=", id)
        .where((eb) => eb.or([eb("last_used_step", "is", null), eb("last_used_step", "<", step)]))
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    async replaceBackupCodes(userId, codeHashes) {
      await db.transaction().execute(async (trx) => {
        // The user's row lock serialises regenerations: without it two could each delete the old
        // codes and both insert theirs (a DELETE does not see rows another transaction inserts).
        const owner = trx.selectFrom("users").select("id").where("id", "=", userId)
        if (!(await (writes.rowLocks ? owner.forUpdate() : owner).executeTakeFirst())) {
          throw new Error("The backup codes refer to an unknown user", { cause: { userId } })
        }
        await trx.deleteFrom("backup_codes").where("user_id", "=", userId).execute()
        const rows = [...new Set(codeHashes)].map((codeHash) => ({ user_id: userId, code_hash: codeHash }))
        if (rows.length) await trx.insertInto("backup_codes").values(rows).execute()
      })
    },

    async useBackupCode(userId, codeHash) {
      // One DELETE: of concurrent callers for one code, only the one that removed the row sees it.
      const result = await db.deleteFrom("backup_codes").where("user_id", "=", userId).where("code_hash", "=", codeHash).executeTakeFirst()
      return Number(result.numDeletedRows) === 1
    },

    async countBackupCodes(userId) {
      const { count } = await db
        .selectFrom("backup_codes")
        .select((eb) => eb.fn.countAll().as("count"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow()
      return Number(count)
    },
  }
}

type Key = Record<string, string>

/**
 * Writes that answer the row they wrote: `… RETURNING *` where the dialect has it (PostgreSQL,
 * SQLite); on MySQL, which has none, the write and a read of the row by its key in one transaction
 * (the read locks the row first when deleting, so of concurrent deletes exactly one sees it).
 */
function rowWrites(db: Kysely<any>) {
  const returning = !(db.introspection instanceof MysqlIntrospector)
  const byKey = (key: Key) => (eb: any) => eb.and(key)
  return {
    returning,
    /** Whether the dialect has `SELECT … FOR UPDATE` (SQLite has no row locks: one writer at a time). */
    rowLocks: !(db.introspection instanceof SqliteIntrospector),
    async insert<Row>(table: string, key: Key, values: Record<string, unknown>): Promise<Row> {
      if (returning) return (await db.insertInto(table).values(values).returningAll().executeTakeFirstOrThrow()) as Row
      return db.transaction().execute(async (trx) => {
        await trx.insertInto(table).values(values).execute()
        return (await trx.selectFrom(table).selectAll().where(byKey(key)).executeTakeFirstOrThrow()) as Row
      })
    },
    async update<Row>(table: string, key: Key, changes: Record<string, unknown>): Promise<Row | undefined> {
      if (returning) return (await db.updateTable(table).set(changes).where(byKey(key)).returningAll().executeTakeFirst()) as Row | undefined
      return db.transaction().execute(async (trx) => {
        await trx.updateTable(table).set(changes).where(byKey(key)).execute()
        return (await trx.selectFrom(table).selectAll().where(byKey(key)).executeTakeFirst()) as Row | undefined
      })
    },
    async remove<Row>(table: string, key: Key, within?: Transaction<any>): Promise<Row | undefined> {
      if (returning) return (await (within ?? db).deleteFrom(table).where(byKey(key)).returningAll().executeTakeFirst()) as Row | undefined
      const run = async (trx: Transaction<any>): Promise<Row | undefined> => {
        const row = await trx.selectFrom(table).selectAll().where(byKey(key)).forUpdate().executeTakeFirst()
        if (!row) return undefined
        // Only the caller whose DELETE removed the row has it, whatever the isolation level lets the SELECT see.
        const { numDeletedRows } = await trx.deleteFrom(table).where(byKey(key)).executeTakeFirst()
        return numDeletedRows > 0n ? (row as Row) : undefined
      }
      return within ? run(within) : db.transaction().execute(run)
    },
  }
}
