/**
 * Sign in with Descope, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a Descope ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://docs.descope.com/customize/auth/oidc
 */
export interface DescopeProfile {
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
  phone_number?: string
  phone_number_verified?: boolean
  [claim: string]: unknown
}

/**
 * Descope. Give your issuer (`AUTH_DESCOPE_ISSUER`, e.g. `https://api.descope.com/<project id>`); the endpoints come from
 * its discovery document. Without an issuer it is
 * `https://api.descope.com/<clientId>` (the client id is the project id).
 *
 * @example
 * ```ts
 * import Descope from "authflow/providers/descope"
 *
 * // AUTH_DESCOPE_ID, AUTH_DESCOPE_SECRET and AUTH_DESCOPE_ISSUER are read from the environment
 * const config = { providers: [Descope] }
 * // or explicitly:
 * Descope({ clientId: process.env.AUTH_DESCOPE_ID, clientSecret: process.env.AUTH_DESCOPE_SECRET, issuer: process.env.AUTH_DESCOPE_ISSUER })
 * ```
 * @see https://docs.descope.com/getting-started/nextjs/
 */
export default function Descope(options: OAuthUserConfig<DescopeProfile> = {}): OIDCConfig<DescopeProfile> {
  const issuer = options.issuer ?? (typeof options.clientId === "string" ? `https://api.descope.com/${options.clientId}` : undefined)
  return {
    id: "descope",
    name: "Descope",
    type: "oidc",
    ...(issuer ? { issuer } : {}),
    checks: ["pkce", "state"],
    profile: standardClaimsProfile,
    style: { brandColor: "#1c1c23", bg: "#1c1c23", text: "#fff" },
    options,
  }
}
