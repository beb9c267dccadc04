/**
 * Sign in with United Effects, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a United Effects ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://docs.unitedeffects.com/integrations/nextauthjs
 */
export interface UnitedEffectsProfile {
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
 * United Effects. Give your issuer (`AUTH_UNITED_EFFECTS_ISSUER`, e.g. `https://auth.unitedeffects.com/<auth group id>`); the endpoints come from
 * its discovery document. Requests `openid email profile`
 * with the issuer as the `resource`.
 *
 * @example
 * ```ts
 * import UnitedEffects from "authflow/providers/united-effects"
 *
 * // AUTH_UNITED_EFFECTS_ID, AUTH_UNITED_EFFECTS_SECRET and AUTH_UNITED_EFFECTS_ISSUER are read from the environment
 * const config = { providers: [UnitedEffects] }
 * // or explicitly:
 * UnitedEffects({ clientId: process.env.AUTH_UNITED_EFFECTS_ID, clientSecret: process.env.AUTH_UNITED_EFFECTS_SECRET, issuer: process.env.AUTH_UNITED_EFFECTS_ISSUER })
 * ```
 * @see https://docs.unitedeffects.com/integrations/nextauthjs
 */
export default function UnitedEffects(options: OAuthUserConfig<UnitedEffectsProfile> = {}): OIDCConfig<UnitedEffectsProfile> {
  const issuer = options.issuer
  return {
    id: "united-effects",
    name: "United Effects",
    type: "oidc",
    ...(issuer ? { issuer } : {}),
    authorization: { params: { scope: "openid email profile", ...(issuer ? { resource: issuer } : {}) } },
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }
    },
    style: { brandColor: "#1a2b3c", bg: "#fff", text: "#000" },
    options,
  }
}
