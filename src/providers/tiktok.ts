/**
 * Sign in with TikTok (Login Kit), an OAuth 2 provider.
 *
 * @module
 */
import { customFetch } from "../core/symbols.js"
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v2/user/info/?fields=open_id,avatar_url,display_name`: the user inside
 * `data.user`.
 *
 * @see https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info/
 */
export interface TikTokProfile {
  data: {
    user: {
      open_id: string
      union_id?: string
      avatar_url?: string
      avatar_url_100?: string
      avatar_large_url?: string
      display_name: string
      bio_description?: string
      profile_deep_link?: string
      is_verified?: boolean
      username?: string
      follower_count?: number
      following_count?: number
      likes_count?: number
      video_count?: number
    }
  }
  error: { code: string; message: string; log_id: string }
  [claim: string]: unknown
}

const tokenUrl = "https://open.tiktokapis.com/v2/oauth/token/"

/**
 * TikTok. Requests `user.info.basic` and authenticates in the token request's body. TikTok names the
 * client id `client_key`: it is added to the authorization request (when `clientId` is passed to
 * the factory) and to the token request. TikTok gives no email.
 *
 * @example
 * ```ts
 * import TikTok from "authflow/providers/tiktok"
 *
 * // AUTH_TIKTOK_ID (the client key) and AUTH_TIKTOK_SECRET are read from the environment
 * const config = { providers: [TikTok] }
 * // or explicitly:
 * TikTok({ clientId: process.env.AUTH_TIKTOK_ID, clientSecret: process.env.AUTH_TIKTOK_SECRET })
 * ```
 * @see https://developers.tiktok.com/doc/login-kit-web/
 */
export default function TikTok(options: OAuthUserConfig<TikTokProfile> = {}): OAuthConfig<TikTokProfile> {
  const { [customFetch]: userFetch, ...rest } = options
  const tiktokFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const send = userFetch ?? globalThis.fetch
    const url = input instanceof Request ? input.url : String(input)
    if (url.startsWith(tokenUrl) && init?.body instanceof URLSearchParams) {
      const body = new URLSearchParams(init.body)
      // TikTok reads the client id from `client_key`, not `client_id`.
      body.set("client_key", body.get("client_id") ?? String(options.clientId ?? ""))
      return send(input, { ...init, body })
    }
    return send(input, init)
  }) as typeof fetch
  return {
    id: "tiktok",
    name: "TikTok",
    type: "oauth",
    authorization: {
      url: "https://www.tiktok.com/v2/auth/authorize",
      params: { scope: "user.info.basic", client_key: options.clientId },
    },
    token: tokenUrl,
    userinfo: "https://open.tiktokapis.com/v2/user/info/?fields=open_id,avatar_url,display_name",
    client: { token_endpoint_auth_method: "client_secret_post" },
    [customFetch]: tiktokFetch,
    profile(profile) {
      const { user } = profile.data
      return { id: user.open_id, name: user.display_name ?? null, email: null, image: user.avatar_url ?? null }
    },
    style: { brandColor: "#000", bg: "#000", text: "#fff" },
    // The user's customFetch is wrapped above; left in the options, the merge would unwrap it.
    options: userFetch ? rest : options,
  }
}
