/**
 * Sign in with OneLogin, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a OneLogin ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://developers.onelogin.com/openid-connect/api/user-info
 */
export interface OneLoginProfile {
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
  groups?: string[]
  params?: Record<string, string>
  updated_at?: number
  [claim: string]: unknown
}

/**
 * OneLogin. Give your issuer (`AUTH_ONELOGIN_ISSUER`, e.g. `https://<subdomain>.onelogin.com`); the endpoints come from
 * its discovery document. OneLogin serves its discovery document under `/oidc/2`, where
 * `wellKnown` points.
 *
 * @example
 * ```ts
 * import OneLogin from "authflow/providers/onelogin"
 *
 * // AUTH_ONELOGIN_ID, AUTH_ONELOGIN_SECRET and AUTH_ONELOGIN_ISSUER are read from the environment
 * const config = { providers: [OneLogin] }
 * // or explicitly:
 * OneLogin({ clientId: process.env.AUTH_ONELOGIN_ID, clientSecret: process.env.AUTH_ONELOGIN_SECRET, issuer: process.env.AUTH_ONELOGIN_ISSUER })
 * ```
 * @see https://developers.onelogin.com/openid-connect
 */
export default function OneLogin(options: OAuthUserConfig<OneLoginProfile> = {}): OIDCConfig<OneLoginProfile> {
  const issuer = options.issuer?.replace(/\/+$/, "")
  return {
    id: "onelogin",
    name: "OneLogin",
    type: "oidc",
    ...(issuer ? { issuer, wellKnown: `${issuer}/oidc/2/.well-known/openid-configuration` } : {}),
    profile: standardClaimsProfile,
    style: { brandColor: "#1c1f2a", bg: "#1c1f2a", text: "#fff" },
    options,
  }
}
