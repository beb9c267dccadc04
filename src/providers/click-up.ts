/**
 * Sign in with ClickUp, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /api/v2/user`: the user inside `user`.
 *
 * @see https://clickup.com/api/clickupreference/operation/GetAuthorizedUser/
 */
export interface ClickUpProfile {
  user: {
    id: number
    username: string
    email?: string
    color: string
    profilePicture: string | null
    initials?: string
    week_start_day?: number | null
    timezone?: string
  }
  [claim: string]: unknown
}

/**
 * ClickUp. ClickUp has no scopes; its token response carries no refresh token.
 *
 * @example
 * ```ts
 * import ClickUp from "authflow/providers/click-up"
 *
 * // AUTH_CLICK_UP_ID and AUTH_CLICK_UP_SECRET are read from the environment
 * const config = { providers: [ClickUp] }
 * // or explicitly:
 * ClickUp({ clientId: process.env.AUTH_CLICK_UP_ID, clientSecret: process.env.AUTH_CLICK_UP_SECRET })
 * ```
 * @see https://clickup.com/api/developer-portal/authentication/
 */
export default function ClickUp(options: OAuthUserConfig<ClickUpProfile> = {}): OAuthConfig<ClickUpProfile> {
  return {
    id: "click-up",
    name: "ClickUp",
    type: "oauth",
    authorization: { url: "https://app.clickup.com/api", params: { scope: "" } },
    token: "https://api.clickup.com/api/v2/oauth/token",
    userinfo: "https://api.clickup.com/api/v2/user",
    checks: ["state"],
    profile(profile) {
      return {
        id: String(profile.user.id),
        name: profile.user.username,
        email: profile.user.email ?? null,
        image: profile.user.profilePicture ?? null,
      }
    },
    style: { brandColor: "#7b68ee", bg: "#24292f", text: "#fff" },
    options,
  }
}
