/**
 * Sign in with Spotify, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/** An image of the Spotify Web API. */
export interface SpotifyImage {
  url: string
  height: number | null
  width: number | null
}

/**
 * The answer of `GET /v1/me`.
 *
 * @see https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile
 */
export interface SpotifyProfile {
  id: string
  display_name: string | null
  /** With the `user-read-email` scope. Spotify does not verify it. */
  email?: string
  images?: SpotifyImage[]
  country?: string
  product?: string
  uri?: string
  href?: string
  external_urls?: { spotify: string }
  followers?: { total: number }
  [claim: string]: unknown
}

/**
 * Spotify. Requests `user-read-email`.
 *
 * @example
 * ```ts
 * import Spotify from "authflow/providers/spotify"
 *
 * // AUTH_SPOTIFY_ID and AUTH_SPOTIFY_SECRET are read from the environment
 * const config = { providers: [Spotify] }
 * // or explicitly:
 * Spotify({ clientId: process.env.AUTH_SPOTIFY_ID, clientSecret: process.env.AUTH_SPOTIFY_SECRET })
 * ```
 * @see https://developer.spotify.com/documentation/web-api/tutorials/code-pkce-flow
 */
export default function Spotify(options: OAuthUserConfig<SpotifyProfile> = {}): OAuthConfig<SpotifyProfile> {
  return {
    id: "spotify",
    name: "Spotify",
    type: "oauth",
    authorization: { url: "https://accounts.spotify.com/authorize", params: { scope: "user-read-email" } },
    token: "https://accounts.spotify.com/api/token",
    userinfo: "https://api.spotify.com/v1/me",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.display_name,
        email: profile.email ?? null,
        image: profile.images?.[0]?.url ?? null,
      }
    },
    style: { brandColor: "#1db954", bg: "#1db954", text: "#000" },
    options,
  }
}
