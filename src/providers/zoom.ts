/**
 * Sign in with Zoom, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v2/users/me`.
 *
 * @see https://developers.zoom.us/docs/api/users/#tag/users/GET/users/{userId}
 */
export interface ZoomProfile {
  id: string
  first_name?: string
  last_name?: string
  display_name?: string
  email: string
  type?: number
  role_name?: string
  pmi?: number
  personal_meeting_url?: string
  timezone?: string
  verified?: number
  dept?: string
  pic_url?: string
  account_id?: string
  status?: string
  [claim: string]: unknown
}

/**
 * Zoom. The scopes are those configured for the app in the Zoom App Marketplace (it needs one that
 * allows `GET /users/me`, such as `user:read:user`), so an empty `scope` is sent.
 *
 * @example
 * ```ts
 * import Zoom from "authflow/providers/zoom"
 *
 * // AUTH_ZOOM_ID and AUTH_ZOOM_SECRET are read from the environment
 * const config = { providers: [Zoom] }
 * // or explicitly:
 * Zoom({ clientId: process.env.AUTH_ZOOM_ID, clientSecret: process.env.AUTH_ZOOM_SECRET })
 * ```
 * @see https://developers.zoom.us/docs/integrations/oauth/
 */
export default function Zoom(options: OAuthUserConfig<ZoomProfile> = {}): OAuthConfig<ZoomProfile> {
  return {
    id: "zoom",
    name: "Zoom",
    type: "oauth",
    authorization: { url: "https://zoom.us/oauth/authorize", params: { scope: "" } },
    token: "https://zoom.us/oauth/token",
    userinfo: "https://api.zoom.us/v2/users/me",
    profile(profile) {
      const fullName = [profile.first_name, profile.last_name].filter((part) => !!part).join(" ")
      return {
        id: profile.id,
        name: fullName || profile.display_name || null,
        email: profile.email ?? null,
        image: profile.pic_url ?? null,
      }
    },
    style: { brandColor: "#0b5cff", bg: "#0b5cff", text: "#fff" },
    options,
  }
}
