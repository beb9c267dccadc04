/**
 * Sign in with Foursquare, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig, UserinfoEndpointConfig } from "./oauth.js"
import { endpointUrl } from "./oauth.js"

/**
 * The answer of `GET /v2/users/self`: the user is `response.user`.
 *
 * @see https://docs.foursquare.com/developer/reference/user-profile
 */
export interface FoursquareProfile {
  response: {
    user: {
      id: string
      firstName: string
      lastName?: string
      gender?: string
      photo?: { prefix: string; suffix: string }
      contact: { email?: string; phone?: string }
      homeCity?: string
    }
  }
  [claim: string]: unknown
}

/** Options of {@link Foursquare}. */
export type FoursquareUserConfig = OAuthUserConfig<FoursquareProfile> & {
  /**
   * The API version date Foursquare answers with (`v`).
   * @default "20230131"
   */
  apiVersion?: string
}

/**
 * Foursquare. Foursquare's v2 API takes the access token as the `oauth_token` query parameter, not as
 * a bearer header.
 *
 * @example
 * ```ts
 * import Foursquare from "authflow/providers/foursquare"
 *
 * // AUTH_FOURSQUARE_ID and AUTH_FOURSQUARE_SECRET are read from the environment
 * const config = { providers: [Foursquare] }
 * // or explicitly:
 * Foursquare({ clientId: process.env.AUTH_FOURSQUARE_ID, clientSecret: process.env.AUTH_FOURSQUARE_SECRET })
 * ```
 * @see https://docs.foursquare.com/developer/docs/authentication
 */
export default function Foursquare(options: FoursquareUserConfig = {}): OAuthConfig<FoursquareProfile> {
  const userinfoUrl = `https://api.foursquare.com/v2/users/self?v=${options.apiVersion ?? "20230131"}`
  return {
    id: "foursquare",
    name: "Foursquare",
    type: "oauth",
    authorization: { url: "https://foursquare.com/oauth2/authenticate", params: { scope: "" } },
    token: "https://foursquare.com/oauth2/access_token",
    userinfo: {
      url: userinfoUrl,
      async request({ tokens, provider, fetch }) {
        const url = new URL(endpointUrl(provider.userinfo as UserinfoEndpointConfig<FoursquareProfile>) ?? userinfoUrl)
        url.searchParams.set("oauth_token", String(tokens.access_token))
        const response = await fetch(url)
        if (!response.ok) throw new Error(`Foursquare users/self answered ${response.status}`)
        return (await response.json()) as FoursquareProfile
      },
    },
    profile(profile) {
      const { user } = profile.response
      return {
        id: user.id,
        name: [user.firstName, user.lastName].filter(Boolean).join(" ") || null,
        email: user.contact?.email ?? null,
        image: user.photo ? `${user.photo.prefix}original${user.photo.suffix}` : null,
      }
    },
    style: { brandColor: "#3333ff", bg: "#000", text: "#fff" },
    options,
  }
}
