/**
 * The WebAuthn provider: sign in with a passkey or security key. Experimental (enable it with
 * `experimental.enableWebAuthn`); needs an adapter with the authenticator methods and the
 * optional peer `@simplewebauthn/server` (14 or later).
 *
 * @module
 */
import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server"
import {
  DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION,
  DEFAULT_WEBAUTHN_TIMEOUT,
  defaultGetUserInfo,
  relayingPartyOf,
  type WebAuthnConfig,
  type WebAuthnLibrary,
  type WebAuthnUserConfig,
} from "./webauthn-config.js"
import { merge } from "../core/merge.js"

export { DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION, DEFAULT_WEBAUTHN_TIMEOUT, type WebAuthnConfig, type WebAuthnUserConfig } from "./webauthn-config.js"

/** `@simplewebauthn/server`'s four functions, as the providers use them. */
export const simpleWebAuthn: WebAuthnLibrary = {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
}

/**
 * A WebAuthn provider (id `webauthn`): `GET /webauthn-options/webauthn` hands out a challenge,
 * `POST /callback/webauthn` verifies the browser's answer, registering a new authenticator or
 * signing in with a known one. The user's options are deep-merged over the defaults, except
 * `formFields`, which replaces the default form whole.
 *
 * @example
 * ```ts
 * import WebAuthn from "authflow/providers/webauthn"
 *
 * const config = {
 *   providers: [WebAuthn({ relayingParty: { id: "app.example", name: "My app", origin: "https://app.example" } })],
 *   adapter: KyselyAdapter(db),
 *   experimental: { enableWebAuthn: true },
 * }
 * ```
 * @see https://www.w3.org/TR/webauthn-3/
 * @see https://simplewebauthn.dev/docs/packages/server
 */
export default function WebAuthn(options: WebAuthnUserConfig = {}): WebAuthnConfig {
  const defaults: WebAuthnConfig = {
    id: "webauthn",
    name: "WebAuthn",
    type: "webauthn",
    enableConditionalUI: true,
    simpleWebAuthn,
    registrationOptions: { timeout: DEFAULT_WEBAUTHN_TIMEOUT },
    authenticationOptions: { timeout: DEFAULT_WEBAUTHN_TIMEOUT },
    verifyRegistrationOptions: {},
    verifyAuthenticationOptions: {},
    formFields: { email: { label: "Email", required: true, autocomplete: "username webauthn" } },
    simpleWebAuthnBrowserVersion: DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION,
    getUserInfo: defaultGetUserInfo,
    getRelayingParty: ({ provider, url }) => relayingPartyOf(provider, url),
  }
  // The form is replaced whole, not merged: a form without the email field must stay without it.
  return { ...merge(defaults, options), formFields: options.formFields ?? defaults.formFields!, type: "webauthn" }
}
