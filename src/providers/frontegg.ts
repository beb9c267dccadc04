/**
 * Sign in with Frontegg, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a Frontegg ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://docs.frontegg.com/docs/jwt-claims
 */
export interface FronteggProfile {
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
 * Frontegg. Give your issuer (`AUTH_FRONTEGG_ISSUER`, e.g. `https://app-abc123.frontegg.com`); the endpoints come from
 * its discovery document.
 *
 * @example
 * ```ts
 * import Frontegg from "authflow/providers/frontegg"
 *
 * // AUTH_FRONTEGG_ID, AUTH_FRONTEGG_SECRET and AUTH_FRONTEGG_ISSUER are read from the environment
 * const config = { providers: [Frontegg] }
 * // or explicitly:
 * Frontegg({ clientId: process.env.AUTH_FRONTEGG_ID, clientSecret: process.env.AUTH_FRONTEGG_SECRET, issuer: process.env.AUTH_FRONTEGG_ISSUER })
 * ```
 * @see https://docs.frontegg.com/docs/using-frontegg-oidc
 */
export default function Frontegg(options: OAuthUserConfig<FronteggProfile> = {}): OIDCConfig<FronteggProfile> {
  return {
    id: "frontegg",
    name: "Frontegg",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    profile: standardClaimsProfile,
    style: { brandColor: "#4461cc", bg: "#fff", text: "#000" },
    options,
  }
}
