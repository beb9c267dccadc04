/** Types of the browser client. */
import type { ProviderType, Session } from "../types.js"

export type { Session }

/** A provider as `GET /providers` lists it. */
export interface ClientSafeProvider {
  id: string
  name: string
  type: ProviderType
  signinUrl: string
  callbackUrl: string
}

/** Where to go after signing in, and whether to go there. Any other key is posted to the server. */
export interface SignInOptions extends Record<string, unknown> {
  /** Navigate to the result (default `true`); `false` returns a {@link SignInResponse} instead. */
  redirect?: boolean
  /** Where the user lands afterwards; default: the current page. */
  redirectTo?: string
  /** Older name of `redirectTo`. */
  callbackUrl?: string
}

/** Extra parameters for the provider's authorization request. */
export type SignInAuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** The outcome of `signIn(..., { redirect: false })`. */
export interface SignInResponse {
  /** The error type from the result URL (`CredentialsSignin`, `AccessDenied`…), if any. */
  error: string | undefined
  /** The `code` from the result URL (credentials sign-in), if any. */
  code: string | undefined
  /** HTTP status of the sign-in request. */
  status: number
  /** `true` when the request succeeded and the result carries no error. */
  ok: boolean
  /** Where the server would have sent the user; `null` on error. */
  url: string | null
}

/** Options of `signOut`. */
export interface SignOutOptions {
  /** Navigate to the result (default `true`); `false` returns `{ url }` instead. */
  redirect?: boolean
  /** Where the user lands afterwards; default: the current page. */
  redirectTo?: string
  /** Older name of `redirectTo`. */
  callbackUrl?: string
}
