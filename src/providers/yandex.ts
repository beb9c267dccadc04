/**
 * Sign in with Yandex ID, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET https://login.yandex.ru/info?format=json`.
 *
 * @see https://yandex.com/dev/id/doc/en/user-information
 */
export interface YandexProfile {
  id: string
  login: string
  client_id: string
  psuid: string
  display_name?: string
  real_name?: string
  first_name?: string
  last_name?: string
  sex?: "male" | "female" | null
  default_email?: string
  emails?: string[]
  is_avatar_empty?: boolean
  default_avatar_id?: string
  birthday?: string | null
  default_phone?: { id: number; number: string }
  [claim: string]: unknown
}

/**
 * Yandex. Requests `login:info login:email login:avatar`.
 *
 * @example
 * ```ts
 * import Yandex from "authflow/providers/yandex"
 *
 * // AUTH_YANDEX_ID and AUTH_YANDEX_SECRET are read from the environment
 * const config = { providers: [Yandex] }
 * // or explicitly:
 * Yandex({ clientId: process.env.AUTH_YANDEX_ID, clientSecret: process.env.AUTH_YANDEX_SECRET })
 * ```
 * @see https://yandex.com/dev/id/doc/en/codes/code-url
 */
export default function Yandex(options: OAuthUserConfig<YandexProfile> = {}): OAuthConfig<YandexProfile> {
  return {
    id: "yandex",
    name: "Yandex",
    type: "oauth",
    authorization: { url: "https://oauth.yandex.ru/authorize", params: { scope: "login:info login:email login:avatar" } },
    token: "https://oauth.yandex.ru/token",
    userinfo: "https://login.yandex.ru/info?format=json",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.display_name ?? profile.real_name ?? profile.first_name ?? null,
        email: profile.default_email ?? profile.emails?.[0] ?? null,
        image: !profile.is_avatar_empty && profile.default_avatar_id ? `https://avatars.yandex.net/get-yapic/${profile.default_avatar_id}/islands-200` : null,
      }
    },
    style: { brandColor: "#ffcc00", bg: "#ffcc00", text: "#000" },
    options,
  }
}
