/**
 * Sign in with a link sent by email over SMTP, through Nodemailer. Nodemailer is an optional peer
 * dependency: it is loaded the first time a link is sent, so an app that does not use this provider
 * never needs it installed.
 *
 * @module
 */
import { AuthError } from "../core/errors.js"
import type { EmailConfig, EmailUserConfig, SendVerificationRequestParams } from "./email-config.js"
import { recipientOf, senderOf, signInMessageOf } from "./email-message.js"
import { asError } from "../core/as-error.js"

export type { EmailConfig, EmailUserConfig, SendVerificationRequestParams } from "./email-config.js"

type NodemailerModule = typeof import("nodemailer")

let loading: Promise<NodemailerModule> | undefined

/** Loads `nodemailer` once; a missing package becomes an `AuthError` saying what to install. */
function loadNodemailer(): Promise<NodemailerModule> {
  loading ??= import("nodemailer").then(
    (module) => ((module as { default?: NodemailerModule }).default ?? module) as NodemailerModule,
    (error: unknown) => {
      loading = undefined
      throw new AuthError("The nodemailer email provider needs the `nodemailer` package: npm install nodemailer", {
        cause: asError(error),
      })
    },
  )
  return loading
}

function hasServer(server: EmailConfig["server"]): server is string | Record<string, unknown> {
  if (typeof server === "string") return server.trim() !== ""
  return typeof server === "object" && server !== null && Object.keys(server).length > 0
}

function addressOf(entry: string | { address: string }): string {
  return typeof entry === "string" ? entry : entry.address
}

/**
 * Sends the default sign-in message ({@link signInMessage}) to `identifier` through the provider's
 * `server`, given to nodemailer as an address object so it is not parsed again. (For an address
 * with a non-ASCII local part nodemailer writes the domain's U-labels, as SMTPUTF8 allows: the
 * same domain.) Throws an `AuthError` when `server` is missing or `nodemailer` is not installed, and
 * an `Error` when `identifier` is not a canonical address ({@link recipientOf}) or the SMTP server
 * refuses the recipient or leaves it pending.
 *
 * @example
 * ```ts
 * Nodemailer({ server, async sendVerificationRequest(params) { await audit(params.identifier); await sendWithNodemailer(params) } })
 * ```
 */
export async function sendWithNodemailer(params: SendVerificationRequestParams): Promise<void> {
  const { identifier, url, provider } = params
  const to = recipientOf(identifier)
  const { server } = provider
  if (!hasServer(server)) {
    throw new AuthError(
      `The email provider "${provider.id}" needs \`server\`: an SMTP connection URL (smtp://user:password@smtp.example.com:587) or Nodemailer transport options`,
    )
  }
  const nodemailer = await loadNodemailer()
  const transport = nodemailer.createTransport(server as Parameters<NodemailerModule["createTransport"]>[0])
  try {
    // An address object, not a string: nodemailer does not parse it for display names or groups.
    const info = await transport.sendMail({ to: { name: "", address: to }, from: senderOf(provider, url), ...signInMessageOf(params) })
    const refused = [...(info.rejected ?? []), ...(info.pending ?? [])].map(addressOf)
    if (refused.length) {
      throw new Error(`The SMTP server did not accept the sign-in email for ${refused.join(", ")}`, { cause: { response: info.response } })
    }
  } finally {
    transport.close()
  }
}

/**
 * The Nodemailer email provider (id `nodemailer`): sends a sign-in link over SMTP. Links stay valid
 * 24 hours (`maxAge`, in seconds). `server` is required: a connection URL or Nodemailer transport
 * options. `from` defaults to `no-reply@<host of the link>`; set it to an address your SMTP server
 * may send for. Install `nodemailer` next to authflow. Replace `sendVerificationRequest` to send
 * your own message; the engine needs an adapter with `createVerificationToken`,
 * `useVerificationToken` and `getUserByEmail`.
 *
 * @example
 * ```ts
 * import Nodemailer from "authflow/providers/nodemailer"
 *
 * const config = {
 *   adapter,
 *   providers: [Nodemailer({ server: process.env.EMAIL_SERVER, from: "Example <no-reply@example.com>" })],
 * }
 * // or with transport options:
 * Nodemailer({ server: { host: "smtp.example.com", port: 587, auth: { user, pass } }, from: "no-reply@example.com" })
 * ```
 * @see https://nodemailer.com/smtp/
 */
export default function Nodemailer(config: EmailUserConfig = {}): EmailConfig {
  return {
    id: "nodemailer",
    type: "email",
    name: "Nodemailer",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithNodemailer,
    options: config as Record<string, unknown>,
  }
}
