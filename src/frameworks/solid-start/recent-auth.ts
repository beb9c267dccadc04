/**
 * `requireRecentAuth` for SolidStart: in a server query or `"use server"` function, checks that the
 * signed-in user authenticated recently enough, and otherwise throws a redirect through
 * `<prefix>/step-up`, which asks for their second factor again (the session stays) or for a
 * sign-in, and back to the page.
 *
 * @module
 */
import type { FetchEvent } from "@solidjs/start/server"
import { checkRecentAuth, type RecentAuthDemand } from "../shared/recent-auth.js"
import { derivedConfig, processEnv } from "./config.js"
import type { GetSessionConfig } from "./session.js"

/**
 * Resolves with when and how the user authenticated when they meet the demand; otherwise throws a
 * redirect `Response` (302) to the step-up, back to `callbackUrl` (by default the request's URL),
 * which @solidjs/router performs.
 *
 * @example
 * ```ts
 * const verified = query(async () => {
 *   "use server"
 *   const { authTime } = await requireRecentAuth(getRequestEvent()!, authConfig, { maxAge: 300, factor: "second" })
 *   return authTime.toISOString()
 * }, "verified")
 * ```
 */
export async function requireRecentAuth(event: FetchEvent | Request, config: GetSessionConfig, demand: RecentAuthDemand): Promise<{ recent: true; authTime: Date; amr: string[] }> {
  const request = event instanceof Request ? event : event.request
  // `trustHost` defaults to true, as for getSession: the request never leaves the server.
  const { prefix, config: authConfig } = derivedConfig(config, processEnv(), true)
  const result = await checkRecentAuth(demand, { config: authConfig, url: new URL(`${prefix}/step-up`, request.url), headers: request.headers, callbackUrl: request.url })
  if (!result.recent) throw new Response(null, { status: 302, headers: { Location: result.redirectTo } })
  return result as Extract<typeof result, { recent: true }>
}
