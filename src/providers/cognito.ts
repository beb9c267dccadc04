/**
 * Sign in with an Amazon Cognito user pool, an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The claims of a Cognito ID token.
 *
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html
 */
export interface CognitoProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  token_use?: "id"
  auth_time?: number
  "cognito:username"?: string
  "cognito:groups"?: string[]
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/**
 * Cognito. Give the user pool as the issuer (`AUTH_COGNITO_ISSUER`,
 * `https://cognito-idp.<region>.amazonaws.com/<user pool id>`); the hosted UI endpoints come from its
 * discovery document.
 *
 * @example
 * ```ts
 * import Cognito from "authflow/providers/cognito"
 *
 * // AUTH_COGNITO_ID, AUTH_COGNITO_SECRET and AUTH_COGNITO_ISSUER are read from the environment
 * const config = { providers: [Cognito] }
 * // or explicitly:
 * Cognito({ clientId: process.env.AUTH_COGNITO_ID, clientSecret: process.env.AUTH_COGNITO_SECRET, issuer: process.env.AUTH_COGNITO_ISSUER })
 * ```
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-userpools-server-contract-reference.html
 */
export default function Cognito(options: OAuthUserConfig<CognitoProfile> = {}): OIDCConfig<CognitoProfile> {
  return {
    id: "cognito",
    name: "Cognito",
    type: "oidc",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile["cognito:username"] ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    style: { brandColor: "#c17b9e", bg: "#fff", text: "#c17b9e" },
    options,
  }
}
