/**
 * The configuration checks of email providers: an adapter that stores verification tokens. Loaded
 * by the first configuration with an email provider (`checkConfig`).
 *
 * @module
 */
import { MissingAdapter, type AuthError } from "../errors.js"
import type { Adapter } from "../../adapters.js"

const emailMethods: (keyof Adapter)[] = ["createVerificationToken", "useVerificationToken", "getUserByEmail"]

/**
 * Email sign-in's adapter: refused without one, else the methods it calls are added to `required`
 * (checked with the others at the end).
 *
 * @example
 * ```ts
 * const error = checkEmailAdapter(config.adapter, required)
 * if (error) return refuse(error) // MissingAdapter
 * ```
 */
export function checkEmailAdapter(adapter: Adapter | undefined, required: Set<keyof Adapter>): AuthError | undefined {
  if (!adapter) return new MissingAdapter("Email login requires an adapter")
  for (const method of emailMethods) required.add(method)
  return undefined
}
