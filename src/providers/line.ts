/**
 * Sign in with LINE, an OpenID Connect provider (LINE Login v2.1).
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a LINE ID token.
 *
 * @see https://developers.line.biz/en/docs/line-login/verify-id-token/#payload
 */
export interface LineProfile {
  iss: "https://access.line.me" | (string & {})
  aud: string
  sub: string
  iat: number
  exp: number
  auth_time?: number
  nonce?: string
  amr?: string[]
  name?: string
  picture?: string
  /** Only with the `email` scope, once the channel has been granted email access. */
  email?: string
  [claim: string]: unknown
}

/**
 * LINE. Issuer `https://access.line.me`, scope `openid profile email`. LINE Login signs web ID
 * tokens with HS256 (the channel secret), which the client metadata declares.
 *
 * @example
 * ```ts
 * import Line from "authflow/providers/line"
 *
 * // AUTH_LINE_ID (channel id) and AUTH_LINE_SECRET (channel secret) are read from the environment
 * const config = { providers: [Line] }
 * // or explicitly:
 * Line({ clientId: process.env.AUTH_LINE_ID, clientSecret: process.env.AUTH_LINE_SECRET })
 * ```
 * @see https://developers.line.biz/en/docs/line-login/integrate-line-login/
 */
export default function Line(options: OAuthUserConfig<LineProfile> = {}): OIDCConfig<LineProfile> {
  return {
    id: "line",
    name: "LINE",
    type: "oidc",
    issuer: "https://access.line.me",
    authorization: { params: { scope: "openid profile email" } },
    client: { id_token_signed_response_alg: "HS256" },
    checks: ["state"],
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }
    },
    style: { brandColor: "#06c755", bg: "#06c755", text: "#fff" },
    options,
  }
}
