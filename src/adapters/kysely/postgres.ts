/**
 * Connects the SQL adapter to PostgreSQL.
 *
 * @example
 * ```ts
 * import { createPostgresDatabase } from "authflow/adapters/kysely"
 * const db = createPostgresDatabase("postgres://postgres@127.0.0.1:5432/app")
 * ```
 * @module
 */
import type pg from "pg"
import { Kysely, PostgresDialect } from "kysely"
import { loadDriver } from "./driver.js"
import type { AuthflowDatabase } from "./schema.js"

/**
 * Creates a `pg` connection pool from a connection string or a pool configuration and returns it
 * as a `Kysely<AuthflowDatabase>`. Connections open lazily; `db.destroy()` ends the pool.
 * To keep authflow's tables in their own schema, set the search path in the pool configuration.
 *
 * @example
 * ```ts
 * const db = createPostgresDatabase(process.env.DATABASE_URL!)
 * // or, with the tables in schema "auth":
 * const scoped = createPostgresDatabase({ host: "127.0.0.1", database: "app", options: "-c search_path=auth" })
 * ```
 */
export function createPostgresDatabase(config: pg.PoolConfig | string): Kysely<AuthflowDatabase> {
  const { Pool } = loadDriver<typeof pg>("pg", "createPostgresDatabase")
  const pool = new Pool(typeof config === "string" ? { connectionString: config } : config)
  return new Kysely<AuthflowDatabase>({ dialect: new PostgresDialect({ pool }) })
}
