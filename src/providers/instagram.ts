/**
 * Sign in with Instagram, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig, TokenEndpointConfig } from "./oauth.js"
import { withTokenType } from "./oauth.js"

/**
 * The answer of `GET https://graph.instagram.com/me?fields=id,username,account_type,name`.
 *
 * @see https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user
 */
export interface InstagramProfile {
  id: string
  username: string
  account_type?: "BUSINESS" | "MEDIA_CREATOR" | "PERSONAL"
  name?: string
  media_count?: number
  [claim: string]: unknown
}

/**
 * Instagram. Requests `user_profile` and authenticates in the token request's body. Instagram's token
 * response has no `token_type`; it is added as `bearer`. Instagram gives no email.
 *
 * @example
 * ```ts
 * import Instagram from "authflow/providers/instagram"
 *
 * // AUTH_INSTAGRAM_ID and AUTH_INSTAGRAM_SECRET are read from the environment
 * const config = { providers: [Instagram] }
 * // or explicitly:
 * Instagram({ clientId: process.env.AUTH_INSTAGRAM_ID, clientSecret: process.env.AUTH_INSTAGRAM_SECRET })
 * ```
 * @see https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
 */
export default function Instagram(options: OAuthUserConfig<InstagramProfile> = {}): OAuthConfig<InstagramProfile> {
  return {
    id: "instagram",
    name: "Instagram",
    type: "oauth",
    authorization: { url: "https://api.instagram.com/oauth/authorize", params: { scope: "user_profile" } },
    token: { url: "https://api.instagram.com/oauth/access_token", conform: withTokenType } satisfies TokenEndpointConfig,
    userinfo: "https://graph.instagram.com/me?fields=id,username,account_type,name",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return { id: profile.id, name: profile.username, email: null, image: null }
    },
    style: { brandColor: "#e1306c", bg: "#fff", text: "#000" },
    options,
  }
}
