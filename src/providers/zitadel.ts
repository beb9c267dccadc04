/**
 * Sign in with ZITADEL, an OpenID Connect provider (cloud or self-hosted).
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a ZITADEL ID token (or userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://zitadel.com/docs/apis/openidoauth/claims
 */
export interface ZitadelProfile {
  iss: string
  aud: string | string[]
  sub: string
  iat: number
  exp: number
  auth_time?: number
  amr?: string[]
  azp?: string
  name?: string
  given_name?: string
  family_name?: string
  nickname?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
  locale?: string
  gender?: string
  updated_at?: number
  [claim: string]: unknown
}

/**
 * ZITADEL. Give your instance as the issuer (`AUTH_ZITADEL_ISSUER`, e.g.
 * `https://my-instance.zitadel.cloud`). Add `offline_access` to the scope for a refresh token.
 *
 * @example
 * ```ts
 * import Zitadel from "authflow/providers/zitadel"
 *
 * // AUTH_ZITADEL_ID, AUTH_ZITADEL_SECRET and AUTH_ZITADEL_ISSUER are read from the environment
 * const config = { providers: [Zitadel] }
 * // or explicitly:
 * Zitadel({ clientId: process.env.AUTH_ZITADEL_ID, clientSecret: process.env.AUTH_ZITADEL_SECRET, issuer: process.env.AUTH_ZITADEL_ISSUER })
 * ```
 * @see https://zitadel.com/docs/guides/integrate/login/oidc/login-users
 */
export default function Zitadel(options: OAuthUserConfig<ZitadelProfile> = {}): OIDCConfig<ZitadelProfile> {
  return {
    id: "zitadel",
    name: "ZITADEL",
    type: "oidc",
    profile: standardClaimsProfile,
    style: { brandColor: "#5469d4", bg: "#5469d4", text: "#fff" },
    options,
  }
}
