/**
 * Sign in with Dribbble, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v2/user` (abridged).
 *
 * @see https://developer.dribbble.com/v2/user/
 */
export interface DribbbleProfile {
  id: number
  name: string
  login: string
  email?: string
  avatar_url: string
  bio?: string
  html_url?: string
  location?: string | null
  pro?: boolean
  can_upload_shot?: boolean
  [claim: string]: unknown
}

/**
 * Dribbble. Requests Dribbble's default `public` scope; pass `authorization: { params: { scope: "public upload" } }` for more.
 *
 * @example
 * ```ts
 * import Dribbble from "authflow/providers/dribbble"
 *
 * // AUTH_DRIBBBLE_ID and AUTH_DRIBBBLE_SECRET are read from the environment
 * const config = { providers: [Dribbble] }
 * // or explicitly:
 * Dribbble({ clientId: process.env.AUTH_DRIBBBLE_ID, clientSecret: process.env.AUTH_DRIBBBLE_SECRET })
 * ```
 * @see https://developer.dribbble.com/v2/oauth/
 */
export default function Dribbble(options: OAuthUserConfig<DribbbleProfile> = {}): OAuthConfig<DribbbleProfile> {
  return {
    id: "dribbble",
    name: "Dribbble",
    type: "oauth",
    authorization: { url: "https://dribbble.com/oauth/authorize", params: { scope: "public" } },
    token: "https://dribbble.com/oauth/token",
    userinfo: "https://api.dribbble.com/v2/user",
    profile(profile) {
      return { id: String(profile.id), name: profile.name ?? profile.login, email: profile.email ?? null, image: profile.avatar_url ?? null }
    },
    style: { brandColor: "#ea4c89", bg: "#000", text: "#fff" },
    options,
  }
}
