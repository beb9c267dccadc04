/**
 * Sign in with a Mastodon server, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The account as `GET /api/v1/accounts/verify_credentials` returns it (abridged).
 *
 * @see https://docs.joinmastodon.org/methods/accounts/#verify_credentials
 */
export interface MastodonProfile {
  id: string
  username: string
  acct: string
  display_name: string
  locked: boolean
  bot: boolean
  created_at: string
  note: string
  url: string
  avatar: string
  avatar_static: string
  header: string
  header_static: string
  followers_count: number
  following_count: number
  statuses_count: number
  last_status_at: string | null
  [claim: string]: unknown
}

/**
 * Mastodon. Give the server's URL as `issuer` (`AUTH_MASTODON_ISSUER`, e.g. `https://mastodon.social`).
 * Requests `read`. Mastodon gives no email.
 *
 * @example
 * ```ts
 * import Mastodon from "authflow/providers/mastodon"
 *
 * // AUTH_MASTODON_ID, AUTH_MASTODON_SECRET and AUTH_MASTODON_ISSUER are read from the environment
 * const config = { providers: [Mastodon] }
 * // or explicitly:
 * Mastodon({ clientId: process.env.AUTH_MASTODON_ID, clientSecret: process.env.AUTH_MASTODON_SECRET, issuer: "https://mastodon.social" })
 * ```
 * @see https://docs.joinmastodon.org/spec/oauth/
 */
export default function Mastodon(options: OAuthUserConfig<MastodonProfile> = {}): OAuthConfig<MastodonProfile> {
  const base = options.issuer?.replace(/\/+$/, "")
  return {
    id: "mastodon",
    name: "Mastodon",
    type: "oauth",
    // Without the server's URL the endpoints are left out, and the configuration check says so.
    ...(base
      ? {
          authorization: { url: `${base}/oauth/authorize`, params: { scope: "read" } },
          token: `${base}/oauth/token`,
          userinfo: `${base}/api/v1/accounts/verify_credentials`,
        }
      : {}),
    profile(profile) {
      return { id: profile.id, name: profile.username, email: null, image: profile.avatar_static ?? null }
    },
    style: { brandColor: "#6364ff", bg: "#6364ff", text: "#fff" },
    options,
  }
}
