/**
 * Sign in with Coinbase, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v2/user`: the user inside `data`.
 *
 * @see https://docs.cdp.coinbase.com/coinbase-app/docs/api-users
 */
export interface CoinbaseProfile {
  data: {
    id: string
    name: string
    username: string | null
    profile_location: string | null
    profile_bio: string | null
    profile_url: string | null
    avatar_url: string
    resource: string
    resource_path: string
    email?: string
  }
  [claim: string]: unknown
}

/**
 * Coinbase. Requests `wallet:user:email wallet:user:read`.
 *
 * @example
 * ```ts
 * import Coinbase from "authflow/providers/coinbase"
 *
 * // AUTH_COINBASE_ID and AUTH_COINBASE_SECRET are read from the environment
 * const config = { providers: [Coinbase] }
 * // or explicitly:
 * Coinbase({ clientId: process.env.AUTH_COINBASE_ID, clientSecret: process.env.AUTH_COINBASE_SECRET })
 * ```
 * @see https://docs.cdp.coinbase.com/coinbase-app/docs/coinbase-app-integration
 */
export default function Coinbase(options: OAuthUserConfig<CoinbaseProfile> = {}): OAuthConfig<CoinbaseProfile> {
  return {
    id: "coinbase",
    name: "Coinbase",
    type: "oauth",
    authorization: { url: "https://login.coinbase.com/oauth2/auth", params: { scope: "wallet:user:email wallet:user:read" } },
    token: "https://login.coinbase.com/oauth2/token",
    userinfo: "https://api.coinbase.com/v2/user",
    profile(profile) {
      return { id: profile.data.id, name: profile.data.name ?? null, email: profile.data.email ?? null, image: profile.data.avatar_url ?? null }
    },
    style: { brandColor: "#0052ff", bg: "#0052ff", text: "#fff" },
    options,
  }
}
