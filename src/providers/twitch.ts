/**
 * Sign in with Twitch, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a Twitch ID token, with the `email`, `picture` and `preferred_username` claims this
 * provider asks for.
 *
 * @see https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/#requesting-claims
 */
export interface TwitchProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  azp?: string
  nonce?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
  updated_at?: string
  [claim: string]: unknown
}

/**
 * Twitch answers `scope` as a JSON array; OAuth 2 wants a space-separated string. Rewrites a
 * successful token response accordingly and leaves anything else alone.
 */
async function conformTwitchTokenResponse(response: Response): Promise<Response | undefined> {
  if (!response.ok) return undefined
  const body = (await response.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined
  if (!body || !Array.isArray(body.scope)) return undefined
  const headers = new Headers(response.headers)
  headers.delete("content-length")
  return new Response(JSON.stringify({ ...body, scope: body.scope.join(" ") }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}

/**
 * Twitch. Issuer `https://id.twitch.tv/oauth2`, scope `openid user:read:email`, and a `claims`
 * request so that the ID token carries the email, picture and login name. The client secret goes
 * in the token request body, and the token response's `scope` array is turned into a string.
 *
 * @example
 * ```ts
 * import Twitch from "authflow/providers/twitch"
 *
 * // AUTH_TWITCH_ID and AUTH_TWITCH_SECRET are read from the environment
 * const config = { providers: [Twitch] }
 * // or explicitly:
 * Twitch({ clientId: process.env.AUTH_TWITCH_ID, clientSecret: process.env.AUTH_TWITCH_SECRET })
 * ```
 * @see https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/
 */
export default function Twitch(options: OAuthUserConfig<TwitchProfile> = {}): OIDCConfig<TwitchProfile> {
  return {
    id: "twitch",
    name: "Twitch",
    type: "oidc",
    issuer: "https://id.twitch.tv/oauth2",
    authorization: {
      params: {
        scope: "openid user:read:email",
        claims: JSON.stringify({ id_token: { email: null, picture: null, preferred_username: null } }),
      },
    },
    token: { conform: conformTwitchTokenResponse },
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: { brandColor: "#9146ff", bg: "#9146ff", text: "#fff" },
    options,
  }
}
