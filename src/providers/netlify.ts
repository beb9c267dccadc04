/**
 * Sign in with Netlify, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /api/v1/user` (abridged).
 *
 * @see https://open-api.netlify.com/#tag/user/operation/getCurrentUser
 */
export interface NetlifyProfile {
  id: string
  uid?: string
  full_name: string
  avatar_url: string
  email: string
  affiliate_id?: string
  site_count?: number
  created_at?: string
  last_login?: string
  [claim: string]: unknown
}

/**
 * Netlify. Netlify has no scopes.
 *
 * @example
 * ```ts
 * import Netlify from "authflow/providers/netlify"
 *
 * // AUTH_NETLIFY_ID and AUTH_NETLIFY_SECRET are read from the environment
 * const config = { providers: [Netlify] }
 * // or explicitly:
 * Netlify({ clientId: process.env.AUTH_NETLIFY_ID, clientSecret: process.env.AUTH_NETLIFY_SECRET })
 * ```
 * @see https://docs.netlify.com/api/get-started/#authentication
 */
export default function Netlify(options: OAuthUserConfig<NetlifyProfile> = {}): OAuthConfig<NetlifyProfile> {
  return {
    id: "netlify",
    name: "Netlify",
    type: "oauth",
    authorization: { url: "https://app.netlify.com/authorize", params: { scope: "" } },
    token: "https://api.netlify.com/oauth/token",
    userinfo: "https://api.netlify.com/api/v1/user",
    profile(profile) {
      return { id: profile.id, name: profile.full_name ?? null, email: profile.email ?? null, image: profile.avatar_url ?? null }
    },
    style: { brandColor: "#32e6e2", bg: "#0e1e25", text: "#fff" },
    options,
  }
}
