/**
 * The browser's signed-in accounts (`multiSession`) from SolidStart server functions:
 * `listAccounts(event, config)` and `switchAccount(event, config, id)`, with the results of
 * `authflow/client`'s. Each runs `<prefix>/sessions` through `Auth()` on the request's cookies and
 * sets the cookies it answers on `event.response`. `switchAccount` refuses a cross-site request
 * (`{ ok: false, error: "MissingCSRF", status: 403 }`), as the factor functions do.
 *
 * @module
 */
import { serializeCookie } from "../../core/cookies/serialize.js"
import { listAccountsOf, switchAccountOf, type Accounts, type AccountCallContext, type SwitchAccountResult } from "../shared/accounts.js"
import { derivedConfig, processEnv } from "./config.js"
import { crossSite, type FactorEvent } from "./factors.js"
import type { GetSessionConfig } from "./session.js"

function contextOf(event: FactorEvent, config: GetSessionConfig): AccountCallContext {
  const { prefix, config: authConfig } = derivedConfig(config, processEnv(), true)
  return {
    config: authConfig,
    url: new URL(`${prefix}/sessions`, event.request.url),
    headers: event.request.headers,
    clientAddress: event.clientAddress,
    setCookies: (cookies) => {
      for (const { name, value, options } of cookies) event.response.headers.append("set-cookie", serializeCookie(name, value, options))
    },
  }
}

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
  return listAccountsOf(contextOf(event, config))
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
  return switchAccountOf(id, contextOf(event, config))
}
