/**
 * Connects the SQL adapter to MySQL or MariaDB.
 *
 * @example
 * ```ts
 * import { createMysqlDatabase } from "authflow/adapters/kysely"
 * const db = createMysqlDatabase("mysql://root@127.0.0.1:3306/app")
 * ```
 * @module
 */
import type { PoolOptions } from "mysql2"
import { Kysely, MysqlDialect } from "kysely"
import { loadDriver } from "./driver.js"
import type { AuthflowDatabase } from "./schema.js"

/**
 * Creates a `mysql2` connection pool from a connection string or pool options and returns it as a
 * `Kysely<AuthflowDatabase>`. The pool reads `DATETIME` columns as UTC (`timezone: "Z"`), which is
 * how the adapter writes them; a pool of your own passed to `MysqlDialect` needs the same option.
 * Connections open lazily; `db.destroy()` ends the pool.
 *
 * @example
 * ```ts
 * const db = createMysqlDatabase({ host: "127.0.0.1", user: "root", database: "app" })
 * await migrateToLatest(db)
 * const adapter = KyselyAdapter(db)
 * ```
 */
export function createMysqlDatabase(config: PoolOptions | string): Kysely<AuthflowDatabase> {
  const options: PoolOptions = typeof config === "string" ? { uri: config } : config
  const { createPool } = loadDriver<typeof import("mysql2")>("mysql2", "createMysqlDatabase")
  const pool = createPool({ ...options, timezone: "Z" })
  return new Kysely<AuthflowDatabase>({ dialect: new MysqlDialect({ pool }) })
}
