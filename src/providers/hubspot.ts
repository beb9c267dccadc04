/**
 * Sign in with HubSpot, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig, UserinfoEndpointConfig } from "./oauth.js"
import { endpointUrl } from "./oauth.js"

/**
 * The access token's metadata, from `GET /oauth/v1/access-tokens/<token>`: HubSpot's only source
 * of the user.
 *
 * @see https://developers.hubspot.com/docs/api/oauth/tokens
 */
export interface HubSpotProfile {
  token: string
  user: string
  user_id: number
  hub_id: number
  hub_domain: string
  app_id: number
  expires_in: number
  token_type: string
  scopes?: string[]
  [claim: string]: unknown
}

const tokenInfo = "https://api.hubapi.com/oauth/v1/access-tokens"

/**
 * HubSpot. Requests `oauth` and authenticates in the token request's body. The user is the access
 * token's metadata: its `user` is the email; HubSpot gives no picture.
 *
 * @example
 * ```ts
 * import HubSpot from "authflow/providers/hubspot"
 *
 * // AUTH_HUBSPOT_ID and AUTH_HUBSPOT_SECRET are read from the environment
 * const config = { providers: [HubSpot] }
 * // or explicitly:
 * HubSpot({ clientId: process.env.AUTH_HUBSPOT_ID, clientSecret: process.env.AUTH_HUBSPOT_SECRET })
 * ```
 * @see https://developers.hubspot.com/docs/api/oauth-quickstart-guide
 */
export default function HubSpot(options: OAuthUserConfig<HubSpotProfile> = {}): OAuthConfig<HubSpotProfile> {
  return {
    id: "hubspot",
    name: "HubSpot",
    type: "oauth",
    authorization: { url: "https://app.hubspot.com/oauth/authorize", params: { scope: "oauth" } },
    token: "https://api.hubapi.com/oauth/v1/token",
    userinfo: {
      url: tokenInfo,
      async request({ tokens, provider, fetch }) {
        const base = endpointUrl(provider.userinfo as UserinfoEndpointConfig<HubSpotProfile>) ?? tokenInfo
        const response = await fetch(`${base}/${encodeURIComponent(String(tokens.access_token))}`, { headers: { Accept: "application/json" } })
        if (!response.ok) throw new Error(`HubSpot access-token metadata answered ${response.status}`)
        return (await response.json()) as HubSpotProfile
      },
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return { id: String(profile.user_id), name: profile.user ?? null, email: profile.user ?? null, image: null }
    },
    style: { brandColor: "#ff7a59", bg: "#ff7a59", text: "#fff" },
    options,
  }
}
