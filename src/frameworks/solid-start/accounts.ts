/**
 * The browser's signed-in accounts (`multiSession`) from SolidStart server functions:
 * `listAccounts(event, config)` and `switchAccount(event, config, id)`, with the results of
 * `authflow/client`'s. Each runs `<prefix>/sessions` through `Auth()` on the request's cookies and
 * sets the cookies it answers on `event.response`. `switchAccount` refuses a cross-site request
 * (`{ ok: false, error: "MissingCSRF", status: 403 }`), as the factor functions do.
 *
 * @module
 */
import { listAccountsOf, switchAccountOf, type Accounts, type SwitchAccountResult } from "../shared/accounts.js"
import { callContext, crossSite, type FactorEvent } from "./factors.js"
import type { GetSessionConfig } from "./session.js"

/**
 * The browser's accounts: the active session and the others.
 *
 * @example
 * ```ts
 * const accounts = query(async () => {
 *   "use server"
 *   return listAccounts(getRequestEvent()!, authConfig)
 * }, "accounts")
 * ```
 */
export async function listAccounts(event: FactorEvent, config: GetSessionConfig): Promise<Accounts> {
  return listAccountsOf(callContext(event, config, "sessions"))
}

/**
 * Makes another account (its `id` from {@link listAccounts}) the active one.
 *
 * @example
 * ```ts
 * const useAccount = action(async (id: string) => {
 *   "use server"
 *   return switchAccount(getRequestEvent()!, authConfig, id)
 * })
 * ```
 */
export async function switchAccount(event: FactorEvent, config: GetSessionConfig, id: string): Promise<SwitchAccountResult> {
  if (crossSite(event.request)) return { ok: false, error: "MissingCSRF", status: 403 }
  return switchAccountOf(id, callContext(event, config, "sessions"))
}
