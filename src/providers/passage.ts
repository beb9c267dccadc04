/**
 * Sign in with Passage, an OpenID Connect provider (passkeys by 1Password).
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a Passage ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://docs.passage.id/hosted-login/oidc-client-configuration
 */
export interface PassageProfile {
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
 * Passage. Give your issuer (`AUTH_PASSAGE_ISSUER`, e.g. `https://<app id>.withpassage.com`); the endpoints come from
 * its discovery document. The client authenticates with HTTP Basic.
 *
 * @example
 * ```ts
 * import Passage from "authflow/providers/passage"
 *
 * // AUTH_PASSAGE_ID, AUTH_PASSAGE_SECRET and AUTH_PASSAGE_ISSUER are read from the environment
 * const config = { providers: [Passage] }
 * // or explicitly:
 * Passage({ clientId: process.env.AUTH_PASSAGE_ID, clientSecret: process.env.AUTH_PASSAGE_SECRET, issuer: process.env.AUTH_PASSAGE_ISSUER })
 * ```
 * @see https://docs.passage.id/hosted-login/oidc-client-configuration
 */
export default function Passage(options: OAuthUserConfig<PassageProfile> = {}): OIDCConfig<PassageProfile> {
  return {
    id: "passage",
    name: "Passage",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    client: { token_endpoint_auth_method: "client_secret_basic" },
    profile: standardClaimsProfile,
    style: { brandColor: "#3d53f6", bg: "#3d53f6", text: "#fff" },
    options,
  }
}
