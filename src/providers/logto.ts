/**
 * Sign in with Logto, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a Logto ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://docs.logto.io/docs/recipes/integrate-logto/vanilla-js/#scopes-and-claims
 */
export interface LogtoProfile {
  iss: string
  aud: string | string[]
  sub: string
  iat: number
  exp: number
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  nickname?: string
  email?: string
  email_verified?: boolean
  picture?: string
  username?: string | null
  phone_number?: string | null
  phone_number_verified?: boolean
  roles?: string[]
  organizations?: string[]
  [claim: string]: unknown
}

/**
 * Logto. Give your issuer (`AUTH_LOGTO_ISSUER`, e.g. `https://<tenant>.logto.app/oidc`); the endpoints come from
 * its discovery document. Requests `offline_access openid email
 * profile`.
 *
 * @example
 * ```ts
 * import Logto from "authflow/providers/logto"
 *
 * // AUTH_LOGTO_ID, AUTH_LOGTO_SECRET and AUTH_LOGTO_ISSUER are read from the environment
 * const config = { providers: [Logto] }
 * // or explicitly:
 * Logto({ clientId: process.env.AUTH_LOGTO_ID, clientSecret: process.env.AUTH_LOGTO_SECRET, issuer: process.env.AUTH_LOGTO_ISSUER })
 * ```
 * @see https://docs.logto.io/quick-starts/next-auth
 */
export default function Logto(options: OAuthUserConfig<LogtoProfile> = {}): OIDCConfig<LogtoProfile> {
  return {
    id: "logto",
    name: "Logto",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    authorization: { params: { scope: "offline_access openid email profile" } },
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? profile.username ?? null, email: profile.email ?? null, image: profile.picture ?? null }
    },
    style: { brandColor: "#5d34f2", bg: "#5d34f2", text: "#fff" },
    options,
  }
}
