/**
 * Opens a SQLite database file for the SQL adapter.
 *
 * @example
 * ```ts
 * import { createSqliteDatabase } from "authflow/adapters/kysely"
 * const db = createSqliteDatabase("auth.sqlite")
 * ```
 * @module
 */
import type Database from "better-sqlite3"
import { Kysely, SqliteDialect } from "kysely"
import { loadDriver } from "./driver.js"
import type { AuthflowDatabase } from "./schema.js"

/**
 * Opens (or creates) the SQLite database at `filename` with better-sqlite3 and returns it as a
 * `Kysely<AuthflowDatabase>`. Turns on foreign keys (SQLite leaves them off per connection, and the
 * cascades depend on them) and write-ahead logging (readers do not block the writer).
 * `db.destroy()` closes the file.
 *
 * @example
 * ```ts
 * const db = createSqliteDatabase(join(dataDir, "auth.sqlite"))
 * await migrateToLatest(db)
 * const adapter = KyselyAdapter(db)
 * // at shutdown
 * await db.destroy()
 * ```
 */
export function createSqliteDatabase(filename: string, options?: Database.Options): Kysely<AuthflowDatabase> {
  const Driver = loadDriver<typeof Database>("better-sqlite3", "createSqliteDatabase")
  const database = new Driver(filename, options)
  database.pragma("journal_mode = WAL")
  database.pragma("foreign_keys = ON")
  return new Kysely<AuthflowDatabase>({ dialect: new SqliteDialect({ database }) })
}
