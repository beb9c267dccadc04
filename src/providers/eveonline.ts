/**
 * Sign in with EVE Online (EVE SSO), an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /oauth/verify`: the character the player signed in with.
 *
 * @see https://docs.esi.evetech.net/docs/sso/
 */
export interface EVEOnlineProfile {
  CharacterID: number
  CharacterName: string
  ExpiresOn: string
  Scopes: string
  TokenType: string
  CharacterOwnerHash: string
  IntellectualProperty: string
  [claim: string]: unknown
}

/**
 * EVE Online. Requests `publicData`. The user is the character: EVE SSO gives no email.
 *
 * @example
 * ```ts
 * import EVEOnline from "authflow/providers/eveonline"
 *
 * // AUTH_EVEONLINE_ID and AUTH_EVEONLINE_SECRET are read from the environment
 * const config = { providers: [EVEOnline] }
 * // or explicitly:
 * EVEOnline({ clientId: process.env.AUTH_EVEONLINE_ID, clientSecret: process.env.AUTH_EVEONLINE_SECRET })
 * ```
 * @see https://docs.esi.evetech.net/docs/sso/web_based_sso_flow.html
 */
export default function EVEOnline(options: OAuthUserConfig<EVEOnlineProfile> = {}): OAuthConfig<EVEOnlineProfile> {
  return {
    id: "eveonline",
    name: "EVE Online",
    type: "oauth",
    authorization: { url: "https://login.eveonline.com/v2/oauth/authorize", params: { scope: "publicData" } },
    token: "https://login.eveonline.com/v2/oauth/token",
    userinfo: "https://login.eveonline.com/oauth/verify",
    checks: ["state"],
    profile(profile) {
      return {
        id: String(profile.CharacterID),
        name: profile.CharacterName,
        email: null,
        image: `https://image.eveonline.com/Character/${profile.CharacterID}_128.jpg`,
      }
    },
    style: { brandColor: "#000", bg: "#000", text: "#fff" },
    options,
  }
}
