/**
 * Sign in with Keycloak, an OpenID Connect provider you host.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a Keycloak ID token with the default client scopes.
 *
 * @see https://www.keycloak.org/docs/latest/server_admin/#_oidc
 */
export interface KeycloakProfile {
  iss: string
  aud: string | string[]
  sub: string
  iat: number
  exp: number
  azp?: string
  session_state?: string
  sid?: string
  name?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Keycloak. Give the realm URL as the issuer (`AUTH_KEYCLOAK_ISSUER`, e.g.
 * `https://keycloak.example.com/realms/myrealm`).
 *
 * @example
 * ```ts
 * import Keycloak from "authflow/providers/keycloak"
 *
 * // AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET and AUTH_KEYCLOAK_ISSUER are read from the environment
 * const config = { providers: [Keycloak] }
 * // or explicitly:
 * Keycloak({ clientId: process.env.AUTH_KEYCLOAK_ID, clientSecret: process.env.AUTH_KEYCLOAK_SECRET, issuer: process.env.AUTH_KEYCLOAK_ISSUER })
 * ```
 * @see https://www.keycloak.org/securing-apps/oidc-layers
 */
export default function Keycloak(options: OAuthUserConfig<KeycloakProfile> = {}): OIDCConfig<KeycloakProfile> {
  return {
    id: "keycloak",
    name: "Keycloak",
    type: "oidc",
    profile: standardClaimsProfile,
    style: { brandColor: "#428bca", bg: "#fff", text: "#428bca" },
    options,
  }
}
