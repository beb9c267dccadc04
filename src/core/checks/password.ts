/**
 * The configuration checks of the Password provider (a credentials provider with
 * `passwordAccounts`): an adapter that keeps the accounts, a mailer when addresses must be verified,
 * known `verifyBy` and `resetBy` values, and `deleteUserSessions` when a password change ends other
 * database sessions. Loaded by the first configuration with such a provider (`checkConfig`).
 *
 * @module
 */
import { InvalidProvider, MissingAdapter, MissingAdapterMethods, type AuthError } from "../errors.js"
import type { AuthConfig } from "../../types.js"
import type { Adapter } from "../../adapters.js"
import type { CheckedProviderConfig } from "./checked.js"

const verifyByOf = (provider: CheckedProviderConfig) => (provider.type === "credentials" ? provider.passwordAccounts?.verifyBy : undefined)
const resetByOf = (provider: CheckedProviderConfig) => (provider.type === "credentials" ? provider.passwordAccounts?.resetBy : undefined)
const ways = ["link", "code", "both"]

/**
 * What the Password providers among `checked` ask of the configuration; the adapter methods they
 * call are added to `required` (checked with the others at the end).
 *
 * @example
 * ```ts
 * const error = checkPasswordAccounts(config, checked, required)
 * if (error) return refuse(error) // MissingAdapter, InvalidProvider or MissingAdapterMethods
 * ```
 */
export function checkPasswordAccounts(config: AuthConfig, checked: readonly CheckedProviderConfig[], required: Set<keyof Adapter>): AuthError | undefined {
  const adapter = config.adapter
  if (!adapter) return new MissingAdapter("The Password provider keeps accounts in a database: add `adapter`")
  // getUser: a signed-in password change reads the account's user.
  for (const method of ["getUserByEmail", "getAccount", "linkAccount", "updateAccountTokens", "getUser"] as const) required.add(method)
  const unmailed = checked.find((provider) => provider.type === "credentials" && provider.passwordAccounts?.verification === "required" && !provider.passwordAccounts.sendMail)
  if (unmailed) return new InvalidProvider(`The Password provider "${unmailed.id}" requires verified addresses but cannot mail the link: pass Password({ verification: "required", sendMail })`)
  const unknownVerifyBy = checked.find((provider) => verifyByOf(provider) !== undefined && !ways.includes(verifyByOf(provider)!))
  if (unknownVerifyBy) return new InvalidProvider(`The Password provider "${unknownVerifyBy.id}" has verifyBy ${JSON.stringify(verifyByOf(unknownVerifyBy))}: use "link", "code" or "both"`)
  const unknownResetBy = checked.find((provider) => resetByOf(provider) !== undefined && !ways.includes(resetByOf(provider)!))
  if (unknownResetBy) return new InvalidProvider(`The Password provider "${unknownResetBy.id}" has resetBy ${JSON.stringify(resetByOf(unknownResetBy))}: use "link", "code" or "both"`)
  // The mailed links (verify an address, confirm a new one) read the user by id and write it.
  if (checked.some((provider) => provider.type === "credentials" && provider.passwordAccounts?.sendMail)) for (const method of ["getUser", "updateUser"] as const) required.add(method)
  // A password reset or change ends the user's other database sessions: at once, by deleting their rows.
  const ending = checked.find((provider) => provider.type === "credentials" && provider.passwordAccounts && provider.passwordAccounts.endOtherSessions !== false)
  if (ending && (config.session?.strategy ?? "database") === "database" && typeof adapter.deleteUserSessions !== "function") {
    return new MissingAdapterMethods(`The Password provider "${ending.id}" ends a user's other sessions when their password changes, which with database sessions needs the adapter method deleteUserSessions: add it, use authflow's adapter, or pass Password({ endOtherSessions: false })`)
  }
  return undefined
}
