/**
 * `requireRecentAuth` of `NextAuth()`: before a sensitive action, checks that the signed-in user
 * authenticated recently enough, and otherwise redirects (Next's `redirect()`) through
 * `<basePath>/step-up`, which asks for their second factor again (the session stays) or for a
 * sign-in, and sends them back to `callbackUrl`.
 *
 * @module
 */
import { checkRecentAuth } from "../shared/recent-auth.js"
import type { NextRequireRecentAuth } from "./types.js"
import { actionUrl, incomingHeaders, type ConfigResolver } from "./actions.js"
import { nextNavigation } from "./next-modules.js"



/**
 * The `requireRecentAuth` of `NextAuth()`.
 *
 * @example
 * ```ts
 * const requireRecentAuth = createRequireRecentAuth(() => resolve(undefined))
 * ```
 */
export function createRequireRecentAuth(resolve: ConfigResolver): NextRequireRecentAuth {
  return async (demand) => {
    const headers = await incomingHeaders()
    const config = await resolve()
    const result = await checkRecentAuth(demand, { config, url: actionUrl("step-up", headers, config), headers, callbackUrl: demand.callbackUrl })
    if (!result.recent) (await nextNavigation()).redirect(result.redirectTo)
    return result as Extract<typeof result, { recent: true }>
  }
}
