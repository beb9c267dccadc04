/**
 * Sign in with Salesforce, an OpenID Connect provider whose profile comes from its userinfo endpoint.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The answer of the Salesforce userinfo endpoint.
 *
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_userinfo_endpoint.htm
 */
export interface SalesforceProfile {
  /** `https://login.salesforce.com/id/<organization id>/<user id>`. */
  sub: string
  user_id: string
  organization_id: string
  name?: string
  nickname?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  thumbnail?: string
  zoneinfo?: string
  locale?: string
  user_type?: string
  [claim: string]: unknown
}

/**
 * Salesforce. Issuer `https://login.salesforce.com` (use `https://test.salesforce.com` for sandboxes
 * or your My Domain URL); `idToken: false` makes the engine read the profile from the userinfo
 * endpoint instead of the ID token. The account id is `sub`, as in Auth.js.
 *
 * @example
 * ```ts
 * import Salesforce from "authflow/providers/salesforce"
 *
 * // AUTH_SALESFORCE_ID and AUTH_SALESFORCE_SECRET are read from the environment
 * const config = { providers: [Salesforce] }
 * // or explicitly, against a sandbox:
 * Salesforce({ clientId: process.env.AUTH_SALESFORCE_ID, clientSecret: process.env.AUTH_SALESFORCE_SECRET, issuer: "https://test.salesforce.com" })
 * ```
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_oauth_web_server_flow.htm
 */
export default function Salesforce(options: OAuthUserConfig<SalesforceProfile> = {}): OIDCConfig<SalesforceProfile> {
  return {
    id: "salesforce",
    name: "Salesforce",
    type: "oidc",
    issuer: "https://login.salesforce.com",
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    profile: standardClaimsProfile,
    style: { brandColor: "#00a1e0", bg: "#00a1e0", text: "#fff" },
    options,
  }
}
