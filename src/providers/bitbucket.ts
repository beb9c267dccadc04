/**
 * Sign in with Bitbucket Cloud, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/** One address from `GET /2.0/user/emails`. */
export interface BitbucketEmail {
  email: string
  is_primary: boolean
  is_confirmed: boolean
  type?: string
}

/**
 * The answer of `GET /2.0/user`, plus `email`: the primary confirmed address this provider reads
 * from `/2.0/user/emails`.
 *
 * @see https://developer.atlassian.com/cloud/bitbucket/rest/api-group-users/#api-user-get
 */
export interface BitbucketProfile {
  account_id: string
  uuid: string
  username?: string
  nickname?: string
  display_name?: string
  account_status?: string
  created_on?: string
  is_staff?: boolean
  type?: "user"
  links: { avatar?: { href: string }; html?: { href: string }; [link: string]: unknown }
  email?: string | null
  [claim: string]: unknown
}

/**
 * Bitbucket. Requests `account email`, and adds the primary confirmed address from
 * `/2.0/user/emails` to the profile (`/2.0/user` has none). The account id is `account_id`.
 *
 * @example
 * ```ts
 * import Bitbucket from "authflow/providers/bitbucket"
 *
 * // AUTH_BITBUCKET_ID (OAuth consumer key) and AUTH_BITBUCKET_SECRET are read from the environment
 * const config = { providers: [Bitbucket] }
 * // or explicitly:
 * Bitbucket({ clientId: process.env.AUTH_BITBUCKET_ID, clientSecret: process.env.AUTH_BITBUCKET_SECRET })
 * ```
 * @see https://developer.atlassian.com/cloud/bitbucket/oauth-2/
 */
export default function Bitbucket(options: OAuthUserConfig<BitbucketProfile> = {}): OAuthConfig<BitbucketProfile> {
  return {
    id: "bitbucket",
    name: "Bitbucket",
    type: "oauth",
    authorization: { url: "https://bitbucket.org/site/oauth2/authorize", params: { scope: "account email" } },
    token: "https://bitbucket.org/site/oauth2/access_token",
    userinfo: {
      url: "https://api.bitbucket.org/2.0/user",
      async request({ tokens, fetch }) {
        const headers = { Authorization: `Bearer ${tokens.access_token}`, Accept: "application/json" }
        const response = await fetch("https://api.bitbucket.org/2.0/user", { headers })
        if (!response.ok) throw new Error(`Bitbucket /2.0/user answered ${response.status}`)
        const profile = (await response.json()) as BitbucketProfile
        // Without the email scope this answers 403; the sign-in goes on without an address.
        const emails = await fetch("https://api.bitbucket.org/2.0/user/emails", { headers })
        if (emails.ok) {
          const { values = [] } = (await emails.json()) as { values?: BitbucketEmail[] }
          const chosen = values.find((e) => e.is_primary && e.is_confirmed) ?? values.find((e) => e.is_confirmed)
          profile.email = chosen?.email ?? null
        }
        return profile
      },
    },
    profile(profile) {
      return {
        id: profile.account_id,
        name: profile.display_name ?? profile.username ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.links?.avatar?.href ?? null,
      }
    },
    style: { brandColor: "#0052cc", bg: "#205081", text: "#fff" },
    options,
  }
}
