/**
 * Sign in with a link sent by email through Postmark's HTTP API.
 *
 * @module
 */
import type { EmailConfig, EmailUserConfig, SendVerificationRequestParams } from "./email-config.js"
import { apiKeyOf, postJson, recipientOf, senderOf, signInMessageOf } from "./email-message.js"

export type { EmailConfig, EmailUserConfig, SendVerificationRequestParams } from "./email-config.js"

/** Postmark's endpoint for sending one email. */
export const postmarkEndpoint = "https://api.postmarkapp.com/email"

/**
 * Sends the default sign-in message with `POST https://api.postmarkapp.com/email`, authorised
 * with the `X-Postmark-Server-Token` header (the server's API token). Throws when the token is
 * missing or Postmark answers outside 2xx (with Postmark's error text).
 *
 * @example
 * ```ts
 * Postmark({ async sendVerificationRequest(params) { await log(params.identifier); await sendWithPostmark(params) } })
 * ```
 * @see https://postmarkapp.com/developer/user-guide/send-email-with-api
 */
export async function sendWithPostmark(params: SendVerificationRequestParams): Promise<void> {
  const { identifier, url, provider } = params
  const apiKey = apiKeyOf(provider, "Postmark")
  const { subject, html, text } = signInMessageOf(params)
  await postJson(provider, "Postmark", postmarkEndpoint, { "X-Postmark-Server-Token": apiKey }, {
    From: senderOf(provider, url),
    To: recipientOf(identifier),
    Subject: subject,
    HtmlBody: html,
    TextBody: text,
  })
}

/**
 * The Postmark email provider (id `postmark`). The server API token comes from `apiKey` or
 * `AUTH_POSTMARK_KEY`; `from` must be a confirmed sender signature or on a verified domain
 * (default `no-reply@<host of the link>`). Links stay valid 24 hours.
 *
 * @example
 * ```ts
 * import Postmark from "authflow/providers/postmark"
 *
 * // AUTH_POSTMARK_KEY is read from the environment
 * const config = { adapter, providers: [Postmark({ from: "Example <no-reply@example.com>" })] }
 * ```
 * @see https://postmarkapp.com/developer/user-guide/send-email-with-api
 */
export default function Postmark(config: EmailUserConfig = {}): EmailConfig {
  return {
    id: "postmark",
    type: "email",
    name: "Postmark",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithPostmark,
    options: config as Record<string, unknown>,
  }
}
