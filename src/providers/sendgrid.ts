/**
 * Sign in with a link sent by email through SendGrid's v3 Mail Send API.
 *
 * @module
 */
import type { EmailConfig, EmailUserConfig, SendVerificationRequestParams } from "./email-config.js"
import { apiKeyOf, postJson, recipientOf, senderOf, signInMessageOf } from "./email-message.js"

export type { EmailConfig, EmailUserConfig, SendVerificationRequestParams } from "./email-config.js"

/** SendGrid's v3 Mail Send endpoint. */
export const sendgridEndpoint = "https://api.sendgrid.com/v3/mail/send"

/** `"Name <a@b>"` → `{ name, email }`; a bare address → `{ email }`. SendGrid wants them apart. */
function mailbox(from: string): { email: string; name?: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from)
  if (!match) return { email: from.trim() }
  const name = match[1]!.replace(/^"(.*)"$/, "$1")
  return name ? { email: match[2]!.trim(), name } : { email: match[2]!.trim() }
}

/**
 * Sends the default sign-in message with `POST https://api.sendgrid.com/v3/mail/send`, authorised
 * with `Authorization: Bearer <apiKey>`: one personalization to the user, the sender as
 * `{ email, name }`, and the text part before the HTML part as SendGrid requires. Throws when the
 * API key is missing or SendGrid answers outside 2xx (with SendGrid's error text).
 *
 * @example
 * ```ts
 * SendGrid({ async sendVerificationRequest(params) { await log(params.identifier); await sendWithSendGrid(params) } })
 * ```
 * @see https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
 */
export async function sendWithSendGrid(params: SendVerificationRequestParams): Promise<void> {
  const { identifier, url, provider } = params
  const apiKey = apiKeyOf(provider, "SendGrid")
  const { subject, html, text } = signInMessageOf(params)
  await postJson(provider, "SendGrid", sendgridEndpoint, { Authorization: `Bearer ${apiKey}` }, {
    personalizations: [{ to: [{ email: recipientOf(identifier) }] }],
    from: mailbox(senderOf(provider, url)),
    subject,
    content: [
      { type: "text/plain", value: text },
      { type: "text/html", value: html },
    ],
  })
}

/**
 * The SendGrid email provider (id `sendgrid`). The API key comes from `apiKey` or
 * `AUTH_SENDGRID_KEY`; `from` (`"Name <address>"` or an address) must be a verified sender
 * (default `no-reply@<host of the link>`). Links stay valid 24 hours.
 *
 * @example
 * ```ts
 * import SendGrid from "authflow/providers/sendgrid"
 *
 * // AUTH_SENDGRID_KEY is read from the environment
 * const config = { adapter, providers: [SendGrid({ from: "Example <no-reply@example.com>" })] }
 * ```
 * @see https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
 */
export default function SendGrid(config: EmailUserConfig = {}): EmailConfig {
  return {
    id: "sendgrid",
    type: "email",
    name: "SendGrid",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithSendGrid,
    options: config as Record<string, unknown>,
  }
}
