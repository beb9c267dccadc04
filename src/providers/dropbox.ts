/**
 * Sign in with Dropbox, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `POST /2/users/get_current_account`.
 *
 * @see https://www.dropbox.com/developers/documentation/http/documentation#users-get_current_account
 */
export interface DropboxProfile {
  account_id: string
  name: { given_name: string; surname: string; familiar_name: string; display_name: string; abbreviated_name: string }
  email: string
  email_verified: boolean
  disabled?: boolean
  locale?: string
  profile_photo_url?: string
  country?: string
  account_type?: { ".tag": string }
  [claim: string]: unknown
}

/**
 * Dropbox. Requests `account_info.read` with `token_access_type=offline` (a refresh token), then
 * reads the account with an argument-less RPC POST.
 *
 * @example
 * ```ts
 * import Dropbox from "authflow/providers/dropbox"
 *
 * // AUTH_DROPBOX_ID and AUTH_DROPBOX_SECRET are read from the environment
 * const config = { providers: [Dropbox] }
 * // or explicitly:
 * Dropbox({ clientId: process.env.AUTH_DROPBOX_ID, clientSecret: process.env.AUTH_DROPBOX_SECRET })
 * ```
 * @see https://developers.dropbox.com/oauth-guide
 */
export default function Dropbox(options: OAuthUserConfig<DropboxProfile> = {}): OAuthConfig<DropboxProfile> {
  return {
    id: "dropbox",
    name: "Dropbox",
    type: "oauth",
    authorization: {
      url: "https://www.dropbox.com/oauth2/authorize",
      params: { scope: "account_info.read", token_access_type: "offline" },
    },
    token: "https://api.dropboxapi.com/oauth2/token",
    userinfo: {
      url: "https://api.dropboxapi.com/2/users/get_current_account",
      async request({ tokens, fetch }) {
        // An RPC endpoint without arguments: POST with no body and no content type.
        const response = await fetch("https://api.dropboxapi.com/2/users/get_current_account", {
          method: "POST",
          headers: { Authorization: `Bearer ${tokens.access_token}` },
        })
        if (!response.ok) throw new Error(`Dropbox get_current_account answered ${response.status}`)
        return (await response.json()) as DropboxProfile
      },
    },
    profile(profile) {
      return {
        id: profile.account_id,
        name: profile.name?.display_name ?? null,
        email: profile.email ?? null,
        image: profile.profile_photo_url ?? null,
      }
    },
    style: { brandColor: "#0061fe", bg: "#0061fe", text: "#fff" },
    options,
  }
}
