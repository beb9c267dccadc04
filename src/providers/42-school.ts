/**
 * Sign in with the 42 network's intranet (42 School), an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v2/me` (abridged).
 *
 * @see https://api.intra.42.fr/apidoc/2.0/users/me.html
 */
export interface FortyTwoSchoolProfile {
  id: number
  login: string
  email: string
  first_name: string
  last_name: string
  usual_full_name: string
  usual_first_name: string | null
  displayname: string
  url: string
  image: { link: string | null; versions?: Record<string, string | null> }
  "staff?": boolean
  campus?: unknown[]
  cursus_users?: unknown[]
  [claim: string]: unknown
}

/**
 * 42 School. Requests `public`. The account id is the numeric user id as a string, as in Auth.js.
 *
 * @example
 * ```ts
 * import FortyTwoSchool from "authflow/providers/42-school"
 *
 * // AUTH_42_SCHOOL_ID and AUTH_42_SCHOOL_SECRET are read from the environment
 * const config = { providers: [FortyTwoSchool] }
 * // or explicitly:
 * FortyTwoSchool({ clientId: process.env.AUTH_42_SCHOOL_ID, clientSecret: process.env.AUTH_42_SCHOOL_SECRET })
 * ```
 * @see https://api.intra.42.fr/apidoc/guides/web_application_flow
 */
export default function FortyTwoSchool(options: OAuthUserConfig<FortyTwoSchoolProfile> = {}): OAuthConfig<FortyTwoSchoolProfile> {
  return {
    id: "42-school",
    name: "42 School",
    type: "oauth",
    authorization: { url: "https://api.intra.42.fr/oauth/authorize", params: { scope: "public" } },
    token: "https://api.intra.42.fr/oauth/token",
    userinfo: "https://api.intra.42.fr/v2/me",
    profile(profile) {
      return {
        id: String(profile.id),
        name: profile.usual_full_name ?? profile.displayname ?? null,
        email: profile.email ?? null,
        image: profile.image?.link ?? null,
      }
    },
    style: { brandColor: "#000", bg: "#000", text: "#fff" },
    options,
  }
}
