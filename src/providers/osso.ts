/**
 * Sign in with SAML single sign-on through Osso, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of Osso's `GET /oauth/me`: the SAML user.
 *
 * @see https://ossoapp.com/docs/reference/oauth-endpoints
 */
export interface OssoProfile {
  id: string
  email: string
  idp: string
  requested?: Record<string, unknown>
  [claim: string]: unknown
}

/**
 * Osso. Give your Osso instance as `issuer` (`AUTH_OSSO_ISSUER`); pass the customer's domain as
 * `authorization: { params: { domain } }`. Osso gives no name.
 *
 * @example
 * ```ts
 * import Osso from "authflow/providers/osso"
 *
 * // AUTH_OSSO_ID, AUTH_OSSO_SECRET and AUTH_OSSO_ISSUER are read from the environment
 * const config = { providers: [Osso] }
 * // or explicitly:
 * Osso({ clientId: process.env.AUTH_OSSO_ID, clientSecret: process.env.AUTH_OSSO_SECRET, issuer: "https://demo.ossoapp.com" })
 * ```
 * @see https://ossoapp.com/docs/
 */
export default function Osso(options: OAuthUserConfig<OssoProfile> = {}): OAuthConfig<OssoProfile> {
  const base = options.issuer?.replace(/\/+$/, "")
  return {
    id: "osso",
    name: "Osso",
    type: "oauth",
    // Without the server's URL the endpoints are left out, and the configuration check says so.
    ...(base
      ? {
          authorization: { url: `${base}/oauth/authorize`, params: { scope: "" } },
          token: `${base}/oauth/token`,
          userinfo: `${base}/oauth/me`,
        }
      : {}),
    profile(profile) {
      return { id: profile.id, name: null, email: profile.email ?? null, image: null }
    },
    style: { brandColor: "#5c2be2", bg: "#fff", text: "#000" },
    options,
  }
}
