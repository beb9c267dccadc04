/**
 * Sign in with a Mattermost server, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The user as `GET /api/v4/users/me` returns it (abridged).
 *
 * @see https://api.mattermost.com/#tag/users/operation/GetUser
 */
export interface MattermostProfile {
  id: string
  username: string
  first_name: string
  last_name: string
  nickname: string
  email: string
  email_verified: boolean
  auth_service: string
  roles: string
  locale: string
  create_at: number
  update_at: number
  delete_at: number
  [claim: string]: unknown
}

/**
 * Mattermost. Give the server's URL as `issuer` (`AUTH_MATTERMOST_ISSUER`); the client authenticates in
 * the token request's body.
 *
 * @example
 * ```ts
 * import Mattermost from "authflow/providers/mattermost"
 *
 * // AUTH_MATTERMOST_ID, AUTH_MATTERMOST_SECRET and AUTH_MATTERMOST_ISSUER are read from the environment
 * const config = { providers: [Mattermost] }
 * // or explicitly:
 * Mattermost({ clientId: process.env.AUTH_MATTERMOST_ID, clientSecret: process.env.AUTH_MATTERMOST_SECRET, issuer: "https://chat.example.com" })
 * ```
 * @see https://developers.mattermost.com/integrate/apps/authentication/oauth2/
 */
export default function Mattermost(options: OAuthUserConfig<MattermostProfile> = {}): OAuthConfig<MattermostProfile> {
  const base = options.issuer?.replace(/\/+$/, "")
  return {
    id: "mattermost",
    name: "Mattermost",
    type: "oauth",
    // Without the server's URL the endpoints are left out, and the configuration check says so.
    ...(base
      ? {
          authorization: { url: `${base}/oauth/authorize`, params: { scope: "" } },
          token: `${base}/oauth/access_token`,
          userinfo: `${base}/api/v4/users/me`,
        }
      : {}),
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.username ?? ([profile.first_name, profile.last_name].filter(Boolean).join(" ") || null),
        email: profile.email ?? null,
        image: null,
      }
    },
    style: { brandColor: "#1e325c", bg: "#000", text: "#fff" },
    options,
  }
}
