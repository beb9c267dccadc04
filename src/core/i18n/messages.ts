/**
 * The English messages of the built-in pages and emails: the complete catalog, whose keys every
 * other catalog and every app override uses. A message names its parameters in braces
 * (`Sign in with {provider}`); numbers, durations and times arrive formatted for the locale.
 *
 * @example
 * ```ts
 * import { en, type Catalog } from "./messages.js"
 * en.signInWith // "Sign in with {provider}"
 * const german: Catalog = { signInWith: "Anmelden mit {provider}" } // a missing key falls back to English
 * ```
 * @module
 */

const english = {
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
  // Sign-up page
  signUpTitle: "Create an account",
  nameOptionalLabel: "Name (optional)",
  passwordLabel: "Password",
  passwordMinLength: "At least {count} characters.",
  createAccountButton: "Create account",
  haveAccount: "Have an account?",
  // Password pages: forgot, reset and change
  forgotPasswordLink: "Forgot password?",
  forgotPasswordTitle: "Reset your password",
  forgotPasswordLead: "Type your account's email address: we will mail you a link to choose a new password.",
  sendResetLinkButton: "Send the link",
  resetPasswordTitle: "Choose a new password",
  newPasswordLabel: "New password",
  setPasswordButton: "Set the new password",
  resetCodeLead: "If the address has an account, we emailed it a 6-digit code. Type it here with your new password, in this browser, within {duration}.",
  changePasswordTitle: "Change your password",
  currentPasswordLabel: "Current password",
  changePasswordButton: "Change password",
  noticePasswordChanged: "Your password was changed.",
  passwordFormOutdated: "The form was out of date. Reload the page and try again.",
  passwordWrong: "That password is not right.",
  passwordNone: "This account has no password to change.",
  passwordTooShort: "That password is too short: use at least {count} characters.",
  passwordTooLong: "That password is too long: use at most {count} characters.",
  passwordNotAllowed: "That password is not allowed. Choose another one.",
  passwordFormFailed: "That did not work. Try again.",
  resetCodeInvalid: "That code can no longer be used. Ask for a new one below.",
  resetCodeExpired: "That code has expired. Ask for a new one below.",
  // Change-email page
  changeEmailTitle: "Change your email address",
  changeEmailCurrent: "Your address is {email}.",
  changeEmailNewLabel: "New email address",
  changeEmailButton: "Send the confirmation link",
  changeEmailRequested: "Check the inbox of the new address: follow the link there to make the change.",
  changeEmailErrorSameEmail: "That is already your email address.",
  changeEmailErrorNoPassword: "This account has no password to confirm the change with.",
  changeEmailErrorEmailSignin: "The e-mail could not be sent. Try again later.",
  changeEmailErrorDefault: "The change could not be made.",
  // Second-factor page
  secondFactorTitle: "Two-step verification",
  totpLabel: "Code from your authenticator app",
  totpHint: "Open your authenticator app and type the 6-digit code it shows.",
  backupCodeLabel: "Backup code",
  backupCodeHint: "Type one of the backup codes you saved. Each works once.",
  emailCodeHint: "Type the 6-digit code we emailed you.",
  secondFactorReplayedCode: "That code was used already. Wait for the next one and try again.",
  secondFactorUnknownBackupCode: "That backup code is not valid, or was used already.",
  secondFactorExpiredEmailCode: "That code has expired. Ask for a new one.",
  secondFactorNoEmailCode: "Ask for a code by email first.",
  secondFactorRefused: "That code was refused. Try again.",
  rememberDevice: "Don't ask again on this device for {duration}",
  verifyButton: "Verify",
  emailMeCode: "Email me a code",
  emailMeNewCode: "Email me a new code",
  secondFactorEmailSent: "We emailed you a code. It works for {duration}.",
  useTotpInstead: "Use your authenticator app instead",
  useBackupCodeInstead: "Use a backup code instead",
  useEmailInstead: "Get a code by email instead",
  // Second-factor management (/factors)
  factorsNone: "No authenticator app yet.",
  nameLabel: "Name",
  renameButton: "Rename",
  removeLastFactorLabel: "A current code from {name}, to remove your last app",
  removeButton: "Remove {name}",
  addAppButton: "Add an authenticator app",
  backupCodesLeft: "Backup codes left: {count}",
  newBackupCodesButton: "Make new backup codes",
  factorsNoticeEnrolled: "Your authenticator app was added.",
  factorsNoticeSaved: "Saved.",
  factorsNoticeUnknownFactor: "That app is not one of yours.",
  factorsNoticeInvalidRequest: "That request was not understood.",
  factorsNoticeAttemptsExhausted: "Too many wrong codes: start adding the app again.",
  factorsNoticeRemovalRefused: "That code is not right: your last app stays.",
  factorsNoticeEnrolmentOfOtherUser: "That enrolment was started by someone else.",
  factorsNoticeEnrolmentEnded: "That enrolment has ended: start adding the app again.",
  enrolLead: "Scan this code with your authenticator app, or type the key below into it.",
  enrolKey: "Key:",
  enrolCodeWrong: "That code is not right. Check the app and try again.",
  enrolDefaultName: "Authenticator app",
  enrolCodeLabel: "Code from the app",
  addButton: "Add",
  backupCodesTitle: "Backup codes",
  backupCodesHeading: "Your backup codes",
  backupCodesLead: "Keep them somewhere safe. Each one works once, when your app is not at hand. They are not shown again.",
  doneButton: "Done",
  // Emails
  emailSignInTo: "Sign in to {host}",
  emailCodeValid: "Your sign-in code, valid {duration}:",
  emailIgnore: "If you did not request this email you can safely ignore it.",
  emailSecondFactorSubject: "Your verification code for {host}",
  emailSecondFactorCode: "Your verification code, valid {duration}:",
} satisfies Record<string, string>

/** The key of a message of the built-in pages and emails. */
export type MessageKey = keyof typeof english

/** Every message, as the English catalog has them: the shape an app's complete catalog takes. */
export type Messages = Record<MessageKey, string>

/**
 * A catalog of some of the messages: a shipped translation or an app's overrides. A message left out
 * is taken from the next catalog down, and in the end from English, so a key is never shown.
 */
export type Catalog = Partial<Messages>

/**
 * The English messages, complete by type: a key added to the pages must be given its English text here.
 *
 * @example
 * ```ts
 * en.signOutQuestion // "Are you sure you want to sign out?"
 * ```
 */
export const en: Readonly<Messages> = Object.freeze(english)
