/**
 * The English messages of the Password provider's pages: sign-up, forgot, reset and change
 * password, change email. Loaded when one of them is first written.
 *
 * @example
 * ```ts
 * import { messages } from "./password.js"
 * messages.signUpTitle // "Create an account"
 * ```
 * @module
 */

/** The English of the sign-up, password and change-email pages. */
export const messages = {
  // Sign-up page
  signUpTitle: "Create an account",
  nameOptionalLabel: "Name (optional)",
  passwordLabel: "Password",
  passwordMinLength: "At least {count} characters.",
  createAccountButton: "Create account",
  haveAccount: "Have an account?",
  // Password pages: forgot, reset and change
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
} satisfies Record<string, string>
