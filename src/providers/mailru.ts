/**
 * Sign in with Mail.ru, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET https://oauth.mail.ru/userinfo`.
 *
 * @see https://api.mail.ru/docs/guides/oauth/
 */
export interface MailruProfile {
  id: string
  name?: string
  first_name?: string
  last_name?: string
  nickname?: string
  email: string
  image?: string
  gender?: string
  birthday?: string
  locale?: string
  [claim: string]: unknown
}

/**
 * Mail.ru. Requests `userinfo`.
 *
 * @example
 * ```ts
 * import Mailru from "authflow/providers/mailru"
 *
 * // AUTH_MAILRU_ID and AUTH_MAILRU_SECRET are read from the environment
 * const config = { providers: [Mailru] }
 * // or explicitly:
 * Mailru({ clientId: process.env.AUTH_MAILRU_ID, clientSecret: process.env.AUTH_MAILRU_SECRET })
 * ```
 * @see https://api.mail.ru/docs/guides/oauth/sites/
 */
export default function Mailru(options: OAuthUserConfig<MailruProfile> = {}): OAuthConfig<MailruProfile> {
  return {
    id: "mailru",
    name: "Mail.ru",
    type: "oauth",
    authorization: { url: "https://oauth.mail.ru/login", params: { scope: "userinfo" } },
    token: "https://oauth.mail.ru/token",
    userinfo: "https://oauth.mail.ru/userinfo",
    profile(profile) {
      return { id: String(profile.id), name: profile.name ?? profile.nickname ?? null, email: profile.email ?? null, image: profile.image ?? null }
    },
    style: { brandColor: "#005ff9", bg: "#005ff9", text: "#fff" },
    options,
  }
}
