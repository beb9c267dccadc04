/**
 * Sign in with FreshBooks, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /auth/api/v1/users/me`: the identity inside `response` (abridged).
 *
 * @see https://www.freshbooks.com/api/me_endpoint
 */
export interface FreshbooksProfile {
  response: {
    id: number
    identity_id?: number
    first_name: string
    last_name: string
    email: string
    language?: string
    confirmed_at?: string
    created_at?: string
    business_memberships?: unknown[]
  }
  [claim: string]: unknown
}

/**
 * FreshBooks. The scopes are the application's, chosen in the FreshBooks developer portal.
 *
 * @example
 * ```ts
 * import Freshbooks from "authflow/providers/freshbooks"
 *
 * // AUTH_FRESHBOOKS_ID and AUTH_FRESHBOOKS_SECRET are read from the environment
 * const config = { providers: [Freshbooks] }
 * // or explicitly:
 * Freshbooks({ clientId: process.env.AUTH_FRESHBOOKS_ID, clientSecret: process.env.AUTH_FRESHBOOKS_SECRET })
 * ```
 * @see https://www.freshbooks.com/api/authenticating-with-oauth-2-0-on-the-new-freshbooks-api
 */
export default function Freshbooks(options: OAuthUserConfig<FreshbooksProfile> = {}): OAuthConfig<FreshbooksProfile> {
  return {
    id: "freshbooks",
    name: "Freshbooks",
    type: "oauth",
    authorization: { url: "https://auth.freshbooks.com/service/auth/oauth/authorize", params: { scope: "" } },
    token: "https://api.freshbooks.com/auth/oauth/token",
    userinfo: "https://api.freshbooks.com/auth/api/v1/users/me",
    profile(profile) {
      const { id, first_name, last_name, email } = profile.response
      return { id: String(id), name: [first_name, last_name].filter(Boolean).join(" ") || null, email: email ?? null, image: null }
    },
    style: { brandColor: "#0075dd", bg: "#0075dd", text: "#fff" },
    options,
  }
}
