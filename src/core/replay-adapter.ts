/**
 * What a replay store in the adapter's database needs of the adapter: its verification-token
 * methods, and telling a unique-key violation from other failures. Apart from `replay-store.ts`,
 * so that the package's entry exports `isUniqueViolation`, and checks an adapter where
 * `adapterReplayStore` is called, without loading the stores (see `stores.ts`).
 *
 * @module
 */
import type { Adapter } from "../adapters.js"

/**
 * The adapter's `createVerificationToken` and `useVerificationToken`, read once; a `TypeError`
 * when it has no `createVerificationToken`.
 *
 * @example
 * ```ts
 * const { createToken, useToken } = verificationTokenMethods(adapter)
 * ```
 */
export function verificationTokenMethods(adapter: Adapter): { createToken: NonNullable<Adapter["createVerificationToken"]>; useToken: Adapter["useVerificationToken"] } {
  const createToken = adapter.createVerificationToken
  if (!createToken) {
    throw new TypeError("adapterReplayStore needs an adapter with createVerificationToken: add it to the adapter, or pass replayStore: redisReplayStore(client)")
  }
  return { createToken, useToken: adapter.useVerificationToken }
}

/**
 * Whether `error` (or an error in its `cause` chain, or a cause's `err`) is a unique-key violation:
 * PostgreSQL `23505`, SQLite `SQLITE_CONSTRAINT_PRIMARYKEY` / `_UNIQUE` (codes 1555 / 2067),
 * MySQL and MariaDB `ER_DUP_ENTRY` (1062), Prisma `P2002`, and `UNIQUE_VIOLATION`, the code of the
 * memory adapter's duplicate errors and the one a custom adapter can set.
 *
 * @example
 * ```ts
 * try { await adapter.createVerificationToken!(row) } catch (error) { if (isUniqueViolation(error)) return false; throw error }
 * ```
 */
export function isUniqueViolation(error: unknown): boolean {
  const seen = new Set<unknown>()
  for (let current = error; current !== null && typeof current === "object" && !seen.has(current); ) {
    seen.add(current)
    const { code, errno, rawCode, cause } = current as { code?: unknown; errno?: unknown; rawCode?: unknown; cause?: unknown }
    if (code === "23505" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE") return true
    if (code === "ER_DUP_ENTRY" || code === "P2002" || code === "UNIQUE_VIOLATION") return true
    if (errno === 1062 || rawCode === 1555 || rawCode === 2067) return true
    current = cause !== null && typeof cause === "object" && !(cause instanceof Error) && "err" in cause ? (cause as { err: unknown }).err : cause
  }
  return false
}
