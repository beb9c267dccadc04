/**
 * Sign in with Medium, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v1/me`: the user inside `data`.
 *
 * @see https://github.com/Medium/medium-api-docs#getting-the-authenticated-users-details
 */
export interface MediumProfile {
  data: {
    id: string
    username: string
    name: string
    url: string
    imageUrl: string
  }
  [claim: string]: unknown
}

/**
 * Medium. Requests `basicProfile`. Medium gives no email. Medium no longer issues new
 * integration tokens; existing applications keep working.
 *
 * @example
 * ```ts
 * import Medium from "authflow/providers/medium"
 *
 * // AUTH_MEDIUM_ID and AUTH_MEDIUM_SECRET are read from the environment
 * const config = { providers: [Medium] }
 * // or explicitly:
 * Medium({ clientId: process.env.AUTH_MEDIUM_ID, clientSecret: process.env.AUTH_MEDIUM_SECRET })
 * ```
 * @see https://github.com/Medium/medium-api-docs#2-authentication
 */
export default function Medium(options: OAuthUserConfig<MediumProfile> = {}): OAuthConfig<MediumProfile> {
  return {
    id: "medium",
    name: "Medium",
    type: "oauth",
    authorization: { url: "https://medium.com/m/oauth/authorize", params: { scope: "basicProfile" } },
    token: "https://api.medium.com/v1/tokens",
    userinfo: "https://api.medium.com/v1/me",
    profile(profile) {
      return { id: profile.data.id, name: profile.data.name ?? profile.data.username, email: null, image: profile.data.imageUrl ?? null }
    },
    style: { brandColor: "#000", bg: "#000", text: "#fff" },
    options,
  }
}
