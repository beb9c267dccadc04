/**
 * Sign in with Hydra, an OpenID Connect provider (Ory Hydra).
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a Hydra ID token (and userinfo answer) with the `openid profile email` scopes.
 *
 * @see https://www.ory.sh/docs/oauth2-oidc/userinfo-oidc
 */
export interface OryHydraProfile {
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
 * Hydra. Give your issuer (`AUTH_HYDRA_ISSUER`, e.g. `https://<project>.projects.oryapis.com`); the endpoints come from
 * its discovery document. Its id is `hydra`, as in Auth.js, while its module is
 * `authflow/providers/ory-hydra`.
 *
 * @example
 * ```ts
 * import OryHydra from "authflow/providers/ory-hydra"
 *
 * // AUTH_HYDRA_ID, AUTH_HYDRA_SECRET and AUTH_HYDRA_ISSUER are read from the environment
 * const config = { providers: [OryHydra] }
 * // or explicitly:
 * OryHydra({ clientId: process.env.AUTH_HYDRA_ID, clientSecret: process.env.AUTH_HYDRA_SECRET, issuer: process.env.AUTH_HYDRA_ISSUER })
 * ```
 * @see https://www.ory.sh/docs/hydra/
 */
export default function OryHydra(options: OAuthUserConfig<OryHydraProfile> = {}): OIDCConfig<OryHydraProfile> {
  return {
    id: "hydra",
    name: "Hydra",
    type: "oidc",
    ...(options.issuer ? { issuer: options.issuer } : {}),
    profile: standardClaimsProfile,
    style: { brandColor: "#5528ff", bg: "#fff", text: "#0f172a" },
    options,
  }
}
