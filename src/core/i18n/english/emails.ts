/**
 * The English messages of the built-in emails (the sign-in link or code, the second-factor code),
 * beside the core ones they share with the pages. Loaded when an email is first written.
 *
 * @example
 * ```ts
 * import { messages } from "./emails.js"
 * messages.emailIgnore // "If you did not request this email you can safely ignore it."
 * ```
 * @module
 */

/** The English of the emails. */
export const messages = {
  // Emails
  emailSignInTo: "Sign in to {host}",
  emailCodeValid: "Your sign-in code, valid {duration}:",
  emailIgnore: "If you did not request this email you can safely ignore it.",
  emailSecondFactorSubject: "Your verification code for {host}",
  emailSecondFactorCode: "Your verification code, valid {duration}:",
} satisfies Record<string, string>
