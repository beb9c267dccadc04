/**
 * The messages the sign-in page shows for `?notice=` values: news that is not an error (an address
 * to verify, an address verified or changed). An unknown value shows nothing.
 *
 * @example
 * ```ts
 * import { signInNotice } from "./signin-notices.js"
 * signInNotice("email-verified") // "Your email address is verified. Sign in to continue."
 * ```
 * @module
 */

/** The message for each `?notice=` value the sign-in page knows. */
export const SIGNIN_NOTICES: Readonly<Record<string, string>> = Object.freeze({
  "verify-email": "Check your email: we sent a link to verify the address. Follow it, then sign in.",
  "email-verified": "Your email address is verified. Sign in to continue.",
  "email-changed": "Your email address was changed. Sign in with the new one.",
})

/**
 * The message the sign-in page shows for a `?notice=` value, or `undefined` for none or an unknown one.
 *
 * @example
 * ```ts
 * signInNotice("email-changed") // "Your email address was changed. Sign in with the new one."
 * signInNotice("anything-else") // undefined
 * ```
 */
export function signInNotice(notice: string | undefined): string | undefined {
  return notice && Object.hasOwn(SIGNIN_NOTICES, notice) ? SIGNIN_NOTICES[notice] : undefined
}
