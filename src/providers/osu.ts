/**
 * Sign in with osu!, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /api/v2/me` (abridged).
 *
 * @see https://osu.ppy.sh/docs/index.html#get-own-data
 */
export interface OsuProfile {
  id: number
  username: string
  avatar_url: string
  country_code: string
  is_active: boolean
  is_bot: boolean
  is_online: boolean
  is_supporter: boolean
  last_visit: string | null
  profile_colour: string | null
  default_group?: string
  cover_url?: string
  [claim: string]: unknown
}

/**
 * osu!. Requests `identify`. osu! gives no email.
 *
 * @example
 * ```ts
 * import Osu from "authflow/providers/osu"
 *
 * // AUTH_OSU_ID and AUTH_OSU_SECRET are read from the environment
 * const config = { providers: [Osu] }
 * // or explicitly:
 * Osu({ clientId: process.env.AUTH_OSU_ID, clientSecret: process.env.AUTH_OSU_SECRET })
 * ```
 * @see https://osu.ppy.sh/docs/index.html#authorization-code-grant
 */
export default function Osu(options: OAuthUserConfig<OsuProfile> = {}): OAuthConfig<OsuProfile> {
  return {
    id: "osu",
    name: "osu!",
    type: "oauth",
    authorization: { url: "https://osu.ppy.sh/oauth/authorize", params: { scope: "identify" } },
    token: "https://osu.ppy.sh/oauth/token",
    userinfo: "https://osu.ppy.sh/api/v2/me",
    profile(profile) {
      return { id: String(profile.id), name: profile.username, email: null, image: profile.avatar_url ?? null }
    },
    style: { brandColor: "#ff66aa", bg: "#ff66aa", text: "#fff" },
    options,
  }
}
