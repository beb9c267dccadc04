/**
 * Sign in with any OpenID Connect provider, found through its discovery document.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The standard claims of an ID token.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims
 */
export interface OIDCProfile {
  iss: string
  aud: string | string[]
  sub: string
  iat: number
  exp: number
  name?: string
  given_name?: string
  family_name?: string
  middle_name?: string
  nickname?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
  locale?: string
  [claim: string]: unknown
}

/**
 * A generic OpenID Connect provider: id `oidc`, name "OpenID Connect" (override both to list several).
 * The `issuer` is required (`AUTH_OIDC_ISSUER` for the default id); the endpoints come from
 * `<issuer>/.well-known/openid-configuration` and the profile from the ID token's standard claims.
 *
 * @example
 * ```ts
 * import OIDC from "authflow/providers/oidc"
 *
 * // AUTH_OIDC_ID, AUTH_OIDC_SECRET and AUTH_OIDC_ISSUER are read from the environment
 * const config = { providers: [OIDC] }
 * // or explicitly, under a name of your own:
 * OIDC({ id: "corp", name: "Corp SSO", issuer: "https://sso.corp.example", clientId: process.env.AUTH_CORP_ID, clientSecret: process.env.AUTH_CORP_SECRET })
 * ```
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html
 */
export default function OIDC(options: OAuthUserConfig<OIDCProfile> = {}): OIDCConfig<OIDCProfile> {
  return {
    id: "oidc",
    name: "OpenID Connect",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    profile: standardClaimsProfile,
    style: { brandColor: "#f78c40", bg: "#fff", text: "#000" },
    options,
  }
}
