/**
 * The shapes the built-in pages receive from the engine and give back.
 *
 * @example
 * ```ts
 * import type { PageProvider, RenderedPage } from "./types.js"
 * const github: PageProvider = {
 *   id: "github", name: "GitHub", type: "oauth",
 *   signinUrl: "https://app.example/auth/signin/github",
 *   callbackUrl: "https://app.example/auth/callback/github",
 * }
 * ```
 * @module
 */

/** A provider as the sign-in page needs it: what to show and where its form posts. */
export interface PageProvider {
  id: string
  name: string
  type: "oauth" | "oidc" | "email" | "credentials" | "webauthn"
  /** `<basePath>/signin/<id>`: oauth, oidc and email forms post here. */
  signinUrl: string
  /** `<basePath>/callback/<id>`: the credentials form posts here. */
  callbackUrl: string
  /** Button look. `logo` is shown only when given: the pages never fetch a logo from elsewhere. */
  style?: { logo?: string; bg?: string; text?: string; brandColor?: string }
  /** Credentials fields; a credentials provider without them is not shown. */
  credentials?: Record<string, { label?: string; type?: string; placeholder?: string; [attr: string]: unknown }>
  /** WebAuthn: the fields shown above the passkey button (an email field, by default). */
  formFields?: Record<string, { label?: string; type?: string; placeholder?: string; required?: boolean; autocomplete?: string; [attr: string]: unknown }>
  /** WebAuthn: offer passkeys in the browser's autofill (conditional mediation). */
  enableConditionalUI?: boolean
}

/** A page ready to send: its HTTP status and a complete `<!DOCTYPE html>` document. */
export interface RenderedPage {
  status: number
  html: string
}
