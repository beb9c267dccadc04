/**
 * Sign in with Slack, through "Sign in with Slack" (OpenID Connect).
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a Slack ID token.
 *
 * @see https://api.slack.com/authentication/sign-in-with-slack#response
 */
export interface SlackProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  auth_time?: number
  nonce?: string
  at_hash?: string
  "https://slack.com/user_id": string
  "https://slack.com/team_id": string
  "https://slack.com/team_name"?: string
  "https://slack.com/team_domain"?: string
  "https://slack.com/team_image_230"?: string
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  locale?: string
  [claim: string]: unknown
}

/**
 * Slack. Issuer `https://slack.com`, scope `openid profile email`; the account id is the `sub`
 * claim (the Slack user id).
 *
 * @example
 * ```ts
 * import Slack from "authflow/providers/slack"
 *
 * // AUTH_SLACK_ID and AUTH_SLACK_SECRET are read from the environment
 * const config = { providers: [Slack] }
 * // or explicitly:
 * Slack({ clientId: process.env.AUTH_SLACK_ID, clientSecret: process.env.AUTH_SLACK_SECRET })
 * ```
 * @see https://api.slack.com/authentication/sign-in-with-slack
 */
export default function Slack(options: OAuthUserConfig<SlackProfile> = {}): OIDCConfig<SlackProfile> {
  return {
    id: "slack",
    name: "Slack",
    type: "oidc",
    issuer: "https://slack.com",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["nonce"],
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }
    },
    style: { brandColor: "#611f69", bg: "#611f69", text: "#fff" },
    options,
  }
}
