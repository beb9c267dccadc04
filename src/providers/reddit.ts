/**
 * Sign in with Reddit, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET https://oauth.reddit.com/api/v1/me` (the `identity` scope).
 *
 * @see https://www.reddit.com/dev/api/#GET_api_v1_me
 */
export interface RedditProfile {
  /** The account id without its `t2_` prefix. */
  id: string
  name: string
  /** HTML-escaped URL (`&amp;`). */
  icon_img?: string
  snoovatar_img?: string
  created_utc?: number
  verified?: boolean
  has_verified_email?: boolean
  [claim: string]: unknown
}

/**
 * Reddit. Requests `identity` (add `duration: "permanent"` to the authorization params for a refresh
 * token). Reddit never shares the email address, so `user.email` is `null`.
 *
 * @example
 * ```ts
 * import Reddit from "authflow/providers/reddit"
 *
 * // AUTH_REDDIT_ID and AUTH_REDDIT_SECRET are read from the environment
 * const config = { providers: [Reddit] }
 * // or explicitly:
 * Reddit({ clientId: process.env.AUTH_REDDIT_ID, clientSecret: process.env.AUTH_REDDIT_SECRET })
 * ```
 * @see https://github.com/reddit-archive/reddit/wiki/OAuth2
 */
export default function Reddit(options: OAuthUserConfig<RedditProfile> = {}): OAuthConfig<RedditProfile> {
  return {
    id: "reddit",
    name: "Reddit",
    type: "oauth",
    authorization: { url: "https://www.reddit.com/api/v1/authorize", params: { scope: "identity" } },
    token: "https://www.reddit.com/api/v1/access_token",
    userinfo: "https://oauth.reddit.com/api/v1/me",
    checks: ["state"],
    profile(profile) {
      const icon = profile.snoovatar_img || profile.icon_img
      return {
        id: profile.id,
        name: profile.name,
        email: null,
        image: icon ? icon.replaceAll("&amp;", "&") : null,
      }
    },
    style: { brandColor: "#ff4500", bg: "#ff4500", text: "#fff" },
    options,
  }
}
