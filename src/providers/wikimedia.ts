/**
 * Sign in with Wikimedia (Wikipedia and its sister projects, through Meta-Wiki), an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /w/rest.php/oauth2/resource/profile`.
 *
 * @see https://www.mediawiki.org/wiki/Extension:OAuth#OAuth_2
 */
export interface WikimediaProfile {
  sub: string
  username: string
  editcount: number
  confirmed_email: boolean
  blocked: boolean
  registered: string
  groups: string[]
  rights: string[]
  realname?: string
  email?: string
  grants: string[]
  [claim: string]: unknown
}

/**
 * Wikimedia. The grants are the consumer's, chosen when it is registered; an email is only given
 * with the `mwoauth-authonlyprivate` grant.
 *
 * @example
 * ```ts
 * import Wikimedia from "authflow/providers/wikimedia"
 *
 * // AUTH_WIKIMEDIA_ID and AUTH_WIKIMEDIA_SECRET are read from the environment
 * const config = { providers: [Wikimedia] }
 * // or explicitly:
 * Wikimedia({ clientId: process.env.AUTH_WIKIMEDIA_ID, clientSecret: process.env.AUTH_WIKIMEDIA_SECRET })
 * ```
 * @see https://www.mediawiki.org/wiki/OAuth/For_Developers
 */
export default function Wikimedia(options: OAuthUserConfig<WikimediaProfile> = {}): OAuthConfig<WikimediaProfile> {
  return {
    id: "wikimedia",
    name: "Wikimedia",
    type: "oauth",
    authorization: { url: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize", params: { scope: "" } },
    token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
    userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
    profile(profile) {
      return { id: profile.sub, name: profile.username, email: profile.email ?? null, image: null }
    },
    style: { brandColor: "#000", bg: "#000", text: "#fff" },
    options,
  }
}
