/**
 * The schema of the SQL adapter as Kysely migrations, written in code so they ship with the
 * library and run the same on PostgreSQL, SQLite and MySQL/MariaDB.
 *
 * @example
 * ```ts
 * import { createSqliteDatabase, migrateToLatest } from "authflow/adapters/kysely"
 * const db = createSqliteDatabase("auth.sqlite")
 * await migrateToLatest(db)
 * ```
 * @module
 */
import {
  Migrator,
  MysqlIntrospector,
  PostgresIntrospector,
  SqliteIntrospector,
  sql,
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
  type Migration,
  type MigrationResult,
} from "kysely"
import type { AuthflowDatabase } from "./schema.js"
import { asError } from "../../core/as-error.js"

/** The dialect, and the column types that differ between the dialects (see schema.ts for why these). */
interface DialectTypes {
  dialect: "postgres" | "sqlite" | "mysql"
  moment: "timestamptz" | "text" | "datetime(3)"
  bigint: "bigint" | "integer"
  boolean: "boolean" | "integer"
  /** A key or uniquely indexed text: MySQL indexes no unbounded `text`. */
  key: "text" | "varchar(255)"
  /** A WebAuthn credential ID (base64url): 768 characters is the longest key MySQL takes in utf8mb4. */
  credentialId: "text" | "varchar(768)"
}

/**
 * The dialect of `db`, from its introspector (a public API, unlike the dialect adapter).
 * PostgreSQL-compatible dialects reuse `PostgresIntrospector`, so they are recognised too.
 */
function dialectTypes(db: Kysely<any>): DialectTypes {
  if (db.introspection instanceof PostgresIntrospector)
    return { dialect: "postgres", moment: "timestamptz", bigint: "bigint", boolean: "boolean", key: "text", credentialId: "text" }
  if (db.introspection instanceof SqliteIntrospector)
    return { dialect: "sqlite", moment: "text", bigint: "integer", boolean: "integer", key: "text", credentialId: "text" }
  if (db.introspection instanceof MysqlIntrospector)
    return { dialect: "mysql", moment: "datetime(3)", bigint: "bigint", boolean: "boolean", key: "varchar(255)", credentialId: "varchar(768)" }
  throw new Error(
    "authflow migrations support PostgreSQL, SQLite and MySQL/MariaDB: open the database with createPostgresDatabase, createSqliteDatabase or createMysqlDatabase",
  )
}

/**
 * The PostgreSQL schema unqualified names resolve to. Kysely's Migrator looks for its tables in
 * every schema unless told which one, so with a second copy of authflow's tables in another schema
 * of the same database it would skip creating its own and then fail to find them.
 */
async function currentSchema(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)
  const schema = rows[0]?.schema
  if (!schema) throw new Error("PostgreSQL has no current schema: no schema on the search_path exists")
  return schema
}

/**
 * How a table refers to its user, deleted with the user. MySQL ignores a `REFERENCES` written on a
 * column, so there the key is a table constraint; PostgreSQL and SQLite keep the column form the
 * first release created.
 */
function userReference(types: DialectTypes) {
  const column = (c: ColumnDefinitionBuilder) => (types.dialect === "mysql" ? c.notNull() : c.notNull().references("users.id").onDelete("cascade"))
  const table = <T extends string>(name: T, builder: CreateTableBuilder<T, any>) =>
    types.dialect === "mysql" ? builder.addForeignKeyConstraint(`${name}_user_id_fkey`, ["user_id"], "users", ["id"], (fk) => fk.onDelete("cascade")) : builder
  return { column, table }
}

/** MySQL tables are InnoDB and compare text byte by byte (`utf8mb4_bin`): tokens and credential IDs are case-sensitive. */
function tableOptions<T extends string>(types: DialectTypes, builder: CreateTableBuilder<T, any>) {
  return types.dialect === "mysql" ? builder.modifyEnd(sql`engine = InnoDB default character set utf8mb4 collate utf8mb4_bin`) : builder
}

