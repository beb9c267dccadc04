/**
 * Sign in with Box, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The user as `GET /2.0/users/me` returns it (abridged). `login` is the user's email address.
 *
 * @see https://developer.box.com/reference/get-users-me/
 */
export interface BoxProfile {
  type: "user"
  id: string
  name: string
  login: string
  avatar_url: string
  language?: string
  timezone?: string
  status?: string
  created_at?: string
  [claim: string]: unknown
}

/**
 * Box. The scopes are the application's, chosen in the Box developer console.
 *
 * @example
 * ```ts
 * import Box from "authflow/providers/box"
 *
 * // AUTH_BOX_ID and AUTH_BOX_SECRET are read from the environment
 * const config = { providers: [Box] }
 * // or explicitly:
 * Box({ clientId: process.env.AUTH_BOX_ID, clientSecret: process.env.AUTH_BOX_SECRET })
 * ```
 * @see https://developer.box.com/guides/authentication/oauth2/
 */
export default function Box(options: OAuthUserConfig<BoxProfile> = {}): OAuthConfig<BoxProfile> {
  return {
    id: "box",
    name: "Box",
    type: "oauth",
    authorization: { url: "https://account.box.com/api/oauth2/authorize", params: { scope: "" } },
    token: "https://api.box.com/oauth2/token",
    userinfo: "https://api.box.com/2.0/users/me",
    profile(profile) {
      return { id: profile.id, name: profile.name ?? null, email: profile.login ?? null, image: profile.avatar_url ?? null }
    },
    style: { brandColor: "#0075c9", bg: "#0075c9", text: "#fff" },
    options,
  }
}
