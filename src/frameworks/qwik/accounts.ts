/**
 * The browser's signed-in accounts (`multiSession`) from Qwik City server code (a `routeLoader$`,
 * a `routeAction$`): `listAccounts(event, config)` and `switchAccount(event, config, id)`, with
 * the results of `authflow/client`'s. Each runs `/auth/sessions` through `Auth()` on the event's
 * cookies (no CSRF token: Qwik City checks the origin of actions) and writes the cookies it sets
 * through `event.cookie`.
 *
 * @module
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { listAccountsOf, switchAccountOf, type Accounts, type AccountCallContext, type SwitchAccountResult } from "../shared/accounts.js"
import type { AuthConfig } from "../../types.js"
import { writeCookies } from "./cookies.js"
import { qwikBasePath, setQwikEnvDefaults } from "./env.js"

function contextOf(event: RequestEventCommon, given: Omit<AuthConfig, "raw">): AccountCallContext {
  const config = { ...given }
  setQwikEnvDefaults(event.env, config)
  return { config, url: new URL(`${qwikBasePath}/sessions`, event.url), headers: event.request.headers, clientAddress: event.clientConn?.ip, setCookies: (cookies) => writeCookies(event.cookie, cookies) }
}

/**
 * The browser's accounts: the active session and the others.
 *
 * @example
 * ```ts
 * export const useAccounts = routeLoader$((event) => listAccounts(event, authConfig))
 * ```
 */
export async function listAccounts(event: RequestEventCommon, config: Omit<AuthConfig, "raw">): Promise<Accounts> {
  return listAccountsOf(contextOf(event, config))
}

/**
 * Makes another account (its `id` from {@link listAccounts}) the active one.
 *
 * @example
 * ```ts
 * export const useSwitchAccount = routeAction$(({ account }, event) => switchAccount(event, authConfig, String(account)))
 * ```
 */
export async function switchAccount(event: RequestEventCommon, config: Omit<AuthConfig, "raw">, id: string): Promise<SwitchAccountResult> {
  return switchAccountOf(id, contextOf(event, config))
}
