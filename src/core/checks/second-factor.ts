/**
 * The configuration checks of second factors: an adapter with every method they store their data
 * with. Loaded by the first configuration that turns `secondFactor` on (`checkConfig`).
 *
 * @module
 */
import { MissingAdapter, MissingAdapterMethods, type AuthError } from "../errors.js"
import { missingSecondFactorMethods } from "../second-factor-methods.js"
import type { Adapter } from "../../adapters.js"

/**
 * Second factors' adapter: refused without one, or when it lacks a method they call.
 *
 * @example
 * ```ts
 * const error = checkSecondFactorAdapter(config.adapter)
 * if (error) return refuse(error) // MissingAdapter or MissingAdapterMethods
 * ```
 */
export function checkSecondFactorAdapter(adapter: Adapter | undefined): AuthError | undefined {
  if (!adapter) return new MissingAdapter("Second factors need an adapter that stores them: add `adapter`, or turn `secondFactor` off")
  const missing = missingSecondFactorMethods(adapter)
  if (missing.length) return new MissingAdapterMethods(`Second factors need the adapter methods ${missing.join(", ")}: add them to your adapter, use authflow's, or turn \`secondFactor\` off`)
  return undefined
}
