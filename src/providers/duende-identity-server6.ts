/**
 * Sign in with DuendeIdentityServer6, an OpenID Connect provider (Duende IdentityServer).
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a DuendeIdentityServer6 ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://docs.duendesoftware.com/identityserver/fundamentals/claims/
 */
export interface DuendeIdentityServer6Profile {
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
  [claim: string]: unknown
}

/**
 * DuendeIdentityServer6. Give your issuer (`AUTH_DUENDE_IDENTITY_SERVER6_ISSUER`, e.g. `https://demo.duendesoftware.com`); the endpoints come from
 * its discovery document.
 *
 * @example
 * ```ts
 * import DuendeIdentityServer6 from "authflow/providers/duende-identity-server6"
 *
 * // AUTH_DUENDE_IDENTITY_SERVER6_ID, AUTH_DUENDE_IDENTITY_SERVER6_SECRET and AUTH_DUENDE_IDENTITY_SERVER6_ISSUER are read from the environment
 * const config = { providers: [DuendeIdentityServer6] }
 * // or explicitly:
 * DuendeIdentityServer6({ clientId: process.env.AUTH_DUENDE_IDENTITY_SERVER6_ID, clientSecret: process.env.AUTH_DUENDE_IDENTITY_SERVER6_SECRET, issuer: process.env.AUTH_DUENDE_IDENTITY_SERVER6_ISSUER })
 * ```
 * @see https://docs.duendesoftware.com/identityserver/
 */
export default function DuendeIdentityServer6(options: OAuthUserConfig<DuendeIdentityServer6Profile> = {}): OIDCConfig<DuendeIdentityServer6Profile> {
  return {
    id: "duende-identity-server6",
    name: "DuendeIdentityServer6",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    profile: standardClaimsProfile,
    style: { brandColor: "#1b5b8f", bg: "#fff", text: "#000" },
    options,
  }
}
