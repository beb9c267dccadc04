/**
 * Sign in with FusionAuth, an OpenID Connect provider you host.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a FusionAuth ID token.
 *
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/tokens#id-token
 */
export interface FusionAuthProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  jti?: string
  authenticationType?: string
  applicationId?: string
  tid?: string
  name?: string
  given_name?: string
  middle_name?: string
  family_name?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
  roles?: string[]
  [claim: string]: unknown
}

/** Options of {@link FusionAuth}. */
export type FusionAuthUserConfig = OAuthUserConfig<FusionAuthProfile> & {
  /** The tenant, when the instance has more than one. */
  tenantId?: string
}

/**
 * FusionAuth sends `WWW-Authenticate` even with successful token responses, which an OAuth client
 * must read as a challenge. Drops it unless the answer really is a 401.
 */
async function conformFusionAuthTokenResponse(response: Response): Promise<Response | undefined> {
  if (response.status === 401 || !response.headers.has("www-authenticate")) return undefined
  const headers = new Headers(response.headers)
  headers.delete("www-authenticate")
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

/**
 * FusionAuth. Give the instance URL as the issuer (`AUTH_FUSIONAUTH_ISSUER`); the token and userinfo
 * endpoints are `<issuer>/oauth2/token` and `<issuer>/oauth2/userinfo`. Requests
 * `openid offline_access email profile`; `tenantId` is sent with the authorization request.
 *
 * @example
 * ```ts
 * import FusionAuth from "authflow/providers/fusionauth"
 *
 * // AUTH_FUSIONAUTH_ID, AUTH_FUSIONAUTH_SECRET and AUTH_FUSIONAUTH_ISSUER are read from the environment
 * FusionAuth({
 *   clientId: process.env.AUTH_FUSIONAUTH_ID,
 *   clientSecret: process.env.AUTH_FUSIONAUTH_SECRET,
 *   issuer: process.env.AUTH_FUSIONAUTH_ISSUER,
 *   tenantId: process.env.AUTH_FUSIONAUTH_TENANT_ID,
 * })
 * ```
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/endpoints
 */
export default function FusionAuth(options: FusionAuthUserConfig = {}): OIDCConfig<FusionAuthProfile> {
  const issuer = options.issuer?.replace(/\/+$/, "")
  const params: Record<string, string> = { scope: "openid offline_access email profile" }
  if (options.tenantId) params.tenantId = options.tenantId
  return {
    id: "fusionauth",
    name: "FusionAuth",
    type: "oidc",
    authorization: { params },
    token: issuer ? { url: `${issuer}/oauth2/token`, conform: conformFusionAuthTokenResponse } : { conform: conformFusionAuthTokenResponse },
    ...(issuer ? { userinfo: `${issuer}/oauth2/userinfo` } : {}),
    checks: ["pkce", "state"],
    profile(profile) {
      const fullName = [profile.given_name, profile.middle_name, profile.family_name].filter((part) => !!part).join(" ")
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? (fullName || null),
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: { brandColor: "#f58320", bg: "#f58320", text: "#fff" },
    options,
  }
}
