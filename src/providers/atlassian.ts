/**
 * Sign in with Atlassian (Jira, Confluence), through OAuth 2.0 (3LO).
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET https://api.atlassian.com/me`.
 *
 * @see https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/#how-do-i-retrieve-the-public-profile-of-the-authenticated-user-
 */
export interface AtlassianProfile {
  account_id: string
  account_type?: string
  account_status?: string
  email: string
  email_verified?: boolean
  name: string
  nickname?: string
  picture?: string
  locale?: string
  zoneinfo?: string
  extended_profile?: Record<string, unknown>
  [claim: string]: unknown
}

/**
 * Atlassian. Requests `read:me` for the audience `api.atlassian.com`; add product scopes (and
 * `offline_access` for a refresh token) through the authorization params. The client secret goes
 * in the token request body, as Atlassian's documentation shows.
 *
 * @example
 * ```ts
 * import Atlassian from "authflow/providers/atlassian"
 *
 * // AUTH_ATLASSIAN_ID and AUTH_ATLASSIAN_SECRET are read from the environment
 * const config = { providers: [Atlassian] }
 * // or explicitly, with Jira access:
 * Atlassian({
 *   clientId: process.env.AUTH_ATLASSIAN_ID,
 *   clientSecret: process.env.AUTH_ATLASSIAN_SECRET,
 *   authorization: { params: { scope: "read:me read:jira-work offline_access" } },
 * })
 * ```
 * @see https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/
 */
export default function Atlassian(options: OAuthUserConfig<AtlassianProfile> = {}): OAuthConfig<AtlassianProfile> {
  return {
    id: "atlassian",
    name: "Atlassian",
    type: "oauth",
    authorization: { url: "https://auth.atlassian.com/authorize", params: { audience: "api.atlassian.com", scope: "read:me" } },
    token: "https://auth.atlassian.com/oauth/token",
    userinfo: "https://api.atlassian.com/me",
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return { id: profile.account_id, name: profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }
    },
    style: { brandColor: "#0052cc", bg: "#fff", text: "#0052cc" },
    options,
  }
}
