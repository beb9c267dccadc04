/**
 * Sign in with Todoist, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig, UserinfoEndpointConfig } from "./oauth.js"
import { endpointUrl } from "./oauth.js"

/**
 * The user of the Sync API (`resource_types: ["user"]`), abridged.
 *
 * @see https://developer.todoist.com/sync/v9/#user
 */
export interface TodoistProfile {
  id: string
  email: string
  full_name: string
  avatar_big?: string | null
  avatar_medium?: string | null
  avatar_small?: string | null
  lang?: string
  tz_info?: Record<string, unknown>
  is_premium?: boolean
  [claim: string]: unknown
}

const syncUrl = "https://api.todoist.com/sync/v9/sync"

/**
 * Todoist. Requests `data:read` and authenticates in the token request's body. The user is read with
 * a Sync API request.
 *
 * @example
 * ```ts
 * import Todoist from "authflow/providers/todoist"
 *
 * // AUTH_TODOIST_ID and AUTH_TODOIST_SECRET are read from the environment
 * const config = { providers: [Todoist] }
 * // or explicitly:
 * Todoist({ clientId: process.env.AUTH_TODOIST_ID, clientSecret: process.env.AUTH_TODOIST_SECRET })
 * ```
 * @see https://developer.todoist.com/guides/#oauth
 */
export default function Todoist(options: OAuthUserConfig<TodoistProfile> = {}): OAuthConfig<TodoistProfile> {
  return {
    id: "todoist",
    name: "Todoist",
    type: "oauth",
    authorization: { url: "https://todoist.com/oauth/authorize", params: { scope: "data:read" } },
    token: "https://todoist.com/oauth/access_token",
    userinfo: {
      url: syncUrl,
      async request({ tokens, provider, fetch }) {
        const response = await fetch(endpointUrl(provider.userinfo as UserinfoEndpointConfig<TodoistProfile>) ?? syncUrl, {
          method: "POST",
          headers: { Authorization: `Bearer ${tokens.access_token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ sync_token: "*", resource_types: '["user"]' }),
        })
        if (!response.ok) throw new Error(`Todoist sync answered ${response.status}`)
        const { user } = (await response.json()) as { user?: TodoistProfile }
        if (!user) throw new Error("Todoist sync answered without a user")
        return user
      },
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return { id: String(profile.id), name: profile.full_name ?? null, email: profile.email ?? null, image: profile.avatar_big ?? null }
    },
    style: { brandColor: "#e44332", bg: "#e44332", text: "#000" },
    options,
  }
}
