/**
 * Sign in with a Nextcloud server, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig, UserinfoEndpointConfig } from "./oauth.js"
import { endpointUrl } from "./oauth.js"

/**
 * The user as Nextcloud's OCS API `GET /ocs/v1.php/cloud/users/<id>` returns it, unwrapped from
 * `ocs.data` (abridged).
 *
 * @see https://docs.nextcloud.com/server/latest/developer_manual/client_apis/OCS/ocs-api-overview.html
 */
export interface NextcloudProfile {
  id: string
  displayname: string
  email: string | null
  enabled?: boolean
  language?: string
  locale?: string
  quota?: Record<string, unknown>
  groups?: string[]
  [claim: string]: unknown
}

/** The OCS envelope around the user. */
interface NextcloudOcsAnswer {
  ocs?: { meta?: { status?: string; statuscode?: number }; data?: NextcloudProfile }
}

/**
 * Nextcloud. Give the server's URL as `issuer` (`AUTH_NEXTCLOUD_ISSUER`). The user is read from the OCS
 * API with the `user_id` of the token response; the image is the server's avatar URL.
 *
 * @example
 * ```ts
 * import Nextcloud from "authflow/providers/nextcloud"
 *
 * // AUTH_NEXTCLOUD_ID, AUTH_NEXTCLOUD_SECRET and AUTH_NEXTCLOUD_ISSUER are read from the environment
 * const config = { providers: [Nextcloud] }
 * // or explicitly:
 * Nextcloud({ clientId: process.env.AUTH_NEXTCLOUD_ID, clientSecret: process.env.AUTH_NEXTCLOUD_SECRET, issuer: "https://cloud.example.com" })
 * ```
 * @see https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html
 */
export default function Nextcloud(options: OAuthUserConfig<NextcloudProfile> = {}): OAuthConfig<NextcloudProfile> {
  const base = options.issuer?.replace(/\/+$/, "")
  return {
    id: "nextcloud",
    name: "Nextcloud",
    type: "oauth",
    // Without the server's URL the endpoints are left out, and the configuration check says so.
    ...(base
      ? {
          authorization: { url: `${base}/apps/oauth2/authorize`, params: { scope: "" } },
          token: `${base}/apps/oauth2/api/v1/token`,
          userinfo: {
            url: `${base}/ocs/v1.php/cloud/users`,
            async request({ tokens, provider, fetch }) {
              const users = endpointUrl(provider.userinfo as UserinfoEndpointConfig<NextcloudProfile>) ?? `${base}/ocs/v1.php/cloud/users`
              const response = await fetch(`${users}/${encodeURIComponent(String(tokens.user_id))}`, {
                headers: { Authorization: `Bearer ${tokens.access_token}`, "OCS-APIRequest": "true", Accept: "application/json" },
              })
              if (!response.ok) throw new Error(`Nextcloud users API answered ${response.status}`)
              const answer = (await response.json()) as NextcloudOcsAnswer
              if (!answer.ocs?.data) throw new Error("Nextcloud users API answered without a user")
              return answer.ocs.data
            },
          },
        }
      : {}),
    profile(profile) {
      return {
        id: profile.id,
        name: profile.displayname ?? null,
        email: profile.email ?? null,
        image: base ? `${base}/avatar/${encodeURIComponent(profile.id)}/512` : null,
      }
    },
    style: { brandColor: "#0082c9", bg: "#fff", text: "#0082c9" },
    options,
  }
}
