/**
 * The browser's signed-in accounts (`multiSession`) from Server Actions, Server Components and
 * Route Handlers: `listAccounts` and `switchAccount` of `NextAuth()`, with the names of
 * `authflow/client`'s. Each runs `<basePath>/sessions` through `Auth()` on the incoming request's
 * cookies and writes the cookies it sets through Next's cookie store, so `switchAccount` belongs in
 * a Server Action or Route Handler. `listAccounts` also works in a Server Component, where Next.js
 * refuses cookie writes: the cookies it would re-issue (a sliding expiry) are left for the next
 * request that can write them.
 *
 * @module
 */
import { serverAccounts, type ServerAccounts } from "../shared/accounts.js"
import { actionUrl, incomingHeaders, writeCookies, type ConfigResolver } from "./actions.js"
import type { Cookie } from "../../types.js"

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
  const contextOf = (setCookies: (cookies: Cookie[]) => Promise<void>) => async () => {
    const headers = await incomingHeaders()
    const config = await resolve()
    return { config, url: actionUrl("sessions", headers, config), headers, setCookies }
  }
  // A listing only re-issues cookies: where Next.js refuses writes (a Server Component), they wait for the next request.
  const { listAccounts } = serverAccounts(contextOf((cookies) => writeCookies(cookies).catch(() => {})))
  const { switchAccount } = serverAccounts(contextOf(writeCookies))
  return { listAccounts, switchAccount }
}
