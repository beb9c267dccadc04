/**
 * The generic email provider (id `email`): the Nodemailer provider under the id and name "email",
 * for configurations written for it.
 *
 * @module
 */
import Nodemailer from "./nodemailer.js"
import type { EmailConfig, EmailUserConfig } from "./email-config.js"

export type { EmailConfig, EmailUserConfig, SendVerificationRequestParams } from "./email-config.js"

/**
 * A sign-in link sent over SMTP through Nodemailer, like {@link Nodemailer} but with id `email` and
 * name `Email` (its routes are `/signin/email` and `/callback/email`). `server` is required,
 * `from` defaults to `no-reply@<host of the link>`, links stay valid 24 hours.
 *
 * @example
 * ```ts
 * import Email from "authflow/providers/email"
 *
 * const config = { adapter, providers: [Email({ server: process.env.EMAIL_SERVER, from: "no-reply@example.com" })] }
 * ```
 * @see https://nodemailer.com/smtp/
 */
export default function Email(config: EmailUserConfig = {}): EmailConfig {
  return { ...Nodemailer(config), id: "email", name: "Email" }
}
