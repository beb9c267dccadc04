/**
 * Sign in with Trakt, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig, UserinfoEndpointConfig } from "./oauth.js"
import { endpointUrl } from "./oauth.js"

/**
 * The answer of `GET /users/me?extended=full` (abridged).
 *
 * @see https://trakt.docs.apiary.io/#reference/users/profile/get-user-profile
 */
export interface TraktProfile {
  username: string
  private: boolean
  name: string
  vip: boolean
  vip_ep: boolean
  ids: { slug: string; uuid?: string }
  joined_at: string
  location: string | null
  about: string | null
  gender: string | null
  age: number | null
  images: { avatar: { full: string } }
  [claim: string]: unknown
}

const meUrl = "https://api.trakt.tv/users/me?extended=full"

/**
 * Trakt. The API wants its version and the client id as headers. The account id is the user's slug,
 * as in Auth.js. Trakt gives no email.
 *
 * @example
 * ```ts
 * import Trakt from "authflow/providers/trakt"
 *
 * // AUTH_TRAKT_ID and AUTH_TRAKT_SECRET are read from the environment
 * const config = { providers: [Trakt] }
 * // or explicitly:
 * Trakt({ clientId: process.env.AUTH_TRAKT_ID, clientSecret: process.env.AUTH_TRAKT_SECRET })
 * ```
 * @see https://trakt.docs.apiary.io/#reference/authentication-oauth
 */
export default function Trakt(options: OAuthUserConfig<TraktProfile> = {}): OAuthConfig<TraktProfile> {
  return {
    id: "trakt",
    name: "Trakt",
    type: "oauth",
    authorization: { url: "https://trakt.tv/oauth/authorize", params: { scope: "" } },
    token: "https://api.trakt.tv/oauth/token",
    userinfo: {
      url: meUrl,
      async request({ tokens, provider, fetch }) {
        const response = await fetch(endpointUrl(provider.userinfo as UserinfoEndpointConfig<TraktProfile>) ?? meUrl, {
          headers: { Authorization: `Bearer ${tokens.access_token}`, "trakt-api-version": "2", "trakt-api-key": provider.clientId ?? "" },
        })
        if (!response.ok) throw new Error(`Trakt users/me answered ${response.status}`)
        return (await response.json()) as TraktProfile
      },
    },
    profile(profile) {
      return { id: profile.ids.slug, name: profile.name || profile.username, email: null, image: profile.images?.avatar?.full ?? null }
    },
    style: { brandColor: "#ed2224", bg: "#ed2224", text: "#fff" },
    options,
  }
}
