/**
 * Sign in with Webex, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v1/people/me` (abridged).
 *
 * @see https://developer.webex.com/docs/api/v1/people/get-my-own-details
 */
export interface WebexProfile {
  id: string
  emails: string[]
  displayName: string
  nickName?: string
  firstName?: string
  lastName?: string
  avatar?: string
  orgId?: string
  type?: "person" | "bot"
  [claim: string]: unknown
}

/**
 * Webex. Requests `spark:kms spark:people_read`.
 *
 * @example
 * ```ts
 * import Webex from "authflow/providers/webex"
 *
 * // AUTH_WEBEX_ID and AUTH_WEBEX_SECRET are read from the environment
 * const config = { providers: [Webex] }
 * // or explicitly:
 * Webex({ clientId: process.env.AUTH_WEBEX_ID, clientSecret: process.env.AUTH_WEBEX_SECRET })
 * ```
 * @see https://developer.webex.com/docs/integrations
 */
export default function Webex(options: OAuthUserConfig<WebexProfile> = {}): OAuthConfig<WebexProfile> {
  return {
    id: "webex",
    name: "Webex",
    type: "oauth",
    authorization: { url: "https://webexapis.com/v1/authorize", params: { scope: "spark:kms spark:people_read" } },
    token: "https://webexapis.com/v1/access_token",
    userinfo: "https://webexapis.com/v1/people/me",
    profile(profile) {
      return { id: profile.id, name: profile.displayName ?? null, email: profile.emails?.[0] ?? null, image: profile.avatar ?? null }
    },
    style: { brandColor: "#07c160", bg: "#000", text: "#fff" },
    options,
  }
}
