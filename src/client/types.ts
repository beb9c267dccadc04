/** Types of the browser client. */
import type { ProviderType, Session } from "../types.js"
import type { SecondFactorRefusal } from "../core/errors.js"
import type { SecondFactorMethod } from "../machines/sign-in-tail.js"

export type { Session, SecondFactorMethod, SecondFactorRefusal }

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
  /**
   * With `multiSession` on the server: the id (from `listAccounts()`) of the one account to sign
   * out. The active one's place goes to the next account.
   * @default every account of the browser
   */
  account?: string
}

/** An authenticator app as `/factors` lists it: no secret. */
export interface SecondFactorSummary {
  id: string
  name: string
  /** When it was added, as an ISO 8601 string. */
  createdAt: string
}

/**
 * Why `/factors` refused: one of the flow's refusals, or the error type of the page the router
 * sent the request to (`MissingCSRF`, `RateLimited`, and `Configuration`, which is also how the
 * server names an enrolment that expired or was confirmed before).
 */
export type FactorsRefusal =
  | "signed-out"
  | "wrong-code"
  | "attempts-exhausted"
  | "removal-refused"
  | "unknown-factor"
  | "enrolment-of-other-user"
  | "invalid-request"
  | (string & {})

/** The outcome of a `/factors` function: what the server answered, or the refusal, with the HTTP status. */
export type FactorsResult<T extends object = Record<never, never>> =
  | (T & { ok: true; error: undefined; status: number })
  | { ok: false; error: FactorsRefusal; status: number }

/** Options of `submitSecondFactor`. */
export interface SubmitSecondFactorOptions {
  /**
   * Which kind of code `code` is.
   * @default "totp"
   */
  method?: SecondFactorMethod
  /** The code the user typed. */
  code: string
  /**
   * "Don't ask again on this device" (where the server offers it: `trustedDeviceDays` above 0).
   * @default false
   */
  remember?: boolean
  /**
   * Navigate to where the server answers; `false` returns a {@link SecondFactorResponse} instead.
   * @default true
   */
  redirect?: boolean
}

/** The outcome of `submitSecondFactor(…, { redirect: false })` and of `requestEmailCode()`. */
export interface SecondFactorResponse {
  /** `true` when the code passed (signed in), or the email was sent. */
  ok: boolean
  /**
   * Where the server sent the browser: the callback URL once signed in, the second-factor page
   * (with `error` and `reason`, or `sent=email`) while the sign-in waits, else the sign-in or error
   * page; `null` if it answered no URL.
   */
  url: string | null
  /** The error type of that URL (`SecondFactorRefused`, `SecondFactorAttemptsExhausted`, `MissingCSRF`, `RateLimited`…), if any. */
  error: string | undefined
  /** Why a code was refused while the sign-in still waits. */
  reason: SecondFactorRefusal | undefined
  /** HTTP status of the request. */
  status: number
}
