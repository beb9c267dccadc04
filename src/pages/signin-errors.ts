/**
 * The messages the sign-in page shows for `?error=` values. They are what Auth.js shows, word for
 * word: apps and their end-to-end tests match on them. `InvalidEmail` is authflow's own.
 *
 * @example
 * ```ts
 * import { signInErrorMessage } from "./signin-errors.js"
 * signInErrorMessage("EmailSignin") // "The e-mail could not be sent."
 * ```
 * @module
 */

const TRY_ANOTHER_ACCOUNT = "Try signing in with a different account."

/** The message for each `?error=` value the sign-in page knows; others get {@link DEFAULT_SIGNIN_ERROR}. */
export const SIGNIN_ERROR_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  Signin: TRY_ANOTHER_ACCOUNT,
  OAuthSignin: TRY_ANOTHER_ACCOUNT,
  OAuthCallbackError: TRY_ANOTHER_ACCOUNT,
  OAuthCreateAccount: TRY_ANOTHER_ACCOUNT,
  EmailCreateAccount: TRY_ANOTHER_ACCOUNT,
  Callback: TRY_ANOTHER_ACCOUNT,
  OAuthAccountNotLinked: "To confirm your identity, sign in with the same account you used originally.",
  EmailSignin: "The e-mail could not be sent.",
  CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
  SessionRequired: "Please sign in to access this page.",
  // authflow's own: Auth.js ends a malformed address on the Configuration error page.
  InvalidEmail: "That email address is not valid. Check it and try again.",
  // authflow's own: the rate limiter refused the request (see `rateLimit`).
  RateLimited: "Too many attempts. Wait a few minutes, then try again.",
  // authflow's own: the second factor (see `secondFactor`).
  SecondFactorRefused: "Your sign-in could not be finished. Sign in again.",
  SecondFactorAttemptsExhausted: "Too many wrong codes. Sign in again.",
  // authflow's own: the Password provider's mailed links (verify an address, confirm a new one).
  PasswordLinkInvalid: "That link cannot be used. It may have been used already, or the address changed since it was sent.",
  PasswordLinkExpired: "That link has expired. Ask for a new one.",
  EmailChangeConflict: "Your address was not changed: the new address belongs to another account now.",
  // authflow's own: the Password provider's sign-up.
  SignUpRefused: "That sign-up was not accepted. Check the email address, and choose a longer or less common password.",
  EmailTaken: "An account with this email address exists. Sign in instead.",
})

/** The message for an `?error=` value the sign-in page does not know (e.g. `MissingCSRF`). */
export const DEFAULT_SIGNIN_ERROR = "Unable to sign in."

/**
 * The message the sign-in page shows for an `?error=` value, or `undefined` when there is no error.
 *
 * @example
 * ```ts
 * signInErrorMessage("CredentialsSignin") // "Sign in failed. Check the details you provided are correct."
 * signInErrorMessage("MissingCSRF") // "Unable to sign in."
 * ```
 */
export function signInErrorMessage(error: string | undefined): string | undefined {
  if (!error) return undefined
  return Object.hasOwn(SIGNIN_ERROR_MESSAGES, error) ? SIGNIN_ERROR_MESSAGES[error] : DEFAULT_SIGNIN_ERROR
}

/**
 * What to do about an `?error=` value whose message alone does not say it, shown under the message.
 * `MissingCSRF` keeps Auth.js's "Unable to sign in." and adds the two usual causes.
 */
export const SIGNIN_ERROR_HINTS: Readonly<Record<string, string>> = Object.freeze({
  MissingCSRF:
    "The form was out of date, or your browser did not send this site's cookies. Reload the page and try again; if it keeps happening, allow cookies for this site.",
})

/**
 * The hint the sign-in page shows under an error's message, or `undefined`.
 *
 * @example
 * ```ts
 * signInErrorHint("MissingCSRF") // "The form was out of date, or your browser did not send … Reload the page and try again; …"
 * signInErrorHint("CredentialsSignin") // undefined
 * ```
 */
export function signInErrorHint(error: string | undefined): string | undefined {
  return error && Object.hasOwn(SIGNIN_ERROR_HINTS, error) ? SIGNIN_ERROR_HINTS[error] : undefined
}

/**
 * The notices the sign-in page shows for `?notice=` values a flow sends the browser back with:
 * what happened, where nothing went wrong. Others are not shown.
 *
 * @example
 * ```ts
 * SIGNIN_NOTICES["email-verified"] // "Your email address is verified. Sign in to continue."
 * ```
 */
export const SIGNIN_NOTICES: Readonly<Record<string, string>> = Object.freeze({
  "verify-email": "Check your email: we sent a link to verify the address. Follow it, then sign in.",
  "email-verified": "Your email address is verified. Sign in to continue.",
  "email-changed": "Your email address was changed. Sign in with the new one.",
})
