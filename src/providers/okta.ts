/**
 * Sign in with Okta, an OpenID Connect provider on your own Okta domain.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of an Okta ID token with the `openid profile email` scopes.
 *
 * @see https://developer.okta.com/docs/reference/api/oidc/#id-token-claims
 */
export interface OktaProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  auth_time?: number
  name?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  nickname?: string
  email?: string
  email_verified?: boolean
  picture?: string
  locale?: string
  zoneinfo?: string
  updated_at?: number
  groups?: string[]
  [claim: string]: unknown
}

/**
 * Okta. Give your authorization server as the issuer (`AUTH_OKTA_ISSUER`, e.g.
 * `https://dev-123.okta.com/oauth2/default` or the org server `https://dev-123.okta.com`).
 *
 * @example
 * ```ts
 * import Okta from "authflow/providers/okta"
 *
 * // AUTH_OKTA_ID, AUTH_OKTA_SECRET and AUTH_OKTA_ISSUER are read from the environment
 * const config = { providers: [Okta] }
 * // or explicitly:
 * Okta({ clientId: process.env.AUTH_OKTA_ID, clientSecret: process.env.AUTH_OKTA_SECRET, issuer: process.env.AUTH_OKTA_ISSUER })
 * ```
 * @see https://developer.okta.com/docs/guides/implement-grant-type/authcodepkce/main/
 */
export default function Okta(options: OAuthUserConfig<OktaProfile> = {}): OIDCConfig<OktaProfile> {
  return {
    id: "okta",
    name: "Okta",
    type: "oidc",
    checks: ["pkce", "state"],
    profile: standardClaimsProfile,
    style: { brandColor: "#000", bg: "#000", text: "#fff" },
    options,
  }
}
