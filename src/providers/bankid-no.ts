/**
 * Sign in with BankID (Norway), an OpenID Connect provider.
 *
 * @module
 */
import type { OAuthUserConfig, OIDCConfig } from "./oauth.js"

/**
 * The userinfo of BankID with the `openid profile` scopes (and `nnin`, `email`, `phone` when
 * requested).
 *
 * @see https://developer.bankid.no/bankid-with-biometrics/apis/oidc/userinfo/
 */
export interface BankIDNorgeProfile {
  sub: string
  name: string
  given_name?: string
  family_name?: string
  birthdate?: string
  email?: string
  phone_number?: string
  nnin?: string
  nnin_altsub?: string
  bankid_altsub?: string
  amr?: string[]
  [claim: string]: unknown
}

/**
 * BankID Norge, on the production issuer `https://auth.bankid.no/auth/realms/prod` (pass `issuer` for
 * the test environment). The profile is read from userinfo, which BankID answers as a signed JWT
 * (RS256); the client authenticates in the token request's body. Asks for Norwegian (`ui_locales:
 * no`) and the BankID login method (`login_hint: BIS`).
 *
 * @example
 * ```ts
 * import BankIDNorge from "authflow/providers/bankid-no"
 *
 * // AUTH_BANKID_NO_ID and AUTH_BANKID_NO_SECRET are read from the environment
 * const config = { providers: [BankIDNorge] }
 * // or explicitly:
 * BankIDNorge({ clientId: process.env.AUTH_BANKID_NO_ID, clientSecret: process.env.AUTH_BANKID_NO_SECRET })
 * ```
 * @see https://developer.bankid.no/bankid-with-biometrics/apis/oidc/
 */
export default function BankIDNorge(options: OAuthUserConfig<BankIDNorgeProfile> = {}): OIDCConfig<BankIDNorgeProfile> {
  return {
    id: "bankid-no",
    name: "BankID Norge",
    type: "oidc",
    issuer: "https://auth.bankid.no/auth/realms/prod",
    authorization: { params: { ui_locales: "no", login_hint: "BIS" } },
    client: { token_endpoint_auth_method: "client_secret_post", userinfo_signed_response_alg: "RS256" },
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    profile(profile) {
      return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null }
    },
    style: { brandColor: "#39134c", bg: "#39134c", text: "#fff" },
    options,
  }
}
