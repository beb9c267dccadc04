/**
 * Sign in with Beyond Identity, an OpenID Connect provider (passwordless sign-in).
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a Beyond Identity ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://developer.beyondidentity.com/docs/v1/platform-overview/openid-connect
 */
export interface BeyondIdentityProfile {
  iss: string
  aud: string | string[]
  sub: string
  iat: number
  exp: number
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  nickname?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Beyond Identity. Give your issuer (`AUTH_BEYONDIDENTITY_ISSUER`, e.g. `https://auth-us.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<app>`); the endpoints come from
 * its discovery document.
 *
 * @example
 * ```ts
 * import BeyondIdentity from "authflow/providers/beyondidentity"
 *
 * // AUTH_BEYONDIDENTITY_ID, AUTH_BEYONDIDENTITY_SECRET and AUTH_BEYONDIDENTITY_ISSUER are read from the environment
 * const config = { providers: [BeyondIdentity] }
 * // or explicitly:
 * BeyondIdentity({ clientId: process.env.AUTH_BEYONDIDENTITY_ID, clientSecret: process.env.AUTH_BEYONDIDENTITY_SECRET, issuer: process.env.AUTH_BEYONDIDENTITY_ISSUER })
 * ```
 * @see https://developer.beyondidentity.com/docs/v1/integrations/nextauth
 */
export default function BeyondIdentity(options: OAuthUserConfig<BeyondIdentityProfile> = {}): OIDCConfig<BeyondIdentityProfile> {
  return {
    id: "beyondidentity",
    name: "Beyond Identity",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? profile.preferred_username ?? null, email: profile.email ?? null, image: null }
    },
    style: { brandColor: "#5077c5", bg: "#5077c5", text: "#fff" },
    options,
  }
}
