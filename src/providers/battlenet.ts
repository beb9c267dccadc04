/**
 * Sign in with Battle.net, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a Battle.net ID token: the account id and the BattleTag.
 *
 * @see https://community.developer.battle.net/documentation/guides/using-oauth
 */
export interface BattleNetProfile {
  sub: string
  battle_tag: string
  iss?: string
  aud?: string | string[]
  [claim: string]: unknown
}

/** Options of {@link BattleNet}. */
export type BattleNetUserConfig = OAuthUserConfig<BattleNetProfile> & {
  /**
   * The region's issuer: `https://oauth.battle.net` (global), `https://{us,eu,kr,tw}.battle.net/oauth`, or
   * `https://oauth.battlenet.com.cn` (China).
   * @default "https://oauth.battle.net"
   */
  issuer?: string
}

/**
 * Battle.net. The user is named by their BattleTag; Battle.net gives no email.
 *
 * @example
 * ```ts
 * import BattleNet from "authflow/providers/battlenet"
 *
 * // AUTH_BATTLENET_ID, AUTH_BATTLENET_SECRET and AUTH_BATTLENET_ISSUER are read from the environment
 * const config = { providers: [BattleNet] }
 * // or explicitly:
 * BattleNet({ clientId: process.env.AUTH_BATTLENET_ID, clientSecret: process.env.AUTH_BATTLENET_SECRET, issuer: "https://eu.battle.net/oauth" })
 * ```
 * @see https://community.developer.battle.net/documentation/guides/using-oauth/authorization-code-flow
 */
export default function BattleNet(options: BattleNetUserConfig = {}): OIDCConfig<BattleNetProfile> {
  return {
    id: "battlenet",
    name: "Battle.net",
    type: "oidc",
    issuer: options.issuer ?? "https://oauth.battle.net",
    authorization: { params: { scope: "openid" } },
    profile(profile) {
      return { id: profile.sub, name: profile.battle_tag ?? null, email: null, image: null }
    },
    style: { brandColor: "#148eff", bg: "#148eff", text: "#fff" },
    options,
  }
}
