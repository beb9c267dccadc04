/**
 * The configuration checks of WebAuthn providers: the browser library's version, conditional UI
 * (one provider at most, with a `webauthn` autocomplete field), the experimental flag and an adapter
 * that stores authenticators. Loaded by the first configuration with a WebAuthn provider
 * (`checkConfig`).
 *
 * @module
 */
import {
  AuthError as PlainAuthError,
  DuplicateConditionalUI,
  ExperimentalFeatureNotEnabled,
  MissingAdapter,
  MissingWebAuthnAutocomplete,
  type AuthError,
} from "../errors.js"
import type { AuthConfig } from "../../types.js"
import type { Adapter } from "../../adapters.js"
import type { WebAuthnConfig } from "../../providers/webauthn-config.js"
import type { CheckedProviderConfig } from "./checked.js"

// Auth.js's list, and getUserByEmail: the default getUserInfo looks the email up with it.
const webAuthnMethods: (keyof Adapter)[] = [
  "createUser", "getUser", "getUserByEmail", "linkAccount", "getAccount",
  "getAuthenticator", "createAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter",
]

/**
 * A WebAuthn provider checked: its `simpleWebAuthnBrowserVersion`, and its conditional UI (no
 * earlier provider has it on, and a form field's autocomplete names `webauthn`).
 *
 * @param earlier - The providers before it that passed their checks.
 *
 * @example
 * ```ts
 * const error = checkWebAuthnProvider(provider, checked)
 * if (error) return refuse(error) // DuplicateConditionalUI, MissingWebAuthnAutocomplete, …
 * ```
 */
export function checkWebAuthnProvider(provider: WebAuthnConfig, earlier: readonly CheckedProviderConfig[]): AuthError | undefined {
  const version = provider.simpleWebAuthnBrowserVersion
  if (version !== undefined && version !== false && !/^v\d+(?:\.\d+){0,2}$/.test(version)) {
    return new PlainAuthError(`Invalid provider config for "${provider.id}": simpleWebAuthnBrowserVersion "${version}" must be like v1, v1.2 or v1.2.3`)
  }
  if (!provider.enableConditionalUI) return undefined
  if (earlier.some((other) => other.type === "webauthn" && other.enableConditionalUI)) {
    return new DuplicateConditionalUI("Multiple webauthn providers have 'enableConditionalUI' set to True. Only one provider can have this option enabled at a time")
  }
  const autocompletes = Object.values(provider.formFields ?? {}).map((field) => field.autocomplete)
  if (!autocompletes.some((value) => typeof value === "string" && value.includes("webauthn"))) {
    return new MissingWebAuthnAutocomplete(`Provider "${provider.id}" has 'enableConditionalUI' set to True, but none of its formFields have 'webauthn' in their autocomplete param`)
  }
  return undefined
}

/**
 * What WebAuthn asks of the configuration: `experimental.enableWebAuthn`, and an adapter, whose
 * methods it calls are added to `required` (checked with the others at the end).
 *
 * @example
 * ```ts
 * const error = checkWebAuthnConfig(config, required)
 * if (error) return refuse(error) // ExperimentalFeatureNotEnabled or MissingAdapter
 * ```
 */
export function checkWebAuthnConfig(config: AuthConfig, required: Set<keyof Adapter>): AuthError | undefined {
  if (!config.experimental?.enableWebAuthn) {
    return new ExperimentalFeatureNotEnabled("WebAuthn is an experimental feature: enable it with experimental.enableWebAuthn")
  }
  if (!config.adapter) return new MissingAdapter("WebAuthn requires an adapter")
  for (const method of webAuthnMethods) required.add(method)
  return undefined
}
