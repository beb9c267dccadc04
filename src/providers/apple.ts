/**
 * Sign in with Apple, an OpenID Connect provider that answers with a form POST.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The `user` form field Apple posts to the callback, only the first time a user authorizes the
 * app. It is the only place the user's name ever appears.
 *
 * @see https://developer.apple.com/documentation/sign_in_with_apple/sign_in_with_apple_js/incorporating_sign_in_with_apple_into_other_platforms
 */
export interface AppleUser {
  name?: { firstName?: string; lastName?: string }
  email?: string
}

/**
 * The claims of an Apple ID token, plus the `user` field of the first authorization when the engine
 * found one in the callback.
 *
 * @see https://developer.apple.com/documentation/sign_in_with_apple/sign_in_with_apple_rest_api/authenticating_users_with_sign_in_with_apple
 */
export interface AppleProfile {
  iss: "https://appleid.apple.com" | (string & {})
  aud: string
  sub: string
  iat: number
  exp: number
  nonce?: string
  nonce_supported?: boolean
  email?: string
  /** A boolean, or the strings `"true"` / `"false"`. */
  email_verified?: boolean | "true" | "false"
  /** Whether the email is a private relay address. */
  is_private_email?: boolean | "true" | "false"
  /** 0 unsupported, 1 unknown, 2 likely real. */
  real_user_status?: 0 | 1 | 2
  transfer_sub?: string
  at_hash?: string
  c_hash?: string
  auth_time?: number
  user?: AppleUser
  [claim: string]: unknown
}

/**
 * Apple. Requests `name email` with `response_mode=form_post`, so Apple POSTs the code (and, on the
 * first authorization, a `user` JSON field with the name) to the callback URL. The client secret is
 * the ES256 JWT you sign with your Sign in with Apple key; it is sent in the token request body.
 * The name is only known on that first sign-in; afterwards it falls back to the email.
 *
 * @example
 * ```ts
 * import Apple from "authflow/providers/apple"
 *
 * // AUTH_APPLE_ID (the Services ID) and AUTH_APPLE_SECRET (the signed client secret JWT)
 * const config = { providers: [Apple] }
 * // or explicitly:
 * Apple({ clientId: process.env.AUTH_APPLE_ID, clientSecret: process.env.AUTH_APPLE_SECRET })
 * ```
 * @see https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server
 */
export default function Apple(options: OAuthUserConfig<AppleProfile> = {}): OIDCConfig<AppleProfile> {
  return {
    id: "apple",
    name: "Apple",
    type: "oidc",
    issuer: "https://appleid.apple.com",
    authorization: { params: { scope: "name email", response_mode: "form_post" } },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["nonce", "state"],
    profile(profile) {
      const parts = [profile.user?.name?.firstName, profile.user?.name?.lastName].filter((part) => !!part)
      return {
        id: profile.sub,
        name: parts.length ? parts.join(" ") : (profile.email ?? null),
        email: profile.email ?? null,
        image: null,
      }
    },
    style: { brandColor: "#000", bg: "#000", text: "#fff" },
    options,
  }
}
