/**
 * Sign in with LinkedIn, through "Sign In with LinkedIn using OpenID Connect".
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a LinkedIn ID token.
 *
 * @see https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2#id-token-payload
 */
export interface LinkedInProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  email?: string
  email_verified?: boolean | "true" | "false"
  locale?: string | { country: string; language: string }
  [claim: string]: unknown
}

/**
 * LinkedIn. Issuer `https://www.linkedin.com/oauth`, scope `openid profile email`; the client
 * authenticates with its secret in the token request body.
 *
 * @example
 * ```ts
 * import LinkedIn from "authflow/providers/linkedin"
 *
 * // AUTH_LINKEDIN_ID and AUTH_LINKEDIN_SECRET are read from the environment
 * const config = { providers: [LinkedIn] }
 * // or explicitly:
 * LinkedIn({ clientId: process.env.AUTH_LINKEDIN_ID, clientSecret: process.env.AUTH_LINKEDIN_SECRET })
 * ```
 * @see https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
 */
export default function LinkedIn(options: OAuthUserConfig<LinkedInProfile> = {}): OIDCConfig<LinkedInProfile> {
  return {
    id: "linkedin",
    name: "LinkedIn",
    type: "oidc",
    issuer: "https://www.linkedin.com/oauth",
    authorization: { params: { scope: "openid profile email" } },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }
    },
    style: { brandColor: "#0a66c2", bg: "#0a66c2", text: "#fff" },
    options,
  }
}
