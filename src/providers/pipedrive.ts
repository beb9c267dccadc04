/**
 * Sign in with Pipedrive, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /users/me`: the user inside `data` (abridged).
 *
 * @see https://developers.pipedrive.com/docs/api/v1/Users#getCurrentUser
 */
export interface PipedriveProfile {
  success: boolean
  data: {
    id: number
    name: string
    email: string
    icon_url: string | null
    lang?: number
    locale?: string
    timezone_name?: string
    company_id?: number
    company_name?: string
    company_domain?: string
    is_admin?: number
    active_flag?: boolean
  }
  [claim: string]: unknown
}

/**
 * Pipedrive. The scopes are the application's, chosen in Pipedrive's Developer Hub.
 *
 * @example
 * ```ts
 * import Pipedrive from "authflow/providers/pipedrive"
 *
 * // AUTH_PIPEDRIVE_ID and AUTH_PIPEDRIVE_SECRET are read from the environment
 * const config = { providers: [Pipedrive] }
 * // or explicitly:
 * Pipedrive({ clientId: process.env.AUTH_PIPEDRIVE_ID, clientSecret: process.env.AUTH_PIPEDRIVE_SECRET })
 * ```
 * @see https://pipedrive.readme.io/docs/marketplace-oauth-authorization
 */
export default function Pipedrive(options: OAuthUserConfig<PipedriveProfile> = {}): OAuthConfig<PipedriveProfile> {
  return {
    id: "pipedrive",
    name: "Pipedrive",
    type: "oauth",
    authorization: { url: "https://oauth.pipedrive.com/oauth/authorize", params: { scope: "" } },
    token: "https://oauth.pipedrive.com/oauth/token",
    userinfo: "https://api.pipedrive.com/users/me",
    profile(profile) {
      return { id: String(profile.data.id), name: profile.data.name ?? null, email: profile.data.email ?? null, image: profile.data.icon_url ?? null }
    },
    style: { brandColor: "#017737", bg: "#017737", text: "#fff" },
    options,
  }
}
