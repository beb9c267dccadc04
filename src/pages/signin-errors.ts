/**
 * The messages the sign-in page shows for `?error=` values. In English they are what Auth.js shows,
 * word for word: apps and their end-to-end tests match on them. `InvalidEmail` is authflow's own.
 * Each code names a message of the core catalog (`src/core/i18n/english/core.ts`), so every
 * locale shows its own text.
 *
 * @example
 * ```ts
 * import { signInErrorMessage } from "./signin-errors.js"
 * signInErrorMessage("EmailSignin") // "The e-mail could not be sent."
 * ```
 * @module
 */
import { english } from "../core/i18n/english.js"
import { messages as en } from "../core/i18n/english/core.js"
import type { CoreKey } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"

/**
 * The catalog message for each `?error=` value the sign-in page knows; others get
 * `signInErrorDefault`. A new code: add its message to the English catalog, then a line here.
 */
export const SIGNIN_ERROR_KEYS: Readonly<Record<string, CoreKey>> = Object.freeze({
  Signin: "signInErrorTryAnotherAccount",
  OAuthSignin: "signInErrorTryAnotherAccount",
  OAuthCallbackError: "signInErrorTryAnotherAccount",
  OAuthCreateAccount: "signInErrorTryAnotherAccount",
  EmailCreateAccount: "signInErrorTryAnotherAccount",
  Callback: "signInErrorTryAnotherAccount",
  OAuthAccountNotLinked: "signInErrorOAuthAccountNotLinked",
  EmailSignin: "signInErrorEmailSignin",
  CredentialsSignin: "signInErrorCredentialsSignin",
  SessionRequired: "signInErrorSessionRequired",
  // authflow's own: Auth.js ends a malformed address on the Configuration error page.
  InvalidEmail: "signInErrorInvalidEmail",
  // authflow's own: the rate limiter refused the request (see `rateLimit`).
  RateLimited: "signInErrorRateLimited",
  // authflow's own: the second factor (see `secondFactor`).
  SecondFactorRefused: "signInErrorSecondFactorRefused",
  SecondFactorAttemptsExhausted: "signInErrorSecondFactorAttemptsExhausted",
  // authflow's own: the Password provider's sign-up.
  SignUpRefused: "signInErrorSignUpRefused",
  EmailTaken: "signInErrorEmailTaken",
  // authflow's own: the Password provider's mailed links (verify an address, confirm a new one).
  PasswordLinkInvalid: "signInErrorPasswordLinkInvalid",
  PasswordLinkExpired: "signInErrorPasswordLinkExpired",
  PasswordCodeInvalid: "signInErrorPasswordCodeInvalid",
  PasswordCodeExpired: "signInErrorPasswordCodeExpired",
  EmailChangeConflict: "signInErrorEmailChangeConflict",
})

/** The English message for each `?error=` value the sign-in page knows (see {@link SIGNIN_ERROR_KEYS}). */
export const SIGNIN_ERROR_MESSAGES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(SIGNIN_ERROR_KEYS).map(([code, key]) => [code, en[key]])),
)

/** The English message for an `?error=` value the sign-in page does not know (e.g. `MissingCSRF`). */
export const DEFAULT_SIGNIN_ERROR = en.signInErrorDefault

// The longest wait the page states: a longer `retryAfter` in a crafted link is not repeated.
const MAX_STATED_WAIT = 24 * 60 * 60

/**
 * The message the sign-in page shows for an `?error=` value, or `undefined` when there is no error,
 * in `text`'s language (English by default). `RateLimited` with a known wait (`retryAfter`, in
 * seconds) says how long, in whole minutes.
 *
 * @example
 * ```ts
 * signInErrorMessage("CredentialsSignin") // "Sign in failed. Check the details you provided are correct."
 * signInErrorMessage("MissingCSRF") // "Unable to sign in."
 * signInErrorMessage("RateLimited", english, 240) // "Too many attempts. Try again in 4 minutes."
 * ```
 */
export function signInErrorMessage(error: string | undefined, text: Translator<CoreKey> = english, retryAfter?: number): string | undefined {
  if (!error) return undefined
  if (error === "RateLimited" && retryAfter !== undefined && Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= MAX_STATED_WAIT) {
    return text.t("signInErrorRateLimitedWait", { wait: text.relativeTime(Math.ceil(retryAfter / 60), "minute") })
  }
  return text.t(Object.hasOwn(SIGNIN_ERROR_KEYS, error) ? SIGNIN_ERROR_KEYS[error]! : "signInErrorDefault")
}

/**
 * The hint for each `?error=` value whose message alone does not say what to do. `MissingCSRF`
 * keeps Auth.js's "Unable to sign in." and adds the two usual causes.
 */
export const SIGNIN_ERROR_HINT_KEYS: Readonly<Record<string, CoreKey>> = Object.freeze({
  MissingCSRF: "signInHintMissingCSRF",
})

/** The English hints (see {@link SIGNIN_ERROR_HINT_KEYS}). */
export const SIGNIN_ERROR_HINTS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(SIGNIN_ERROR_HINT_KEYS).map(([code, key]) => [code, en[key]])),
)

/**
 * The hint the sign-in page shows under an error's message, or `undefined`, in `text`'s language.
 *
 * @example
 * ```ts
 * signInErrorHint("MissingCSRF") // "The form was out of date, or your browser did not send … Reload the page and try again; …"
 * signInErrorHint("CredentialsSignin") // undefined
 * ```
 */
export function signInErrorHint(error: string | undefined, text: Translator<CoreKey> = english): string | undefined {
  return error && Object.hasOwn(SIGNIN_ERROR_HINT_KEYS, error) ? text.t(SIGNIN_ERROR_HINT_KEYS[error]!) : undefined
}

/**
 * The catalog message of each notice the sign-in page shows for `?notice=` values a flow sends
 * the browser back with: what happened, where nothing went wrong. Others are not shown. A new
 * notice: add its message to the English catalog, then a line here.
 *
 * @example
 * ```ts
 * SIGNIN_NOTICE_KEYS["email-verified"] // "noticeEmailVerified"
 * SIGNIN_NOTICES["email-verified"] // "Your email address is verified. Sign in to continue."
 * ```
 */
export const SIGNIN_NOTICE_KEYS: Readonly<Record<string, CoreKey>> = Object.freeze({
  "verify-email": "noticeVerifyEmail",
  "email-verified": "noticeEmailVerified",
  "email-changed": "noticeEmailChanged",
  "reset-sent": "noticeResetSent",
  "password-reset": "noticePasswordReset",
})

/** The English text of each notice (see {@link SIGNIN_NOTICE_KEYS}). */
export const SIGNIN_NOTICES: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(Object.entries(SIGNIN_NOTICE_KEYS).map(([notice, key]) => [notice, en[key]])))
