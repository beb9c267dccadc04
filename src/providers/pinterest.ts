/**
 * Sign in with Pinterest, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v5/user_account`.
 *
 * @see https://developers.pinterest.com/docs/api/v5/user_account-get
 */
export interface PinterestProfile {
  account_type: "PINNER" | "BUSINESS"
  id?: string
  profile_image: string
  website_url?: string
  username: string
  business_name?: string | null
  about?: string
  board_count?: number
  pin_count?: number
  follower_count?: number
  following_count?: number
  monthly_views?: number
  [claim: string]: unknown
}

/**
 * Pinterest. Requests `user_accounts:read`. The account id is the username, as in Auth.js. Pinterest gives no email.
 *
 * @example
 * ```ts
 * import Pinterest from "authflow/providers/pinterest"
 *
 * // AUTH_PINTEREST_ID and AUTH_PINTEREST_SECRET are read from the environment
 * const config = { providers: [Pinterest] }
 * // or explicitly:
 * Pinterest({ clientId: process.env.AUTH_PINTEREST_ID, clientSecret: process.env.AUTH_PINTEREST_SECRET })
 * ```
 * @see https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/
 */
export default function Pinterest(options: OAuthUserConfig<PinterestProfile> = {}): OAuthConfig<PinterestProfile> {
  return {
    id: "pinterest",
    name: "Pinterest",
    type: "oauth",
    authorization: { url: "https://www.pinterest.com/oauth", params: { scope: "user_accounts:read" } },
    token: "https://api.pinterest.com/v5/oauth/token",
    userinfo: "https://api.pinterest.com/v5/user_account",
    profile(profile) {
      return { id: profile.username, name: profile.username, email: null, image: profile.profile_image ?? null }
    },
    style: { brandColor: "#bd081c", bg: "#bd081c", text: "#fff" },
    options,
  }
}
