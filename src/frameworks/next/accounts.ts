/**
 * The browser's signed-in accounts (`multiSession`) from Server Actions, Server Components and
 * Route Handlers: `listAccounts` and `switchAccount` of `NextAuth()`, with the names of
 * `authflow/client`'s. Each runs `<basePath>/sessions` through `Auth()` on the incoming request's
 * cookies and writes the cookies it sets through Next's cookie store, so `switchAccount` belongs in
 * a Server Action or Route Handler.
 *
 * @module
 */
import { serverAccounts, type ServerAccounts } from "../shared/accounts.js"
import { actionUrl, incomingHeaders, writeCookies, type ConfigResolver } from "./actions.js"

/**
 * The account functions of `NextAuth()` (see the module).
 *
 * @example
 * ```ts
 * // auth.ts
 * export const { handlers, auth, listAccounts, switchAccount } = NextAuth({ ...config, multiSession: true })
 *
 * // app/accounts/actions.ts
 * "use server"
 * export async function useAccount(id: string) {
 *   await switchAccount(id)
 * }
 * ```
 */
export function createAccountFunctions(resolve: ConfigResolver): ServerAccounts {
  return serverAccounts(async () => {
    const headers = await incomingHeaders()
    const config = await resolve()
    return { config, url: actionUrl("sessions", headers, config), headers, setCookies: writeCookies }
  })
}
