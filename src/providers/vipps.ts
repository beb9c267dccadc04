/**
 * Sign in with Vipps MobilePay, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The userinfo of Vipps Login with the `openid name email` scopes.
 *
 * @see https://developer.vippsmobilepay.com/api/userinfo/
 */
export interface VippsProfile {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  birthdate?: string
  sid?: string
  [claim: string]: unknown
}

/**
 * Vipps. Requests `openid name email`; the profile is read from userinfo. For the test
 * environment pass `issuer: "https://apitest.vipps.no/access-management-1.0/access/"`.
 *
 * @example
 * ```ts
 * import Vipps from "authflow/providers/vipps"
 *
 * // AUTH_VIPPS_ID and AUTH_VIPPS_SECRET are read from the environment
 * const config = { providers: [Vipps] }
 * // or explicitly:
 * Vipps({ clientId: process.env.AUTH_VIPPS_ID, clientSecret: process.env.AUTH_VIPPS_SECRET })
 * ```
 * @see https://developer.vippsmobilepay.com/docs/APIs/login-api/
 */
export default function Vipps(options: OAuthUserConfig<VippsProfile> = {}): OIDCConfig<VippsProfile> {
  return {
    id: "vipps",
    name: "Vipps",
    type: "oidc",
    issuer: "https://api.vipps.no/access-management-1.0/access/",
    authorization: { params: { scope: "openid name email" } },
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    profile: standardClaimsProfile,
    style: { brandColor: "#f05c18", bg: "#f05c18", text: "#fff" },
    options,
  }
}
