/**
 * Sign in with Roblox, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a Roblox ID token with the `openid profile` scopes.
 *
 * @see https://create.roblox.com/docs/cloud/reference/oauth2#userinfo
 */
export interface RobloxProfile {
  sub: string
  name: string
  nickname: string
  preferred_username: string
  created_at: number
  profile: string
  picture: string | null
  [claim: string]: unknown
}

/**
 * Roblox. Requests `openid profile`; Roblox gives no email.
 *
 * @example
 * ```ts
 * import Roblox from "authflow/providers/roblox"
 *
 * // AUTH_ROBLOX_ID and AUTH_ROBLOX_SECRET are read from the environment
 * const config = { providers: [Roblox] }
 * // or explicitly:
 * Roblox({ clientId: process.env.AUTH_ROBLOX_ID, clientSecret: process.env.AUTH_ROBLOX_SECRET })
 * ```
 * @see https://create.roblox.com/docs/cloud/open-cloud/oauth2-overview
 */
export default function Roblox(options: OAuthUserConfig<RobloxProfile> = {}): OIDCConfig<RobloxProfile> {
  return {
    id: "roblox",
    name: "Roblox",
    type: "oidc",
    issuer: "https://apis.roblox.com/oauth/",
    authorization: { params: { scope: "openid profile" } },
    checks: ["pkce", "state"],
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null, email: null, image: profile.picture ?? null }
    },
    style: { brandColor: "#5865f2", bg: "#5865f2", text: "#fff" },
    options,
  }
}
