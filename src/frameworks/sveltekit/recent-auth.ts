/**
 * `requireRecentAuth` of `SvelteKitAuth()`: in a `load` or form action, checks that the signed-in
 * user authenticated recently enough, and otherwise redirects (303) through `<basePath>/step-up`,
 * which asks for their second factor again (the session stays) or for a sign-in, and back to the
 * page.
 *
 * @module
 */
import { redirect, type RequestEvent } from "@sveltejs/kit"
import type { EnvObject } from "../../core/env.js"
import { checkRecentAuth } from "../shared/recent-auth.js"
import { actionUrl } from "./actions.js"
import type { SvelteKitAuthConfig, SvelteKitRequireRecentAuth } from "./types.js"


/**
 * The `requireRecentAuth` of `SvelteKitAuth()`.
 *
 * @example
 * ```ts
 * const requireRecentAuth = createRequireRecentAuth(resolveConfig, env)
 * ```
 */
export function createRequireRecentAuth(resolveConfig: (event: RequestEvent) => Promise<SvelteKitAuthConfig>, env: EnvObject): SvelteKitRequireRecentAuth {
  return async (event, demand) => {
    const config = await resolveConfig(event)
    const result = await checkRecentAuth(demand, { config, url: actionUrl("step-up", event, config, env), headers: event.request.headers, callbackUrl: event.url.href })
    if (!result.recent) redirect(303, result.redirectTo)
    return result as Extract<typeof result, { recent: true }>
  }
}
