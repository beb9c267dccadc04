/**
 * Sign in with Google, an OpenID Connect provider found by discovery.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a Google ID token.
 *
 * @see https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload
 */
export interface GoogleProfile {
  iss: string
  aud: string
  azp?: string
  sub: string
  iat: number
  exp: number
  at_hash?: string
  email: string
  email_verified: boolean
  /** The Google Workspace domain of the user, when there is one. */
  hd?: string
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  locale?: string
  nonce?: string
  [claim: string]: unknown
}

/**
 * Google. The endpoints come from `https://accounts.google.com/.well-known/openid-configuration`
 * and the profile from the ID token. Pass `authorization: { params: { access_type: "offline",
 * prompt: "consent" } }` to receive a refresh token.
 *
 * @example
 * ```ts
 * import Google from "authflow/providers/google"
 *
 * // AUTH_GOOGLE_ID and AUTH_GOOGLE_SECRET are read from the environment
 * const config = { providers: [Google] }
 * // or explicitly:
 * Google({ clientId: process.env.AUTH_GOOGLE_ID, clientSecret: process.env.AUTH_GOOGLE_SECRET })
 * ```
 * @see https://developers.google.com/identity/openid-connect/openid-connect
 */
export default function Google(options: OAuthUserConfig<GoogleProfile> = {}): OIDCConfig<GoogleProfile> {
  return {
    id: "google",
    name: "Google",
    type: "oidc",
    issuer: "https://accounts.google.com",
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? null, email: profile.email, image: profile.picture ?? null }
    },
    style: { brandColor: "#1a73e8", bg: "#fff", text: "#000" },
    options,
  }
}
