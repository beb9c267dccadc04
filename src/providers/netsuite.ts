/**
 * Sign in with Oracle NetSuite, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The user as NetSuite's `runtime.getCurrentUser()` describes it, answered by the RESTlet you give
 * as `userinfo`.
 *
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_4296530219.html
 */
export interface NetSuiteProfile {
  id: number
  name: string
  email: string
  location?: number
  role?: number
  roleId?: string
  roleCenter?: string
  subsidiary?: number
  department?: number
  contact?: number
  [claim: string]: unknown
}

/** Options of {@link NetSuite}. */
export type NetSuiteUserConfig = OAuthUserConfig<NetSuiteProfile> & {
  /** The NetSuite account id, as in `<accountID>.app.netsuite.com` (e.g. `TSTDRV1234567` or `1234567_SB1`). */
  accountID?: string
}

/**
 * NetSuite. Give your account id as `accountID` and, as `userinfo`, the URL of a RESTlet that answers
 * the current user (NetSuite has no userinfo endpoint of its own). Requests `restlets
 * rest_webservices`.
 *
 * @example
 * ```ts
 * import NetSuite from "authflow/providers/netsuite"
 *
 * // AUTH_NETSUITE_ID and AUTH_NETSUITE_SECRET are read from the environment
 * const config = { providers: [NetSuite] }
 * // or explicitly:
 * NetSuite({ clientId: process.env.AUTH_NETSUITE_ID, clientSecret: process.env.AUTH_NETSUITE_SECRET, accountID: "TSTDRV1234567", userinfo: "https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1&deploy=1" })
 * ```
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_158074210415.html
 */
export default function NetSuite(options: NetSuiteUserConfig = {}): OAuthConfig<NetSuiteProfile> {
  const account = options.accountID?.toLowerCase().replace(/_/g, "-")
  return {
    id: "netsuite",
    name: "NetSuite",
    type: "oauth",
    authorization: { url: `https://${account}.app.netsuite.com/app/login/oauth2/authorize.nl`, params: { scope: "restlets rest_webservices" } },
    token: `https://${account}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token`,
    checks: ["state"],
    profile(profile) {
      return { id: String(profile.id), name: profile.name ?? null, email: profile.email ?? null, image: null }
    },
    style: { brandColor: "#125580", bg: "#181a1b", text: "#fbfbfb" },
    options,
  }
}
