/**
 * Sign in with Notion, an OAuth 2 provider (public integrations).
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/** The Notion API version this provider speaks. */
export const notionApiVersion = "2022-06-28"

/**
 * A Notion person: the user who installed the integration.
 *
 * @see https://developers.notion.com/reference/user
 */
export interface NotionProfile {
  object: "user"
  id: string
  type: "person"
  name: string | null
  avatar_url: string | null
  person: { email?: string }
  [claim: string]: unknown
}

interface NotionBotUser {
  bot?: { owner?: { type?: string; user?: NotionProfile } }
}

/**
 * Notion. Asks for installation by a user (`owner=user`), then reads that user from the bot's
 * owner in `GET /v1/users/me` (or, failing that, from the token response's `owner`).
 *
 * @example
 * ```ts
 * import Notion from "authflow/providers/notion"
 *
 * // AUTH_NOTION_ID and AUTH_NOTION_SECRET are read from the environment
 * const config = { providers: [Notion] }
 * // or explicitly:
 * Notion({ clientId: process.env.AUTH_NOTION_ID, clientSecret: process.env.AUTH_NOTION_SECRET })
 * ```
 * @see https://developers.notion.com/docs/authorization#public-integration-auth-flow-set-up
 */
export default function Notion(options: OAuthUserConfig<NotionProfile> = {}): OAuthConfig<NotionProfile> {
  return {
    id: "notion",
    name: "Notion",
    type: "oauth",
    authorization: { url: "https://api.notion.com/v1/oauth/authorize", params: { owner: "user", scope: "" } },
    token: "https://api.notion.com/v1/oauth/token",
    userinfo: {
      url: "https://api.notion.com/v1/users/me",
      async request({ tokens, fetch }) {
        const response = await fetch("https://api.notion.com/v1/users/me", {
          headers: { Authorization: `Bearer ${tokens.access_token}`, "Notion-Version": notionApiVersion },
        })
        const me = response.ok ? ((await response.json()) as NotionBotUser) : undefined
        // The token response names the installing user too (`owner: { type: "user", user }`).
        const user = me?.bot?.owner?.user ?? (tokens.owner as { user?: NotionProfile } | undefined)?.user
        if (!user) throw new Error(`Notion did not say which user installed the integration (status ${response.status})`)
        return user
      },
    },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.name,
        email: profile.person?.email ?? null,
        image: profile.avatar_url,
      }
    },
    style: { brandColor: "#000", bg: "#fff", text: "#000" },
    options,
  }
}
