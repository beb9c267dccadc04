/**
 * Sign in with Naver, an OAuth 2 provider (Naver Login).
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET https://openapi.naver.com/v1/nid/me`. Which `response` fields are present
 * depends on the items the user agreed to.
 *
 * @see https://developers.naver.com/docs/login/profile/profile.md
 */
export interface NaverProfile {
  resultcode: string
  message: string
  response: {
    id: string
    nickname?: string
    name?: string
    email?: string
    gender?: "F" | "M" | "U"
    age?: string
    birthday?: string
    birthyear?: string
    profile_image?: string
    mobile?: string
    [field: string]: unknown
  }
  [claim: string]: unknown
}

/**
 * Naver. The items shared are chosen in the Naver developer console, so an empty `scope` is sent.
 * The client id and secret go in the token request body, as Naver's token endpoint expects.
 *
 * @example
 * ```ts
 * import Naver from "authflow/providers/naver"
 *
 * // AUTH_NAVER_ID and AUTH_NAVER_SECRET are read from the environment
 * const config = { providers: [Naver] }
 * // or explicitly:
 * Naver({ clientId: process.env.AUTH_NAVER_ID, clientSecret: process.env.AUTH_NAVER_SECRET })
 * ```
 * @see https://developers.naver.com/docs/login/api/api.md
 */
export default function Naver(options: OAuthUserConfig<NaverProfile> = {}): OAuthConfig<NaverProfile> {
  return {
    id: "naver",
    name: "Naver",
    type: "oauth",
    authorization: { url: "https://nid.naver.com/oauth2.0/authorize", params: { scope: "" } },
    token: "https://nid.naver.com/oauth2.0/token",
    userinfo: "https://openapi.naver.com/v1/nid/me",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile({ response }) {
      return {
        id: response.id,
        name: response.nickname ?? response.name ?? null,
        email: response.email ?? null,
        image: response.profile_image ?? null,
      }
    },
    style: { brandColor: "#03c75a", bg: "#03c75a", text: "#fff" },
    options,
  }
}
