/**
 * The passkey provider: WebAuthn with discoverable credentials (resident keys) and user
 * verification required at registration and at every sign-in. Experimental, like WebAuthn.
 *
 * @module
 */
import WebAuthn from "./webauthn.js"
import { DEFAULT_WEBAUTHN_TIMEOUT, type WebAuthnConfig, type WebAuthnUserConfig } from "./webauthn-config.js"
import { merge } from "../core/merge.js"

/**
 * A passkey provider (id `passkey`): {@link WebAuthn} whose registrations ask for a resident key
 * with user verification, and whose verifications require the user verified flag (a PIN or a
 * biometric, not only a touch). The user's options are deep-merged over these defaults, so
 * setting `registrationOptions.timeout` keeps the resident key requirement.
 *
 * @example
 * ```ts
 * import Passkey from "authflow/providers/passkey"
 *
 * const config = {
 *   providers: [Passkey({ relayingParty: { id: "app.example", name: "My app", origin: "https://app.example" } })],
 *   adapter: KyselyAdapter(db),
 *   experimental: { enableWebAuthn: true },
 * }
 * ```
 * @see https://www.w3.org/TR/webauthn-3/#sctn-user-verification
 */
export default function Passkey(options: WebAuthnUserConfig = {}): WebAuthnConfig {
  const passkeyDefaults: WebAuthnUserConfig = {
    id: "passkey",
    name: "Passkey",
    registrationOptions: {
      timeout: DEFAULT_WEBAUTHN_TIMEOUT,
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    },
    authenticationOptions: { timeout: DEFAULT_WEBAUTHN_TIMEOUT, userVerification: "required" },
    verifyRegistrationOptions: { requireUserVerification: true },
    verifyAuthenticationOptions: { requireUserVerification: true },
  }
  return WebAuthn(merge(passkeyDefaults, options))
}
