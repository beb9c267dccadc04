/**
 * The Password provider: accounts authflow keeps itself, an email and a password hashed with a
 * memory-hard hash (scrypt, parameters in the hash), signed in through the password sign-in
 * machine: an unknown email takes as long and ends as a wrong password does, a hash made with older
 * parameters is replaced at sign-in, and attempts count against the rate limits.
 *
 * The hash lives in the user's account row of provider `password` (its `refresh_token` column, so
 * that every Auth.js schema can carry it, and the adapter's compare-and-set `updateAccountTokens`
 * replaces it atomically).
 *
 * @module
 */
import type { CredentialsConfig, PasswordAccountsOptions } from "../types.js"

export type { PasswordMail } from "../types.js"

/** Options of {@link Password}. */
export interface PasswordOptions extends PasswordAccountsOptions {
  /** @default "password" */
  id?: string
  /** @default "Password" */
  name?: string
}

/**
 * The Password provider. It needs an adapter with `getUserByEmail`, `getAccount`, `linkAccount`
 * and `updateAccountTokens` (authflow's memory and Kysely adapters have them).
 *
 * @example
 * ```ts
 * import Password from "authflow/providers/password"
 * import { MemoryAdapter } from "authflow/adapters/memory"
 *
 * const config = { adapter: MemoryAdapter(), providers: [Password({ verification: "required" })] }
 * ```
 */
export default function Password(options: PasswordOptions = {}): CredentialsConfig<{ email: { label: string; type: string }; password: { label: string; type: string } }> {
  const { id = "password", name = "Password", ...accounts } = options
  return {
    id,
    name,
    type: "credentials",
    credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
    // Never called: the password sign-in machine checks the password.
    authorize: () => null,
    passwordAccounts: { verification: "optional", ...accounts },
  }
}
