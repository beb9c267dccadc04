/**
 * Sign in with Facebook, an OAuth 2 provider (the Graph API).
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/** A picture as the Graph API nests it. */
export interface FacebookPicture {
  data: { url: string; height?: number; width?: number; is_silhouette?: boolean }
}

/**
 * The fields of `GET /me?fields=id,name,email,picture`.
 *
 * @see https://developers.facebook.com/docs/graph-api/reference/user/
 */
export interface FacebookProfile {
  id: string
  name?: string
  /** Absent when the user has no confirmed email or declined the `email` permission. */
  email?: string
  picture?: FacebookPicture
  [claim: string]: unknown
}

/**
 * Facebook. Requests the `email` permission and reads `id,name,email,picture` from the Graph API.
 *
 * @example
 * ```ts
 * import Facebook from "authflow/providers/facebook"
 *
 * // AUTH_FACEBOOK_ID and AUTH_FACEBOOK_SECRET are read from the environment
 * const config = { providers: [Facebook] }
 * // or explicitly:
 * Facebook({ clientId: process.env.AUTH_FACEBOOK_ID, clientSecret: process.env.AUTH_FACEBOOK_SECRET })
 * ```
 * @see https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
 */
export default function Facebook(options: OAuthUserConfig<FacebookProfile> = {}): OAuthConfig<FacebookProfile> {
  return {
    id: "facebook",
    name: "Facebook",
    type: "oauth",
    authorization: { url: "https://www.facebook.com/v19.0/dialog/oauth", params: { scope: "email" } },
    token: "https://graph.facebook.com/oauth/access_token",
    userinfo: "https://graph.facebook.com/me?fields=id,name,email,picture",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture?.data.url ?? null,
      }
    },
    style: { brandColor: "#0866ff", bg: "#0866ff", text: "#fff" },
    options,
  }
}
