/**
 * Sign in with Asgardeo, an OpenID Connect provider (WSO2's identity as a service).
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a Asgardeo ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://wso2.com/asgardeo/docs/references/user-management/user-attributes/
 */
export interface AsgardeoProfile {
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
 * Asgardeo. Give your issuer (`AUTH_ASGARDEO_ISSUER`, e.g. `https://api.asgardeo.io/t/<organization>`); the endpoints come from
 * its discovery document. Asgardeo serves its discovery document under `/oauth2/token`, where
 * `wellKnown` points.
 *
 * @example
 * ```ts
 * import Asgardeo from "authflow/providers/asgardeo"
 *
 * // AUTH_ASGARDEO_ID, AUTH_ASGARDEO_SECRET and AUTH_ASGARDEO_ISSUER are read from the environment
 * const config = { providers: [Asgardeo] }
 * // or explicitly:
 * Asgardeo({ clientId: process.env.AUTH_ASGARDEO_ID, clientSecret: process.env.AUTH_ASGARDEO_SECRET, issuer: process.env.AUTH_ASGARDEO_ISSUER })
 * ```
 * @see https://wso2.com/asgardeo/docs/guides/authentication/oidc/
 */
export default function Asgardeo(options: OAuthUserConfig<AsgardeoProfile> = {}): OIDCConfig<AsgardeoProfile> {
  const issuer = options.issuer?.replace(/\/+$/, "")
  return {
    id: "asgardeo",
    name: "Asgardeo",
    type: "oidc",
    ...(issuer ? { issuer, wellKnown: `${issuer}/oauth2/token/.well-known/openid-configuration` } : {}),
    profile: standardClaimsProfile,
    style: { brandColor: "#ff7300", bg: "#000", text: "#fff" },
    options,
  }
}
