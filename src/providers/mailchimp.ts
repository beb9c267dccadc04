/**
 * Sign in with Mailchimp, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /oauth2/metadata`: the account and the login that authorized the app.
 *
 * @see https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/
 */
export interface MailchimpProfile {
  dc: string
  role: string
  accountname: string
  user_id: number
  login: {
    email: string
    avatar: string | null
    login_id: number
    login_name: string
    login_email: string
  }
  login_url: string
  api_endpoint: string
  [claim: string]: unknown
}

/**
 * Mailchimp. Mailchimp has no scopes; its access tokens do not expire.
 *
 * @example
 * ```ts
 * import Mailchimp from "authflow/providers/mailchimp"
 *
 * // AUTH_MAILCHIMP_ID and AUTH_MAILCHIMP_SECRET are read from the environment
 * const config = { providers: [Mailchimp] }
 * // or explicitly:
 * Mailchimp({ clientId: process.env.AUTH_MAILCHIMP_ID, clientSecret: process.env.AUTH_MAILCHIMP_SECRET })
 * ```
 * @see https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/
 */
export default function Mailchimp(options: OAuthUserConfig<MailchimpProfile> = {}): OAuthConfig<MailchimpProfile> {
  return {
    id: "mailchimp",
    name: "Mailchimp",
    type: "oauth",
    authorization: { url: "https://login.mailchimp.com/oauth2/authorize", params: { scope: "" } },
    token: "https://login.mailchimp.com/oauth2/token",
    userinfo: "https://login.mailchimp.com/oauth2/metadata",
    profile(profile) {
      return { id: String(profile.login.login_id), name: profile.accountname ?? null, email: profile.login.email ?? null, image: profile.login.avatar ?? null }
    },
    style: { brandColor: "#ffe01b", bg: "#000", text: "#fff" },
    options,
  }
}
