/**
 * Sign in with Figma, an OAuth 2 provider.
 *
 * @module
 */
import type { OAuthConfig, OAuthUserConfig } from "./oauth.js"

/**
 * The answer of `GET /v1/me`.
 *
 * @see https://www.figma.com/developers/api#users-types
 */
export interface FigmaProfile {
  id: string
  handle: string
  email: string
  img_url: string
  [claim: string]: unknown
}

/**
 * Figma. Requests `files:read`.
 *
 * @example
 * ```ts
 * import Figma from "authflow/providers/figma"
 *
 * // AUTH_FIGMA_ID and AUTH_FIGMA_SECRET are read from the environment
 * const config = { providers: [Figma] }
 * // or explicitly:
 * Figma({ clientId: process.env.AUTH_FIGMA_ID, clientSecret: process.env.AUTH_FIGMA_SECRET })
 * ```
 * @see https://www.figma.com/developers/api#oauth2
 */
export default function Figma(options: OAuthUserConfig<FigmaProfile> = {}): OAuthConfig<FigmaProfile> {
  return {
    id: "figma",
    name: "Figma",
    type: "oauth",
    authorization: { url: "https://www.figma.com/oauth", params: { scope: "files:read" } },
    token: "https://api.figma.com/v1/oauth/token",
    userinfo: "https://api.figma.com/v1/me",
    checks: ["state"],
    profile(profile) {
      return { id: profile.id, name: profile.handle, email: profile.email ?? null, image: profile.img_url ?? null }
    },
    style: { brandColor: "#ff7237", bg: "#ff7237", text: "#fff" },
    options,
  }
}