function migrations(types: DialectTypes): Record<string, Migration> {
  const user = userReference(types)
  return {
    "0001_initial": {
      async up(db: Kysely<any>) {
        const users = db.schema
          .createTable("users")
          .addColumn("id", types.key, (c) => c.primaryKey())
          .addColumn("name", "text")
          .addColumn("email", types.key)
          .addColumn("email_verified", types.moment)
          .addColumn("image", "text")
          .addUniqueConstraint("users_email_key", ["email"])
        await tableOptions(types, users).execute()

        const accounts = db.schema
          .createTable("accounts")
          .addColumn("id", types.key, (c) => c.primaryKey())
          .addColumn("user_id", types.key, user.column)
          .addColumn("type", "text", (c) => c.notNull())
          .addColumn("provider", types.key, (c) => c.notNull())
          .addColumn("provider_account_id", types.key, (c) => c.notNull())
          .addColumn("refresh_token", "text")
          .addColumn("access_token", "text")
          .addColumn("expires_at", types.bigint)
          .addColumn("token_type", "text")
          .addColumn("scope", "text")
          .addColumn("id_token", "text")
          .addColumn("session_state", "text")
          .addUniqueConstraint("accounts_provider_account_key", ["provider", "provider_account_id"])
        await tableOptions(types, user.table("accounts", accounts)).execute()
        await db.schema.createIndex("accounts_user_id_index").on("accounts").column("user_id").execute()

        const sessions = db.schema
          .createTable("sessions")
          .addColumn("id", types.key, (c) => c.primaryKey())
          .addColumn("session_token", types.key, (c) => c.notNull())
          .addColumn("user_id", types.key, user.column)
          .addColumn("expires", types.moment, (c) => c.notNull())
          .addUniqueConstraint("sessions_session_token_key", ["session_token"])
        await tableOptions(types, user.table("sessions", sessions)).execute()
        await db.schema.createIndex("sessions_user_id_index").on("sessions").column("user_id").execute()

        const verificationTokens = db.schema
          .createTable("verification_tokens")
          .addColumn("identifier", types.key, (c) => c.notNull())
          .addColumn("token", types.key, (c) => c.notNull())
          .addColumn("expires", types.moment, (c) => c.notNull())
          .addPrimaryKeyConstraint("verification_tokens_pkey", ["identifier", "token"])
        await tableOptions(types, verificationTokens).execute()

        const authenticators = db.schema
          .createTable("authenticators")
          .addColumn("credential_id", types.credentialId, (c) => c.primaryKey())
          .addColumn("user_id", types.key, user.column)
          .addColumn("provider_account_id", "text", (c) => c.notNull())
          .addColumn("credential_public_key", "text", (c) => c.notNull())
          .addColumn("counter", types.bigint, (c) => c.notNull())
          .addColumn("credential_backed_up", types.boolean, (c) => c.notNull())
          .addColumn("credential_device_type", "text", (c) => c.notNull())
          .addColumn("transports", "text")
        await tableOptions(types, user.table("authenticators", authenticators)).execute()
        await db.schema.createIndex("authenticators_user_id_index").on("authenticators").column("user_id").execute()
      },
    },
    // Second factors: a database migrated before them gains the two tables; nothing else changes.
    "0002_second_factor": {
      async up(db: Kysely<any>) {
        const factors = db.schema
          .createTable("factors")
          .addColumn("id", types.key, (c) => c.primaryKey())
          .addColumn("user_id", types.key, user.column)
          .addColumn("type", "text", (c) => c.notNull())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("secret", "text", (c) => c.notNull())
          .addColumn("algorithm", "text", (c) => c.notNull())
          .addColumn("digits", "integer", (c) => c.notNull())
          .addColumn("period", "integer", (c) => c.notNull())
          .addColumn("last_used_step", types.bigint)
          .addColumn("created_at", types.moment, (c) => c.notNull())
        await tableOptions(types, user.table("factors", factors)).execute()
        await db.schema.createIndex("factors_user_id_index").on("factors").column("user_id").execute()

        // The primary key starts with user_id, so it is the foreign key's index too.
        const backupCodes = db.schema
          .createTable("backup_codes")
          .addColumn("user_id", types.key, user.column)
          .addColumn("code_hash", types.key, (c) => c.notNull())
          .addPrimaryKeyConstraint("backup_codes_pkey", ["user_id", "code_hash"])
        await tableOptions(types, user.table("backup_codes", backupCodes)).execute()
      },
    },
  }
}

/**
 * The table in which authflow records its applied migrations. Kept apart from Kysely's default
 * `kysely_migration` so that an application running its own Kysely migrations on the same
 * database does not see authflow's as unknown (Kysely refuses to run when it finds those).
 *
 * @example
 * ```ts
 * const applied = await sql`select name from ${sql.table(authflowMigrationTable)}`.execute(db)
 * ```
 */
export const authflowMigrationTable = "authflow_migration"

/**
 * Creates or updates authflow's tables to the latest schema: `users`, `accounts`, `sessions`,
 * `verification_tokens`, `authenticators`, `factors`, `backup_codes`, with their keys, unique
 * constraints, cascading foreign keys and indexes. Idempotent: migrations already applied are
 * skipped, so it can run at every start, and a database created by an earlier release gains only
 * what it lacks (`0002_second_factor`: the second factor's tables). Concurrent runs are serialised
 * by Kysely's migration lock.
 *
 * Returns the migrations applied by this call (empty when the schema was up to date) and throws
 * the first migration error.
 *
 * @example
 * ```ts
 * const db = createPostgresDatabase("postgres://postgres@127.0.0.1:5432/app")
 * const applied = await migrateToLatest(db)
 * console.log(applied.map((m) => m.migrationName)) // ["0001_initial", "0002_second_factor"], then [] on the next start
 * ```
 */
export async function migrateToLatest(db: Kysely<AuthflowDatabase>): Promise<MigrationResult[]> {
  const types = dialectTypes(db)
  const migrator = new Migrator({
    db: db,
    provider: { getMigrations: async () => migrations(types) },
    migrationTableName: authflowMigrationTable,
    migrationLockTableName: `${authflowMigrationTable}_lock`,
    migrationTableSchema: types.dialect === "postgres" ? await currentSchema(db) : undefined,
  })
  for (let attempt = 1; ; attempt++) {
    const { error, results = [] } = await migrator.migrateToLatest()
    if (!error) return results
    if (attempt < 5 && isConcurrentCatalogChange(error)) {
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt))
      continue
    }
    throw asError(error)
  }
}

/**
 * Kysely's PostgreSQL introspection (which the Migrator uses to find its tables) reads the catalog
 * of the whole database and resolves schema and table names as it goes; when another client drops
 * a schema or table at that moment, it fails with "schema/relation does not exist". Nothing was
 * migrated then (migrations run in a transaction, after the introspection), so trying again is safe.
 */
function isConcurrentCatalogChange(error: unknown): boolean {
  const code = typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : undefined
  return code === "3F000" || code === "42P01"
}
