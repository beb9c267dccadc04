/**
 * Sign in with Threads, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v1.0/me?fields=id,username,threads_profile_picture_url`; Auth.js expects it
 * under `data`, so both shapes are read.
 *
 * @see https://developers.facebook.com/docs/threads/threads-profiles
 */
export interface ThreadsProfile {
  id?: string
  username?: string
  threads_profile_picture_url?: string
  threads_biography?: string
  data?: { id: string; username?: string; threads_profile_picture_url?: string; threads_biography?: string }
  [claim: string]: unknown
}

/**
 * Threads. Requests `threads_basic` and authenticates in the token request's body. Threads gives no
 * email.
 *
 * @example
 * ```ts
 * import Threads from "authflow/providers/threads"
 *
 * // AUTH_THREADS_ID and AUTH_THREADS_SECRET are read from the environment
 * const config = { providers: [Threads] }
 * // or explicitly:
 * Threads({ clientId: process.env.AUTH_THREADS_ID, clientSecret: process.env.AUTH_THREADS_SECRET })
 * ```
 * @see https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions
 */
export default function Threads(options: OAuthUserConfig<ThreadsProfile> = {}): OAuthConfig<ThreadsProfile> {
  return {
    id: "threads",
    name: "Threads",
    type: "oauth",
    authorization: { url: "https://threads.net/oauth/authorize", params: { scope: "threads_basic" } },
    token: "https://graph.threads.net/oauth/access_token",
    userinfo: "https://graph.threads.net/v1.0/me?fields=id,username,threads_profile_picture_url",
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      const user = profile.data ?? profile
      return { id: String(user.id), name: user.username || null, email: null, image: user.threads_profile_picture_url || null }
    },
    style: { brandColor: "#000", bg: "#000", text: "#fff" },
    options,
  }
}
