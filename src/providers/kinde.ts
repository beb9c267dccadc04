/**
 * Sign in with Kinde, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a Kinde ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://docs.kinde.com/build/tokens/about-id-tokens/
 */
export interface KindeProfile {
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
 * Kinde. Give your issuer (`AUTH_KINDE_ISSUER`, e.g. `https://<your business>.kinde.com`); the endpoints come from
 * its discovery document.
 *
 * @example
 * ```ts
 * import Kinde from "authflow/providers/kinde"
 *
 * // AUTH_KINDE_ID, AUTH_KINDE_SECRET and AUTH_KINDE_ISSUER are read from the environment
 * const config = { providers: [Kinde] }
 * // or explicitly:
 * Kinde({ clientId: process.env.AUTH_KINDE_ID, clientSecret: process.env.AUTH_KINDE_SECRET, issuer: process.env.AUTH_KINDE_ISSUER })
 * ```
 * @see https://docs.kinde.com/developer-tools/about/using-kinde-without-an-sdk/
 */
export default function Kinde(options: OAuthUserConfig<KindeProfile> = {}): OIDCConfig<KindeProfile> {
  return {
    id: "kinde",
    name: "Kinde",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    checks: ["state", "pkce"],
    profile: standardClaimsProfile,
    style: { brandColor: "#0f0f0f", bg: "#fff", text: "#0f0f0f" },
    options,
  }
}
