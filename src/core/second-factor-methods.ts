/**
 * The adapter methods a second factor (TOTP authenticator apps and backup codes) stores its data
 * with, listed once so the configuration check can name, in one line, those an adapter lacks.
 *
 * @example
 * ```ts
 * import { missingSecondFactorMethods } from "./second-factor-methods.js"
 * const missing = missingSecondFactorMethods(config.adapter)
 * if (missing.length) throw new MissingAdapterMethods(`A second factor needs the adapter methods ${missing.join(", ")}`)
 * ```
 * @module
 */
import type { Adapter } from "../adapters.js"

/**
 * Every adapter method a second factor calls: enrolment, listing, renaming and removing factors,
 * the replay-safe use of a TOTP step, and the backup codes. authflow's memory and Kysely adapters
 * have them all.
 *
 * @example
 * ```ts
 * SECOND_FACTOR_METHODS.includes("useFactorStep") // true
 * ```
 */
export const SECOND_FACTOR_METHODS = [
  "createFactor",
  "listFactorsByUserId",
  "renameFactor",
  "deleteFactor",
  "useFactorStep",
  "replaceBackupCodes",
  "useBackupCode",
  "countBackupCodes",
] as const satisfies readonly (keyof Adapter)[]

/**
 * One of {@link SECOND_FACTOR_METHODS}.
 *
 * @example
 * ```ts
 * const method: SecondFactorAdapterMethod = "useBackupCode"
 * ```
 */
export type SecondFactorAdapterMethod = (typeof SECOND_FACTOR_METHODS)[number]

/**
 * The {@link SECOND_FACTOR_METHODS} `adapter` lacks (not a function), in the list's order; empty
 * when it has them all. Methods inherited from a class count, as they do when authflow calls them.
 *
 * @example
 * ```ts
 * missingSecondFactorMethods(MemoryAdapter()) // []
 * missingSecondFactorMethods({ createFactor() {} } as Adapter) // ["listFactorsByUserId", "renameFactor", …]
 * ```
 */
export function missingSecondFactorMethods(adapter: Adapter): SecondFactorAdapterMethod[] {
  return SECOND_FACTOR_METHODS.filter((method) => typeof adapter[method] !== "function")
}
