/**
 * The shape of WebAuthn providers (`webauthn`, `passkey`), with the option names of Auth.js v5.
 * This module imports nothing from `@simplewebauthn/server`: the part of it authflow calls is
 * described structurally ({@link WebAuthnLibrary}), so the types of an application without
 * passkeys do not need the package.
 *
 * @example
 * ```ts
 * import type { WebAuthnConfig } from "authflow/providers/webauthn-config"
 * ```
 * @module
 */
import type { Adapter } from "../adapters.js"
import type { Awaitable, CommonProviderOptions, CredentialInput, User } from "../base-types.js"

/** Five minutes: how long the browser lets the user answer a ceremony. */
export const DEFAULT_WEBAUTHN_TIMEOUT = 5 * 60 * 1000

/**
 * The `@simplewebauthn/browser` version Auth.js's sign-in page loads. Kept for configurations
 * written for Auth.js; authflow's built-in page does not load scripts from a CDN.
 */
export const DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION = "v9.0.1"

/** A credential in the `allowCredentials` / `excludeCredentials` lists: base64url id, transports. */
export interface WebAuthnCredentialDescriptor {
  id: string
  transports?: string[]
}

/** The public key of a stored credential, as `@simplewebauthn/server` 10+ verifies against it. */
export interface WebAuthnStoredCredential {
  /** base64url credential ID. */
  id: string
  publicKey: Uint8Array<ArrayBuffer>
  counter: number
  transports?: string[]
}

/** Options of `generateRegistrationOptions` that a provider may set (`registrationOptions`). */
export interface WebAuthnRegistrationOptions {
  timeout?: number
  attestationType?: "direct" | "enterprise" | "none"
  authenticatorSelection?: {
    authenticatorAttachment?: "platform" | "cross-platform"
    residentKey?: "discouraged" | "preferred" | "required"
    requireResidentKey?: boolean
    userVerification?: "discouraged" | "preferred" | "required"
  }
  extensions?: Record<string, unknown>
  supportedAlgorithmIDs?: number[]
  preferredAuthenticatorType?: "securityKey" | "localDevice" | "remoteDevice"
}

/** Options of `generateAuthenticationOptions` that a provider may set (`authenticationOptions`). */
export interface WebAuthnAuthenticationOptions {
  timeout?: number
  userVerification?: "discouraged" | "preferred" | "required"
  extensions?: Record<string, unknown>
}

/** Options of `verifyRegistrationResponse` that a provider may set (`verifyRegistrationOptions`). */
export interface WebAuthnVerifyRegistrationOptions {
  /** @default true */
  requireUserVerification?: boolean
  /** @default true */
  requireUserPresence?: boolean
  supportedAlgorithmIDs?: number[]
}

/** Options of `verifyAuthenticationResponse` that a provider may set (`verifyAuthenticationOptions`). */
export interface WebAuthnVerifyAuthenticationOptions {
  /** @default true */
  requireUserVerification?: boolean
}

/** What `verifyRegistrationResponse` reports (the fields authflow reads). */
export interface WebAuthnRegistrationVerification {
  verified: boolean
  registrationInfo?: {
    credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] }
    credentialDeviceType: string
    credentialBackedUp: boolean
    userVerified: boolean
  }
}

/** What `verifyAuthenticationResponse` reports (the fields authflow reads). */
export interface WebAuthnAuthenticationVerification {
  verified: boolean
  authenticationInfo: { newCounter: number; userVerified: boolean; credentialBackedUp: boolean; credentialDeviceType: string }
}

/**
 * The four functions of `@simplewebauthn/server` (10 or later) authflow calls. The provider
 * factories fill it with the real ones; tests may replace it.
 *
 * @example
 * ```ts
 * import * as simpleWebAuthn from "@simplewebauthn/server"
 * const library: WebAuthnLibrary = simpleWebAuthn
 * ```
 */
export interface WebAuthnLibrary {
  generateRegistrationOptions(options: WebAuthnRegistrationOptions & {
    rpName: string
    rpID: string
    userName: string
    userID?: Uint8Array<ArrayBuffer>
    userDisplayName?: string
    excludeCredentials?: WebAuthnCredentialDescriptor[]
  }): Promise<{ challenge: string }>
  generateAuthenticationOptions(options: WebAuthnAuthenticationOptions & {
    rpID: string
    allowCredentials?: WebAuthnCredentialDescriptor[]
  }): Promise<{ challenge: string }>
  verifyRegistrationResponse(options: WebAuthnVerifyRegistrationOptions & {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    response: any
    expectedChallenge: string
    expectedOrigin: string | string[]
    expectedRPID: string | string[]
  }): Promise<WebAuthnRegistrationVerification>
  verifyAuthenticationResponse(options: WebAuthnVerifyAuthenticationOptions & {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    response: any
    expectedChallenge: string
    expectedOrigin: string | string[]
    expectedRPID: string | string[]
    credential: WebAuthnStoredCredential
  }): Promise<WebAuthnAuthenticationVerification>
}

/**
 * The relying party: `id` (the domain credentials are scoped to), `name` (shown by the
 * authenticator), `origin` (where the ceremony must run). Each may list several values: options
 * use the first, responses are accepted from any.
 */
