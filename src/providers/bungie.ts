/**
 * Sign in with Bungie.net (Destiny), an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig, UserinfoEndpointConfig } from "./oauth.js"
import { endpointUrl } from "./oauth.js"

/**
 * The answer of `GET /Platform/User/GetBungieAccount/<membershipId>/254/` (abridged): the
 * Bungie.net user inside `Response.bungieNetUser`.
 *
 * @see https://bungie-net.github.io/multi/operation_get_User-GetBungieAccount.html
 */
export interface BungieProfile {
  Response: {
    bungieNetUser: {
      membershipId: string
      uniqueName?: string
      displayName: string
      profilePicture?: number
      profilePicturePath: string
      locale?: string
      firstAccess?: string
      lastUpdate?: string
    }
    destinyMemberships?: unknown[]
  }
  ErrorCode: number
  ErrorStatus: string
  Message: string
  [claim: string]: unknown
}

/** Options of {@link Bungie}. */
export type BungieUserConfig = OAuthUserConfig<BungieProfile> & {
  /** The application's API key, sent as `X-API-Key`: Bungie's API refuses requests without it. */
  apiKey?: string
}

const accountUrl = "https://www.bungie.net/Platform/User/GetBungieAccount/{membershipId}/254/"

/**
 * Bungie. Bungie's token response names the user (`membership_id`); the account is then read with
 * the application's API key (`apiKey`, sent as `X-API-Key`). Bungie has no scopes and gives no email.
 *
 * @example
 * ```ts
 * import Bungie from "authflow/providers/bungie"
 *
 * // AUTH_BUNGIE_ID and AUTH_BUNGIE_SECRET are read from the environment
 * const config = { providers: [Bungie({ apiKey: process.env.BUNGIE_API_KEY })] }
 * // or explicitly:
 * Bungie({ clientId: process.env.AUTH_BUNGIE_ID, clientSecret: process.env.AUTH_BUNGIE_SECRET, apiKey: process.env.BUNGIE_API_KEY })
 * ```
 * @see https://github.com/Bungie-net/api/wiki/OAuth-Documentation
 */
export default function Bungie(options: BungieUserConfig = {}): OAuthConfig<BungieProfile> {
  return {
    id: "bungie",
    name: "Bungie",
    type: "oauth",
    authorization: { url: "https://www.bungie.net/en/OAuth/Authorize", params: { reauth: "true", scope: "" } },
    token: "https://www.bungie.net/platform/app/oauth/token/",
    userinfo: {
      url: accountUrl,
      async request({ tokens, provider, fetch }) {
        const template = endpointUrl(provider.userinfo as UserinfoEndpointConfig<BungieProfile>) ?? accountUrl
        const url = template.replace("{membershipId}", encodeURIComponent(String(tokens.membership_id)))
        const headers: Record<string, string> = { Authorization: `Bearer ${tokens.access_token}` }
        if (options.apiKey) headers["X-API-Key"] = options.apiKey
        const response = await fetch(url, { headers })
        if (!response.ok) throw new Error(`Bungie GetBungieAccount answered ${response.status}`)
        return (await response.json()) as BungieProfile
      },
    },
    profile(profile) {
      const user = profile.Response.bungieNetUser
      const path = user.profilePicturePath
      return {
        id: user.membershipId,
        name: user.displayName ?? user.uniqueName ?? null,
        email: null,
        image: path ? `https://www.bungie.net${path.startsWith("/") ? "" : "/"}${path}` : null,
      }
    },
    style: { brandColor: "#0b4c8a", bg: "#fff", text: "#000" },
    options,
  }
}
