/**
 * Sign in with WordPress.com, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /rest/v1/me` (abridged).
 *
 * @see https://developer.wordpress.com/docs/api/1/get/me/
 */
export interface WordPressProfile {
  ID: number
  display_name: string
  username: string
  email: string
  primary_blog?: number
  avatar_URL: string
  profile_URL?: string
  email_verified?: boolean
  [claim: string]: unknown
}

/**
 * WordPress.com. Requests `auth`. The account id is the numeric user id as a string.
 *
 * @example
 * ```ts
 * import WordPress from "authflow/providers/wordpress"
 *
 * // AUTH_WORDPRESS_ID and AUTH_WORDPRESS_SECRET are read from the environment
 * const config = { providers: [WordPress] }
 * // or explicitly:
 * WordPress({ clientId: process.env.AUTH_WORDPRESS_ID, clientSecret: process.env.AUTH_WORDPRESS_SECRET })
 * ```
 * @see https://developer.wordpress.com/docs/oauth2/
 */
export default function WordPress(options: OAuthUserConfig<WordPressProfile> = {}): OAuthConfig<WordPressProfile> {
  return {
    id: "wordpress",
    name: "WordPress.com",
    type: "oauth",
    authorization: { url: "https://public-api.wordpress.com/oauth2/authorize", params: { scope: "auth" } },
    token: "https://public-api.wordpress.com/oauth2/token",
    userinfo: "https://public-api.wordpress.com/rest/v1/me",
    profile(profile) {
      return { id: String(profile.ID), name: profile.display_name ?? profile.username, email: profile.email ?? null, image: profile.avatar_URL ?? null }
    },
    style: { brandColor: "#3858e9", bg: "#3858e9", text: "#fff" },
    options,
  }
}