export interface RelayingParty {
  /** @default the request's host name */
  id?: string | string[]
  /** @default the request's host */
  name?: string | string[]
  /** @default the request's origin */
  origin?: string | string[]
}

/** The user a WebAuthn options request is about, and whether they exist already. */
export interface WebAuthnUserInfo {
  user: User & { email: string }
  exists: boolean
}

/** What `getUserInfo` and `getRelayingParty` are given: the adapter, the provider, the request URL. */
export interface WebAuthnProviderContext {
  adapter?: Adapter
  provider: WebAuthnConfig
  url: URL
}

/** The request as `getUserInfo` sees it (the parts Auth.js's gives it too). */
export interface WebAuthnRequestInfo {
  method: "GET" | "POST"
  query: Record<string, string>
  body?: Record<string, unknown>
}

/**
 * A WebAuthn (passkey) provider. Experimental: it needs `experimental.enableWebAuthn` and an
 * adapter with the authenticator methods.
 *
 * @example
 * ```ts
 * import WebAuthn from "authflow/providers/webauthn"
 * const provider: WebAuthnConfig = WebAuthn({ relayingParty: { id: "app.example", name: "App", origin: "https://app.example" } })
 * ```
 * @see https://www.w3.org/TR/webauthn-3/
 */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn"
  /**
   * The relying party. Set it in production: the defaults follow the request's URL.
   * @default { id: hostname, name: host, origin: origin } of the request
   */
  relayingParty?: RelayingParty
  /** The `@simplewebauthn/server` functions used. */
  simpleWebAuthn?: WebAuthnLibrary
  /**
   * Offer the browser's passkey autofill on the sign-in page (one provider at most).
   * @default true
   */
  enableConditionalUI?: boolean
  /**
   * The fields of the passkey form; one must have `autocomplete` containing `webauthn` when
   * `enableConditionalUI` is on.
   * @default { email: { label: "Email", required: true, autocomplete: "username webauthn" } }
   */
  formFields?: Record<string, CredentialInput>
  /** @default { timeout: 300000 } */
  registrationOptions?: WebAuthnRegistrationOptions
  /** @default { timeout: 300000 } */
  authenticationOptions?: WebAuthnAuthenticationOptions
  /** @default {} (user verification required, as `@simplewebauthn/server` defaults) */
  verifyRegistrationOptions?: WebAuthnVerifyRegistrationOptions
  /** @default {} (user verification required, as `@simplewebauthn/server` defaults) */
  verifyAuthenticationOptions?: WebAuthnVerifyAuthenticationOptions
  /**
   * Accepted for Auth.js configurations (it picks the CDN script of Auth.js's page); must look
   * like `v1`, `v1.2` or `v1.2.3`, or be `false`.
   * @default "v9.0.1"
   */
  simpleWebAuthnBrowserVersion?: string | false
  /**
   * Who an options request is about. The default reads `email` from the query (GET) or the body
   * (POST) and looks it up with `getUserByEmail`; `null` when no email is given.
   */
  getUserInfo?: (context: WebAuthnProviderContext, request: WebAuthnRequestInfo) => Awaitable<WebAuthnUserInfo | null>
  /** The relying party of a request. The default reads `relayingParty`, else the request's URL. */
  getRelayingParty?: (context: WebAuthnProviderContext, request: WebAuthnRequestInfo) => { id: string; name: string; origin: string }
}

/** What a user passes to `WebAuthn()` or `Passkey()`: every option but `type`. */
export type WebAuthnUserConfig = Partial<Omit<WebAuthnConfig, "type">>

/**
 * The relying party of a request: the configured values (the first of a list), else the
 * request's host name, host and origin.
 *
 * @example
 * ```ts
 * relayingPartyOf({ relayingParty: { id: "app.example" } }, new URL("https://app.example/auth"))
 * // { id: "app.example", name: "app.example", origin: "https://app.example" }
 * ```
 */
export function relayingPartyOf(provider: Pick<WebAuthnConfig, "relayingParty">, url: URL): { id: string; name: string; origin: string } {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)
  const party = provider.relayingParty
  return { id: first(party?.id) ?? url.hostname, name: first(party?.name) ?? url.host, origin: first(party?.origin) ?? url.origin }
}

/**
 * The `email` of an options request (query for GET, body for POST) looked up with
 * `getUserByEmail`: the existing user, a new one to register, or `null` without an email.
 *
 * @example
 * ```ts
 * await defaultGetUserInfo({ adapter, provider, url }, { method: "GET", query: { email: "ada@example.test" } })
 * // { user: { email: "ada@example.test" }, exists: false }
 * ```
 */
export async function defaultGetUserInfo(context: WebAuthnProviderContext, request: WebAuthnRequestInfo): Promise<WebAuthnUserInfo | null> {
  const email = request.method === "POST" ? request.body?.email : request.query.email
  if (typeof email !== "string" || !email) return null
  const existing = await context.adapter?.getUserByEmail?.(email)
  return existing ? { user: existing, exists: true } : { user: { email }, exists: false }
}
