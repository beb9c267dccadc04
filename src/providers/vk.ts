/**
 * Sign in with VK (VKontakte), an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig, TokenEndpointConfig, UserinfoEndpointConfig } from "./oauth.js"
import { endpointUrl, withTokenType } from "./oauth.js"

/**
 * One user of `users.get` with `fields=photo_100`, plus the email of the token response.
 *
 * @see https://dev.vk.com/en/reference/objects/user
 */
export interface VKProfile {
  id: number
  first_name: string
  last_name: string
  photo_100?: string
  can_access_closed?: boolean
  is_closed?: boolean
  email?: string | null
  [claim: string]: unknown
}

const apiVersion = "5.131"
const usersGet = `https://api.vk.com/method/users.get?fields=photo_100&v=${apiVersion}`

/**
 * VK. Requests `email` (API version 5.131) and authenticates in the token request's body. VK gives the
 * email in the token response, which has no `token_type` (it is added as `bearer`).
 *
 * @example
 * ```ts
 * import VK from "authflow/providers/vk"
 *
 * // AUTH_VK_ID and AUTH_VK_SECRET are read from the environment
 * const config = { providers: [VK] }
 * // or explicitly:
 * VK({ clientId: process.env.AUTH_VK_ID, clientSecret: process.env.AUTH_VK_SECRET })
 * ```
 * @see https://dev.vk.com/en/api/access-token/authcode-flow-user
 */
export default function VK(options: OAuthUserConfig<VKProfile> = {}): OAuthConfig<VKProfile> {
  return {
    id: "vk",
    name: "VK",
    type: "oauth",
    authorization: { url: "https://oauth.vk.com/authorize", params: { scope: "email", v: apiVersion } },
    token: { url: `https://oauth.vk.com/access_token?v=${apiVersion}`, conform: withTokenType } satisfies TokenEndpointConfig,
    userinfo: {
      url: usersGet,
      async request({ tokens, provider, fetch }) {
        const url = endpointUrl(provider.userinfo as UserinfoEndpointConfig<VKProfile>) ?? usersGet
        const response = await fetch(url, { headers: { Authorization: `Bearer ${tokens.access_token}` } })
        if (!response.ok) throw new Error(`VK users.get answered ${response.status}`)
        const answer = (await response.json()) as { response?: VKProfile[]; error?: { error_msg?: string } }
        const user = answer.response?.[0]
        if (!user) throw new Error(`VK users.get answered no user: ${answer.error?.error_msg ?? "empty response"}`)
        return { ...user, email: typeof tokens.email === "string" ? tokens.email : null }
      },
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: String(profile.id),
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: profile.email ?? null,
        image: profile.photo_100 ?? null,
      }
    },
    style: { brandColor: "#0077ff", bg: "#0077ff", text: "#fff" },
    options,
  }
}
