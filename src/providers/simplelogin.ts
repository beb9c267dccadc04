/**
 * Sign in with SimpleLogin, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a SimpleLogin ID token (and userinfo answer).
 *
 * @see https://simplelogin.io/docs/siwsl/app/
 */
export interface SimpleLoginProfile {
  sub: string
  id?: number
  name: string
  email: string
  email_verified: boolean
  avatar_url: string | null
  client?: string
  [claim: string]: unknown
}

/**
 * SimpleLogin ("Sign in with SimpleLogin"). The email may be a SimpleLogin alias.
 *
 * @example
 * ```ts
 * import SimpleLogin from "authflow/providers/simplelogin"
 *
 * // AUTH_SIMPLELOGIN_ID and AUTH_SIMPLELOGIN_SECRET are read from the environment
 * const config = { providers: [SimpleLogin] }
 * // or explicitly:
 * SimpleLogin({ clientId: process.env.AUTH_SIMPLELOGIN_ID, clientSecret: process.env.AUTH_SIMPLELOGIN_SECRET })
 * ```
 * @see https://simplelogin.io/docs/siwsl/intro/
 */
export default function SimpleLogin(options: OAuthUserConfig<SimpleLoginProfile> = {}): OIDCConfig<SimpleLoginProfile> {
  return {
    id: "simplelogin",
    name: "SimpleLogin",
    type: "oidc",
    issuer: "https://app.simplelogin.io",
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: profile.avatar_url ?? null }
    },
    style: { brandColor: "#e3156a", bg: "#e3156a", text: "#fff" },
    options,
  }
}
