/**
 * Sign in with Patreon, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /api/oauth2/api/current_user`: the user inside `data`.
 *
 * @see https://docs.patreon.com/#fetching-a-patron-39-s-profile-info
 */
export interface PatreonProfile {
  data: {
    id: string
    type?: "user"
    attributes: {
      full_name: string
      email?: string
      image_url: string
      thumb_url?: string
      is_email_verified?: boolean
      url?: string
      vanity?: string | null
    }
  }
  [claim: string]: unknown
}

/**
 * Patreon. Requests `identity identity[email]`.
 *
 * @example
 * ```ts
 * import Patreon from "authflow/providers/patreon"
 *
 * // AUTH_PATREON_ID and AUTH_PATREON_SECRET are read from the environment
 * const config = { providers: [Patreon] }
 * // or explicitly:
 * Patreon({ clientId: process.env.AUTH_PATREON_ID, clientSecret: process.env.AUTH_PATREON_SECRET })
 * ```
 * @see https://docs.patreon.com/#oauth
 */
export default function Patreon(options: OAuthUserConfig<PatreonProfile> = {}): OAuthConfig<PatreonProfile> {
  return {
    id: "patreon",
    name: "Patreon",
    type: "oauth",
    authorization: { url: "https://www.patreon.com/oauth2/authorize", params: { scope: "identity identity[email]" } },
    token: "https://www.patreon.com/api/oauth2/token",
    userinfo: "https://www.patreon.com/api/oauth2/api/current_user",
    profile(profile) {
      const { attributes } = profile.data
      return { id: profile.data.id, name: attributes.full_name ?? null, email: attributes.email ?? null, image: attributes.image_url ?? null }
    },
    style: { brandColor: "#e85b46", bg: "#e85b46", text: "#fff" },
    options,
  }
}
