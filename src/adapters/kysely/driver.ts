/**
 * Loads a database driver when its factory is called, so that the SQL adapter's entry needs only
 * the driver of the database in use (`pg`, `better-sqlite3` or `mysql2`, each an optional peer).
 * @module
 */
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)

/**
 * The driver package `name`, or an error saying how to install it.
 *
 * @example
 * ```ts
 * const { Pool } = loadDriver<typeof import("pg")>("pg", "createPostgresDatabase")
 * ```
 */
export function loadDriver<T>(name: string, factory: string): T {
  try {
    return require(name) as T
  } catch (error) {
    const missing = (error as { code?: unknown }).code === "MODULE_NOT_FOUND"
    if (!missing) throw error
    throw new Error(`${factory} needs the "${name}" package: install it with npm install ${name}`, { cause: error })
  }
}
