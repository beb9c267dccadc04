/**
 * Sign in with Strava, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The athlete as `GET /api/v3/athlete` returns it (abridged).
 *
 * @see https://developers.strava.com/docs/reference/#api-Athletes-getLoggedInAthlete
 */
export interface StravaProfile {
  id: number
  username: string | null
  firstname: string
  lastname: string
  profile: string
  profile_medium?: string
  city?: string | null
  country?: string | null
  sex?: "M" | "F" | null
  premium?: boolean
  summit?: boolean
  created_at?: string
  [claim: string]: unknown
}

/**
 * Strava. Requests `read` and authenticates in the token request's body. Strava gives no email.
 *
 * @example
 * ```ts
 * import Strava from "authflow/providers/strava"
 *
 * // AUTH_STRAVA_ID and AUTH_STRAVA_SECRET are read from the environment
 * const config = { providers: [Strava] }
 * // or explicitly:
 * Strava({ clientId: process.env.AUTH_STRAVA_ID, clientSecret: process.env.AUTH_STRAVA_SECRET })
 * ```
 * @see https://developers.strava.com/docs/authentication/
 */
export default function Strava(options: OAuthUserConfig<StravaProfile> = {}): OAuthConfig<StravaProfile> {
  return {
    id: "strava",
    name: "Strava",
    type: "oauth",
    authorization: { url: "https://www.strava.com/api/v3/oauth/authorize", params: { scope: "read", approval_prompt: "auto" } },
    token: "https://www.strava.com/api/v3/oauth/token",
    userinfo: "https://www.strava.com/api/v3/athlete",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return { id: String(profile.id), name: [profile.firstname, profile.lastname].filter(Boolean).join(" ") || profile.username, email: null, image: profile.profile ?? null }
    },
    style: { brandColor: "#fc4c02", bg: "#fc4c02", text: "#fff" },
    options,
  }
}
