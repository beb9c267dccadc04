/**
 * Sign in with IdentityServer4, an OpenID Connect provider (the predecessor of Duende IdentityServer).
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a IdentityServer4 ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://identityserver4.readthedocs.io/en/latest/topics/resources.html
 */
export interface IdentityServer4Profile {
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
 * IdentityServer4. Give your issuer (`AUTH_IDENTITY_SERVER4_ISSUER`, e.g. `https://demo.identityserver.io`); the endpoints come from
 * its discovery document.
 *
 * @example
 * ```ts
 * import IdentityServer4 from "authflow/providers/identity-server4"
 *
 * // AUTH_IDENTITY_SERVER4_ID, AUTH_IDENTITY_SERVER4_SECRET and AUTH_IDENTITY_SERVER4_ISSUER are read from the environment
 * const config = { providers: [IdentityServer4] }
 * // or explicitly:
 * IdentityServer4({ clientId: process.env.AUTH_IDENTITY_SERVER4_ID, clientSecret: process.env.AUTH_IDENTITY_SERVER4_SECRET, issuer: process.env.AUTH_IDENTITY_SERVER4_ISSUER })
 * ```
 * @see https://identityserver4.readthedocs.io/
 */
export default function IdentityServer4(options: OAuthUserConfig<IdentityServer4Profile> = {}): OIDCConfig<IdentityServer4Profile> {
  return {
    id: "identity-server4",
    name: "IdentityServer4",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    profile: standardClaimsProfile,
    style: { brandColor: "#4e8fc5", bg: "#fff", text: "#000" },
    options,
  }
}
