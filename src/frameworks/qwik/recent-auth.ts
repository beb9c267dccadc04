/**
 * `requireRecentAuth` of `QwikAuth$()`: in a `routeLoader$` or action, checks that the signed-in
 * user authenticated recently enough, and otherwise redirects through `/auth/step-up`, which asks
 * for their second factor again (the session stays) or for a sign-in, and back to the page.
 *
 * @module
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { checkRecentAuth, type RecentAuthDemand } from "../shared/recent-auth.js"
import type { AuthConfig } from "../../types.js"
import { qwikBasePath } from "./env.js"

/**
 * Resolves with when and how the user authenticated when they meet the demand; otherwise throws
 * Qwik City's redirect to the step-up (back to `callbackUrl`, by default the event's URL).
 *
 * @example
 * ```ts
 * // src/routes/settings/security/index.tsx
 * export const useVerified = routeLoader$(async (event) => {
 *   const { authTime } = await requireRecentAuth(event, { maxAge: 300, factor: "second" })
 *   return authTime.toISOString()
 * })
 * ```
 */
export type QwikRequireRecentAuth = (event: RequestEventCommon, demand: RecentAuthDemand) => Promise<{ recent: true; authTime: Date; amr: string[] }>

/**
 * The `requireRecentAuth` of `QwikAuth$()`, for a configuration resolved per event.
 *
 * @example
 * ```ts
 * const requireRecentAuth = qwikRequireRecentAuth((event) => configFor(configQrl, event))
 * ```
 */
export function qwikRequireRecentAuth(configOf: (event: RequestEventCommon) => Promise<Omit<AuthConfig, "raw">>): QwikRequireRecentAuth {
  return async (event, demand) => {
    const result = await checkRecentAuth(demand, { config: await configOf(event), url: new URL(`${qwikBasePath}/step-up`, event.url), headers: event.request.headers, callbackUrl: event.url.href })
    if (!result.recent) throw event.redirect(302, result.redirectTo)
    return result as Extract<typeof result, { recent: true }>
  }
}
