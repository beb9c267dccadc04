/**
 * Sign in with authentik, an OpenID Connect provider you host.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of an authentik ID token with the default scope mappings.
 *
 * @see https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/
 */
export interface AuthentikProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  auth_time?: number
  acr?: string
  nonce?: string
  at_hash?: string
  name?: string
  given_name?: string
  preferred_username?: string
  nickname?: string
  email?: string
  email_verified?: boolean
  picture?: string
  groups?: string[]
  [claim: string]: unknown
}

/**
 * authentik. Give the application's provider URL as the issuer (`AUTH_AUTHENTIK_ISSUER`, e.g.
 * `https://authentik.example.com/application/o/my-app/`, trailing slash included as authentik
 * writes it).
 *
 * @example
 * ```ts
 * import Authentik from "authflow/providers/authentik"
 *
 * // AUTH_AUTHENTIK_ID, AUTH_AUTHENTIK_SECRET and AUTH_AUTHENTIK_ISSUER are read from the environment
 * const config = { providers: [Authentik] }
 * // or explicitly:
 * Authentik({ clientId: process.env.AUTH_AUTHENTIK_ID, clientSecret: process.env.AUTH_AUTHENTIK_SECRET, issuer: process.env.AUTH_AUTHENTIK_ISSUER })
 * ```
 * @see https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/
 */
export default function Authentik(options: OAuthUserConfig<AuthentikProfile> = {}): OIDCConfig<AuthentikProfile> {
  return {
    id: "authentik",
    name: "Authentik",
    type: "oidc",
    profile: standardClaimsProfile,
    style: { brandColor: "#fd4b2d", bg: "#fd4b2d", text: "#fff" },
    options,
  }
}
