/**
 * Sign in with Ping Identity, an OpenID Connect provider (PingOne).
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a Ping Identity ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://apidocs.pingidentity.com/pingone/auth/v1/api/#openid-connectoauth-2
 */
export interface PingIdProfile {
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
 * Ping Identity. Give your issuer (`AUTH_PING_ID_ISSUER`, e.g. `https://auth.pingone.com/<environment id>/as`); the endpoints come from
 * its discovery document.
 *
 * @example
 * ```ts
 * import PingId from "authflow/providers/ping-id"
 *
 * // AUTH_PING_ID_ID, AUTH_PING_ID_SECRET and AUTH_PING_ID_ISSUER are read from the environment
 * const config = { providers: [PingId] }
 * // or explicitly:
 * PingId({ clientId: process.env.AUTH_PING_ID_ID, clientSecret: process.env.AUTH_PING_ID_SECRET, issuer: process.env.AUTH_PING_ID_ISSUER })
 * ```
 * @see https://docs.pingidentity.com/r/en-us/pingone/p1_c_openid_connect
 */
export default function PingId(options: OAuthUserConfig<PingIdProfile> = {}): OIDCConfig<PingIdProfile> {
  return {
    id: "ping-id",
    name: "Ping Identity",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    profile: standardClaimsProfile,
    style: { brandColor: "#b3282d", bg: "#b3282d", text: "#fff" },
    options,
  }
}
