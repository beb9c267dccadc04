/**
 * Sign in with Auth0, an OpenID Connect provider on your own tenant domain.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of an Auth0 ID token with the `openid profile email` scopes.
 *
 * @see https://auth0.com/docs/secure/tokens/id-tokens/id-token-structure
 */
export interface Auth0Profile {
  sub: string
  name?: string
  nickname?: string
  given_name?: string
  family_name?: string
  picture?: string
  email?: string
  email_verified?: boolean
  updated_at?: string
  org_id?: string
  [claim: string]: unknown
}

/**
 * Auth0. Give your tenant as the issuer (`AUTH_AUTH0_ISSUER`, e.g. `https://tenant.eu.auth0.com`);
 * the endpoints come from its discovery document.
 *
 * @example
 * ```ts
 * import Auth0 from "authflow/providers/auth0"
 *
 * // AUTH_AUTH0_ID, AUTH_AUTH0_SECRET and AUTH_AUTH0_ISSUER are read from the environment
 * const config = { providers: [Auth0] }
 * // or explicitly:
 * Auth0({ clientId: process.env.AUTH_AUTH0_ID, clientSecret: process.env.AUTH_AUTH0_SECRET, issuer: process.env.AUTH_AUTH0_ISSUER })
 * ```
 * @see https://auth0.com/docs/authenticate/protocols/openid-connect-protocol
 */
export default function Auth0(options: OAuthUserConfig<Auth0Profile> = {}): OIDCConfig<Auth0Profile> {
  return {
    id: "auth0",
    name: "Auth0",
    type: "oidc",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: { brandColor: "#eb5424", bg: "#eb5424", text: "#fff" },
    options,
  }
}
