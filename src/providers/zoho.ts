/**
 * Sign in with Zoho Accounts, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /oauth/user/info`.
 *
 * @see https://www.zoho.com/accounts/protocol/oauth.html
 */
export interface ZohoProfile {
  ZUID: number
  First_Name: string
  Last_Name: string
  Display_Name: string
  Email: string
  [claim: string]: unknown
}

/**
 * Zoho. Requests `AaaServer.profile.Read` on accounts.zoho.com; for another data centre, override the
 * three endpoints (e.g. `accounts.zoho.eu`).
 *
 * @example
 * ```ts
 * import Zoho from "authflow/providers/zoho"
 *
 * // AUTH_ZOHO_ID and AUTH_ZOHO_SECRET are read from the environment
 * const config = { providers: [Zoho] }
 * // or explicitly:
 * Zoho({ clientId: process.env.AUTH_ZOHO_ID, clientSecret: process.env.AUTH_ZOHO_SECRET })
 * ```
 * @see https://www.zoho.com/accounts/protocol/oauth/web-server-applications.html
 */
export default function Zoho(options: OAuthUserConfig<ZohoProfile> = {}): OAuthConfig<ZohoProfile> {
  return {
    id: "zoho",
    name: "Zoho",
    type: "oauth",
    authorization: { url: "https://accounts.zoho.com/oauth/v2/auth", params: { scope: "AaaServer.profile.Read" } },
    token: "https://accounts.zoho.com/oauth/v2/token",
    userinfo: "https://accounts.zoho.com/oauth/user/info",
    profile(profile) {
      return { id: String(profile.ZUID), name: [profile.First_Name, profile.Last_Name].filter(Boolean).join(" ") || profile.Display_Name || null, email: profile.Email ?? null, image: null }
    },
    style: { brandColor: "#e42527", bg: "#e42527", text: "#fff" },
    options,
  }
}
