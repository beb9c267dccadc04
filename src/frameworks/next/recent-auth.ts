/**
 * `requireRecentAuth` of `NextAuth()`: before a sensitive action, checks that the signed-in user
 * authenticated recently enough, and otherwise redirects (Next's `redirect()`) through
 * `<basePath>/step-up`, which asks for their second factor again (the session stays) or for a
 * sign-in, and sends them back to `callbackUrl`.
 *
 * @module
 */
import { checkRecentAuth, type RecentAuthDemand } from "../shared/recent-auth.js"
import { actionUrl, incomingHeaders, type ConfigResolver } from "./actions.js"
import { nextNavigation } from "./next-modules.js"

/** What a Next.js page or action demands: `callbackUrl` is required, as a Server Component does not know its own URL. */
export type NextRecentAuthDemand = RecentAuthDemand & { callbackUrl: string }

/**
 * Resolves with when and how the user authenticated when they meet the demand; otherwise redirects
 * (it throws Next's redirect, so call it outside `try`).
 *
 * @example
 * ```ts
 * // app/settings/security/page.tsx
 * import { requireRecentAuth } from "@/auth"
 * export default async function SecurityPage() {
 *   const { authTime } = await requireRecentAuth({ maxAge: 300, factor: "second", callbackUrl: "/settings/security" })
 *   return <p>Verified at {authTime.toLocaleTimeString()}</p>
 * }
 * ```
 */
export type NextRequireRecentAuth = (demand: NextRecentAuthDemand) => Promise<{ recent: true; authTime: Date; amr: string[] }>

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
