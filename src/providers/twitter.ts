/**
 * Sign in with X (formerly Twitter), through its OAuth 2 authorization-code flow with PKCE.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /2/users/me?user.fields=profile_image_url`.
 *
 * @see https://docs.x.com/x-api/users/user-lookup-me
 */
export interface TwitterProfile {
  data: {
    id: string
    name: string
    username: string
    profile_image_url?: string
    /** Only with the `users.email` scope and `user.fields=confirmed_email`. */
    confirmed_email?: string
    email?: string
    [field: string]: unknown
  }
  [claim: string]: unknown
}

/**
 * X (Twitter), OAuth 2.0 with PKCE. Requests `users.read tweet.read offline.access`; X does not
 * return an email by default, so `user.email` is `null` unless you add the `users.email` scope and
 * `confirmed_email` to the userinfo fields. Enable OAuth 2.0 (a confidential "Web App" client) in
 * the X developer portal.
 *
 * @example
 * ```ts
 * import Twitter from "authflow/providers/twitter"
 *
 * // AUTH_TWITTER_ID and AUTH_TWITTER_SECRET are read from the environment
 * const config = { providers: [Twitter] }
 * // or explicitly:
 * Twitter({ clientId: process.env.AUTH_TWITTER_ID, clientSecret: process.env.AUTH_TWITTER_SECRET })
 * ```
 * @see https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code
 */
export default function Twitter(options: OAuthUserConfig<TwitterProfile> = {}): OAuthConfig<TwitterProfile> {
  return {
    id: "twitter",
    name: "Twitter",
    type: "oauth",
    checks: ["pkce", "state"],
    authorization: { url: "https://x.com/i/oauth2/authorize", params: { scope: "users.read tweet.read offline.access" } },
    token: "https://api.x.com/2/oauth2/token",
    userinfo: "https://api.x.com/2/users/me?user.fields=profile_image_url",
    profile({ data }) {
      return {
        id: data.id,
        name: data.name,
        email: data.confirmed_email ?? data.email ?? null,
        image: data.profile_image_url ?? null,
      }
    },
    style: { brandColor: "#000", bg: "#000", text: "#fff" },
    options,
  }
}
