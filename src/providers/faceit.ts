/**
 * Sign in with FACEIT, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of FACEIT's userinfo resource.
 *
 * @see https://docs.faceit.com/getting-started/authentication/faceit-connect
 */
export interface FACEITProfile {
  guid: string
  name?: string
  nickname?: string
  email: string
  picture?: string
  locale?: string
  membership?: string
  [claim: string]: unknown
}

/**
 * FACEIT. The client authenticates with HTTP Basic at the token endpoint.
 *
 * @example
 * ```ts
 * import FACEIT from "authflow/providers/faceit"
 *
 * // AUTH_FACEIT_ID and AUTH_FACEIT_SECRET are read from the environment
 * const config = { providers: [FACEIT] }
 * // or explicitly:
 * FACEIT({ clientId: process.env.AUTH_FACEIT_ID, clientSecret: process.env.AUTH_FACEIT_SECRET })
 * ```
 * @see https://docs.faceit.com/getting-started/authentication/faceit-connect
 */
export default function FACEIT(options: OAuthUserConfig<FACEITProfile> = {}): OAuthConfig<FACEITProfile> {
  return {
    id: "faceit",
    name: "FACEIT",
    type: "oauth",
    authorization: { url: "https://accounts.faceit.com/accounts", params: { redirect_popup: "true" } },
    token: "https://api.faceit.com/auth/v1/oauth/token",
    userinfo: "https://api.faceit.com/auth/v1/resources/userinfo",
    profile(profile) {
      return { id: profile.guid, name: profile.name ?? profile.nickname ?? null, email: profile.email ?? null, image: profile.picture ?? null }
    },
    style: { brandColor: "#ff5500", bg: "#ff5500", text: "#fff" },
    options,
  }
}
