/**
 * Sign in with a link sent by email through Resend's HTTP API.
 *
 * @module
 */
import type { EmailConfig, EmailUserConfig, SendVerificationRequestParams } from "./email-config.js"
import { apiKeyOf, postJson, recipientOf, senderOf, signInMessageOf } from "./email-message.js"

export type { EmailConfig, EmailUserConfig, SendVerificationRequestParams } from "./email-config.js"

/** Resend's endpoint for sending one email. */
export const resendEndpoint = "https://api.resend.com/emails"

/**
 * Sends the default sign-in message with `POST https://api.resend.com/emails`, authorised with
 * `Authorization: Bearer <apiKey>`. Throws when the API key is missing or Resend answers outside
 * 2xx (with Resend's error text).
 *
 * @example
 * ```ts
 * Resend({ async sendVerificationRequest(params) { await log(params.identifier); await sendWithResend(params) } })
 * ```
 * @see https://resend.com/docs/api-reference/emails/send-email
 */
export async function sendWithResend(params: SendVerificationRequestParams): Promise<void> {
  const { identifier, url, provider } = params
  const apiKey = apiKeyOf(provider, "Resend")
  const { subject, html, text } = signInMessageOf(params)
  await postJson(provider, "Resend", resendEndpoint, { Authorization: `Bearer ${apiKey}` }, {
    from: senderOf(provider, url),
    to: [recipientOf(identifier)],
    subject,
    html,
    text,
  })
}

/**
 * The Resend email provider (id `resend`). The API key comes from `apiKey` or `AUTH_RESEND_KEY`;
 * `from` must be an address on a domain verified in Resend (default `no-reply@<host of the link>`).
 * Links stay valid 24 hours.
 *
 * @example
 * ```ts
 * import Resend from "authflow/providers/resend"
 *
 * // AUTH_RESEND_KEY is read from the environment
 * const config = { adapter, providers: [Resend({ from: "Example <no-reply@example.com>" })] }
 * ```
 * @see https://resend.com/docs/api-reference/emails/send-email
 */
export default function Resend(config: EmailUserConfig = {}): EmailConfig {
  return {
    id: "resend",
    type: "email",
    name: "Resend",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithResend,
    options: config as Record<string, unknown>,
  }
}
