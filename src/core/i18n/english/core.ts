/**
 * The English messages of what every app serves: the document, the sign-in, sign-out, error,
 * verify-request and emailed-code pages, and the JSON answer of a refused request. Loaded with the
 * pages; the other areas (`password.ts`, `second-factor.ts`, `emails.ts`) load when a page or an
 * email of theirs is first written.
 *
 * @example
 * ```ts
 * import { messages } from "./core.js"
 * messages.signOutQuestion // "Are you sure you want to sign out?"
 * ```
 * @module
 */

/** The English of the sign-in, sign-out, error and verify-request pages, and of the JSON answers. */
export const messages = {
  // The document
  logoAlt: "Logo",
  // Sign-in page
  signInTitle: "Sign In",
  signInHeading: "Sign in",
  signInChoose: "Choose how you would like to sign in.",
  or: "or",
  signInWith: "Sign in with {provider}",
  emailLabel: "Email",
  emailPlaceholder: "email@example.com",
  createAccountLink: "Create an account",
  forgotPasswordLink: "Forgot password?",
  passkeyFailed: "Passkey sign-in did not complete. Try again.",
  // Sign-in page: the message for `?error=` (see signin-errors.ts for which code shows which)
  signInErrorTryAnotherAccount: "Try signing in with a different account.",
  signInErrorOAuthAccountNotLinked: "To confirm your identity, sign in with the same account you used originally.",
  signInErrorEmailSignin: "The e-mail could not be sent.",
  signInErrorCredentialsSignin: "Sign in failed. Check the details you provided are correct.",
  signInErrorSessionRequired: "Please sign in to access this page.",
  signInErrorInvalidEmail: "That email address is not valid. Check it and try again.",
  signInErrorRateLimited: "Too many attempts. Wait a few minutes, then try again.",
  signInErrorRateLimitedWait: "Too many attempts. Try again {wait}.",
  // The JSON answer of a refused session update or passkey request (`{wait}`: "in 30 seconds")
  tooManyRequestsWait: "Too many requests. Try again {wait}.",
  signInErrorSecondFactorRefused: "Your sign-in could not be finished. Sign in again.",
  signInErrorSecondFactorAttemptsExhausted: "Too many wrong codes. Sign in again.",
  signInErrorSignUpRefused: "That sign-up was not accepted. Check the email address, and choose a longer or less common password.",
  signInErrorEmailTaken: "An account with this email address exists. Sign in instead.",
  signInErrorPasswordLinkInvalid: "That link cannot be used. It may have been used already, or the address changed since it was sent.",
  signInErrorPasswordLinkExpired: "That link has expired. Ask for a new one.",
  signInErrorPasswordCodeInvalid: "That code cannot be used any more. Sign in again to get a new one.",
  signInErrorPasswordCodeExpired: "That code has expired. Sign in again to get a new one.",
  signInErrorEmailChangeConflict: "Your address was not changed: the new address belongs to another account now.",
  noticeVerifyEmail: "Check your email: we sent a link to verify the address. Follow it, then sign in.",
  noticeEmailVerified: "Your email address is verified. Sign in to continue.",
  noticeEmailChanged: "Your email address was changed. Sign in with the new one.",
  noticeResetSent: "If an account has that address, we mailed it a link to choose a new password. The link works for an hour.",
  noticePasswordReset: "Your password was changed. Sign in with the new one.",
  signInErrorDefault: "Unable to sign in.",
  signInHintMissingCSRF:
    "The form was out of date, or your browser did not send this site's cookies. Reload the page and try again; if it keeps happening, allow cookies for this site.",
  // Sign-out page
  signOutTitle: "Sign Out",
  signOutHeading: "Sign out",
  signOutQuestion: "Are you sure you want to sign out?",
  signOutButton: "Sign out",
  cancel: "Cancel",
  // Error page
  errorTitle: "Error",
  errorConfigurationHeading: "Server error",
  errorConfigurationMessage: "There is a problem with the server configuration.",
  errorConfigurationHint: "Check the server logs for more information.",
  errorAccessDeniedHeading: "Access Denied",
  errorAccessDeniedMessage: "You do not have permission to sign in.",
  errorVerificationHeading: "Unable to sign in",
  errorVerificationMessage: "The sign in link is no longer valid.",
  errorVerificationHint: "It may have been used already or it may have expired.",
  errorSecondFactorUnavailableHeading: "Two-step verification needed",
  errorSecondFactorUnavailableMessage: "This account must use two-step verification, and has no way set up to do it.",
  errorSecondFactorUnavailableHint: "Ask the site's administrator to help you set it up.",
  errorAccountNotFoundHeading: "Account not signed in",
  errorAccountNotFoundMessage: "That account is not signed in in this browser any more.",
  signInUseAnotherAccount: "Use another account",
  errorDefaultHeading: "Error",
  errorDefaultMessage: "Something went wrong.",
  returnTo: "Return to {host}",
  signInButton: "Sign in",
  // Verify-request and emailed-code pages
  verifyRequestTitle: "Verify Request",
  checkEmailHeading: "Check your email",
  verifyRequestSent: "A sign in link has been sent to your email address.",
  emailCodeTitle: "Enter your code",
  emailCodeSent: "We emailed you a 6-digit code. It works for {duration}, in this browser.",
  emailCodeLabel: "Code from your email",
  emailCodeOtherBrowser: "This browser did not ask for a code. Type the code in the browser where you asked for it, or sign in again here.",
  codeWrong: "That code is not right. Check it and try again.",
  codeWrongTriesLeft: "That code is not right. Check it and try again (tries left: {count}).",
  verifyEmailCodeSent: "We emailed you a 6-digit code to verify your address. It works for {duration}, in this browser.",
  verifyButton: "Verify",
} satisfies Record<string, string>
