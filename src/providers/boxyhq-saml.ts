/**
 * Sign in with SAML single sign-on through BoxyHQ SAML Jackson (Ory Polis), an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of Jackson's `GET /api/oauth/userinfo`: the SAML user.
 *
 * @see https://boxyhq.com/docs/jackson/sso-flow/
 */
export interface BoxyHQSAMLProfile {
  id: string
  email: string
  firstName?: string
  lastName?: string
  roles?: string[]
  groups?: string[]
  requested?: Record<string, string>
  raw?: Record<string, unknown>
  [claim: string]: unknown
}

/**
 * BoxyHQ SAML Jackson. Give the Jackson service's URL as `issuer` (`AUTH_BOXYHQ_SAML_ISSUER`); pass
 * the tenant and product as `authorization: { params: { tenant, product } }`.
 *
 * @example
 * ```ts
 * import BoxyHQSAML from "authflow/providers/boxyhq-saml"
 *
 * // AUTH_BOXYHQ_SAML_ID, AUTH_BOXYHQ_SAML_SECRET and AUTH_BOXYHQ_SAML_ISSUER are read from the environment
 * const config = { providers: [BoxyHQSAML] }
 * // or explicitly:
 * BoxyHQSAML({ clientId: process.env.AUTH_BOXYHQ_SAML_ID, clientSecret: process.env.AUTH_BOXYHQ_SAML_SECRET, issuer: "https://jackson.example.com", authorization: { params: { tenant: "example.com", product: "my-app" } } })
 * ```
 * @see https://boxyhq.com/docs/jackson/overview
 */
export default function BoxyHQSAML(options: OAuthUserConfig<BoxyHQSAMLProfile> = {}): OAuthConfig<BoxyHQSAMLProfile> {
  const base = options.issuer?.replace(/\/+$/, "")
  return {
    id: "boxyhq-saml",
    name: "BoxyHQ SAML",
    type: "oauth",
    // Without the server's URL the endpoints are left out, and the configuration check says so.
    ...(base
      ? {
          authorization: { url: `${base}/api/oauth/authorize`, params: { provider: "saml", scope: "" } },
          token: `${base}/api/oauth/token`,
          userinfo: `${base}/api/oauth/userinfo`,
        }
      : {}),
    profile(profile) {
      return { id: profile.id, name: [profile.firstName, profile.lastName].filter(Boolean).join(" ") || null, email: profile.email ?? null, image: null }
    },
    style: { brandColor: "#25c2a0", bg: "#25c2a0", text: "#fff" },
    options,
  }
}
