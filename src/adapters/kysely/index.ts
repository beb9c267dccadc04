/**
 * The SQL adapter on Kysely, for PostgreSQL (pg), SQLite (better-sqlite3) and MySQL or MariaDB (mysql2).
 *
 * @example
 * ```ts
 * import { KyselyAdapter, createSqliteDatabase, migrateToLatest } from "authflow/adapters/kysely"
 * const db = createSqliteDatabase("auth.sqlite")
 * await migrateToLatest(db)
 * const config = { adapter: KyselyAdapter(db), session: { strategy: "database" }, providers: [] }
 * ```
 * @module
 */
export { KyselyAdapter } from "./adapter.js"
export { authflowMigrationTable, migrateToLatest } from "./migrate.js"
export { createMysqlDatabase } from "./mysql.js"
export { createPostgresDatabase } from "./postgres.js"
export { createSqliteDatabase } from "./sqlite.js"
export type {
  AccountsTable,
  AuthenticatorsTable,
  AuthflowDatabase,
  BackupCodesTable,
  BigIntColumn,
  BooleanColumn,
  DateColumn,
  FactorsTable,
  NullableDateColumn,
  SessionsTable,
  UsersTable,
  VerificationTokensTable,
} from "./schema.js"
