/**
 * Sign in with the Concept2 Logbook, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /api/users/me`: the user inside `data`.
 *
 * @see https://log.concept2.com/developers/documentation/#users-me
 */
export interface Concept2Profile {
  data: {
    id: number
    username: string
    first_name: string
    last_name: string
    gender?: string
    dob?: string
    email: string
    country?: string
    profile_image: string | null
    age_restricted?: boolean
    email_permission?: boolean | null
    max_heart_rate?: number | null
    weight?: number | null
    logbook_privacy?: string | null
  }
  [claim: string]: unknown
}

/**
 * Concept2. Requests `user:read,results:write` (Concept2 separates scopes with commas).
 *
 * @example
 * ```ts
 * import Concept2 from "authflow/providers/concept2"
 *
 * // AUTH_CONCEPT2_ID and AUTH_CONCEPT2_SECRET are read from the environment
 * const config = { providers: [Concept2] }
 * // or explicitly:
 * Concept2({ clientId: process.env.AUTH_CONCEPT2_ID, clientSecret: process.env.AUTH_CONCEPT2_SECRET })
 * ```
 * @see https://log.concept2.com/developers/documentation/
 */
export default function Concept2(options: OAuthUserConfig<Concept2Profile> = {}): OAuthConfig<Concept2Profile> {
  return {
    id: "concept2",
    name: "Concept2",
    type: "oauth",
    authorization: { url: "https://log.concept2.com/oauth/authorize", params: { scope: "user:read,results:write" } },
    token: "https://log.concept2.com/oauth/access_token",
    userinfo: "https://log.concept2.com/api/users/me",
    profile(profile) {
      return { id: String(profile.data.id), name: profile.data.username, email: profile.data.email ?? null, image: profile.data.profile_image ?? null }
    },
    style: { brandColor: "#003a70", bg: "#003a70", text: "#fff" },
    options,
  }
}
