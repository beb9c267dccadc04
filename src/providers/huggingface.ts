/**
 * Sign in with Hugging Face, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"
import { standardClaimsProfile } from "./oauth.js"

/**
 * The claims of a Hugging Face ID token (and userinfo answer).
 *
 * @see https://huggingface.co/docs/hub/oauth#currently-supported-scopes
 */
export interface HuggingFaceProfile {
  sub: string
  name: string
  preferred_username: string
  profile: string
  picture: string
  website?: string
  email?: string
  email_verified?: boolean
  isPro?: boolean
  canPay?: boolean
  orgs?: { sub: string; name: string; picture: string; preferred_username: string; isEnterprise?: boolean }[]
  [claim: string]: unknown
}

/**
 * Hugging Face. Requests `openid profile email`.
 *
 * @example
 * ```ts
 * import HuggingFace from "authflow/providers/huggingface"
 *
 * // AUTH_HUGGINGFACE_ID and AUTH_HUGGINGFACE_SECRET are read from the environment
 * const config = { providers: [HuggingFace] }
 * // or explicitly:
 * HuggingFace({ clientId: process.env.AUTH_HUGGINGFACE_ID, clientSecret: process.env.AUTH_HUGGINGFACE_SECRET })
 * ```
 * @see https://huggingface.co/docs/hub/oauth
 */
export default function HuggingFace(options: OAuthUserConfig<HuggingFaceProfile> = {}): OIDCConfig<HuggingFaceProfile> {
  return {
    id: "huggingface",
    name: "Hugging Face",
    type: "oidc",
    issuer: "https://huggingface.co",
    checks: ["state", "pkce"],
    profile: standardClaimsProfile,
    style: { brandColor: "#ffd21e", bg: "#ffd21e", text: "#000" },
    options,
  }
}
