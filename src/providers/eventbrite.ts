/**
 * Sign in with Eventbrite, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v3/users/me/`.
 *
 * @see https://www.eventbrite.com/platform/api#/reference/user/retrieve-your-user/retrieve-your-user
 */
export interface EventbriteProfile {
  id: string
  name: string
  first_name: string
  last_name: string
  emails: { email: string; verified: boolean; primary: boolean }[]
  image_id: string | null
  is_public?: boolean
  [claim: string]: unknown
}

/**
 * Eventbrite. Requests `user.profile` and authenticates in the token request's body. The email is
 * the primary one of `emails`.
 *
 * @example
 * ```ts
 * import Eventbrite from "authflow/providers/eventbrite"
 *
 * // AUTH_EVENTBRITE_ID and AUTH_EVENTBRITE_SECRET are read from the environment
 * const config = { providers: [Eventbrite] }
 * // or explicitly:
 * Eventbrite({ clientId: process.env.AUTH_EVENTBRITE_ID, clientSecret: process.env.AUTH_EVENTBRITE_SECRET })
 * ```
 * @see https://www.eventbrite.com/platform/docs/authentication
 */
export default function Eventbrite(options: OAuthUserConfig<EventbriteProfile> = {}): OAuthConfig<EventbriteProfile> {
  return {
    id: "eventbrite",
    name: "Eventbrite",
    type: "oauth",
    authorization: { url: "https://www.eventbrite.com/oauth/authorize", params: { scope: "user.profile" } },
    token: "https://www.eventbrite.com/oauth/token",
    userinfo: "https://www.eventbriteapi.com/v3/users/me/",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const primary = profile.emails?.find((email) => email.primary) ?? profile.emails?.[0]
      return {
        id: profile.id,
        name: profile.name ?? null,
        email: primary?.email ?? null,
        image: profile.image_id ? `https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F${profile.image_id}%2F1%2Foriginal.jpg` : null,
      }
    },
    style: { brandColor: "#f05537", bg: "#f05537", text: "#fff" },
    options,
  }
}
