/**
 * The browser's signed-in accounts (`multiSession`) from server code: `listAccounts(event)` for a
 * `load` and `switchAccount(event, id)` for a form action, returned by `SvelteKitAuth()`. Each runs
 * `<basePath>/sessions` through `Auth()` on the event's cookies (no CSRF token: SvelteKit checks
 * the origin of form posts) and writes the cookies it sets through `event.cookies`.
 *
 * @module
 */
import type { RequestEvent } from "@sveltejs/kit"
import type { EnvObject } from "../../core/env.js"
import { listAccountsOf, switchAccountOf, type AccountCallContext } from "../shared/accounts.js"
import { actionUrl, clientAddressOf, writeCookies } from "./actions.js"
import type { SvelteKitAccountActions, SvelteKitAuthConfig } from "./types.js"

/**
 * The account functions for a configuration resolved per event.
 *
 * @example
 * ```ts
 * const accounts = createAccountActions(resolveConfig, env)
 * await accounts.listAccounts(event)
 * ```
 */
export function createAccountActions(resolveConfig: (event: RequestEvent) => Promise<SvelteKitAuthConfig>, env: EnvObject): SvelteKitAccountActions {
  async function contextOf(event: RequestEvent): Promise<AccountCallContext> {
    const config = await resolveConfig(event)
    return { config, url: actionUrl("sessions", event, config, env), headers: event.request.headers, clientAddress: clientAddressOf(event), setCookies: (cookies) => writeCookies(event, cookies) }
  }
  return {
    listAccounts: async (event) => listAccountsOf(await contextOf(event)),
    switchAccount: async (event, id) => {
      const account = id ?? String((await event.request.formData()).get("account") ?? "")
      return switchAccountOf(account, await contextOf(event))
    },
  }
}
