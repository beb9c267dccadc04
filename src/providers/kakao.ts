/**
 * Sign in with Kakao, an OAuth 2 provider (Kakao Login).
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET https://kapi.kakao.com/v2/user/me`. Which `kakao_account` fields are present
 * depends on the consent items set for the app.
 *
 * @see https://developers.kakao.com/docs/latest/en/kakaologin/rest-api#req-user-info
 */
export interface KakaoProfile {
  id: number
  has_signed_up?: boolean
  connected_at?: string
  properties?: { nickname?: string; profile_image?: string; thumbnail_image?: string; [key: string]: unknown }
  kakao_account?: {
    profile_needs_agreement?: boolean
    profile?: {
      nickname?: string
      thumbnail_image_url?: string
      profile_image_url?: string
      is_default_image?: boolean
    }
    name?: string
    email_needs_agreement?: boolean
    is_email_valid?: boolean
    is_email_verified?: boolean
    email?: string
    age_range?: string
    birthday?: string
    gender?: "female" | "male"
    phone_number?: string
    [key: string]: unknown
  }
  [claim: string]: unknown
}

/**
 * Kakao. The consent items configured for the app decide what the profile holds, so an empty
 * `scope` is sent (set one to ask for more items). The client secret goes in the token request
 * body, as Kakao requires. The account id is the numeric user id as a string.
 *
 * @example
 * ```ts
 * import Kakao from "authflow/providers/kakao"
 *
 * // AUTH_KAKAO_ID (REST API key) and AUTH_KAKAO_SECRET (client secret) are read from the environment
 * const config = { providers: [Kakao] }
 * // or explicitly:
 * Kakao({ clientId: process.env.AUTH_KAKAO_ID, clientSecret: process.env.AUTH_KAKAO_SECRET })
 * ```
 * @see https://developers.kakao.com/docs/latest/en/kakaologin/rest-api
 */
export default function Kakao(options: OAuthUserConfig<KakaoProfile> = {}): OAuthConfig<KakaoProfile> {
  return {
    id: "kakao",
    name: "Kakao",
    type: "oauth",
    authorization: { url: "https://kauth.kakao.com/oauth/authorize", params: { scope: "" } },
    token: "https://kauth.kakao.com/oauth/token",
    userinfo: "https://kapi.kakao.com/v2/user/me",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const account = profile.kakao_account
      return {
        id: String(profile.id),
        name: account?.profile?.nickname ?? profile.properties?.nickname ?? null,
        email: account?.email ?? null,
        image: account?.profile?.profile_image_url ?? profile.properties?.profile_image ?? null,
      }
    },
    style: { brandColor: "#fee500", bg: "#fee500", text: "#191919" },
    options,
  }
}
