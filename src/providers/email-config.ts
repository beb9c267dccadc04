/**
 * The shape of email (magic link) providers: built-in ones (`nodemailer`, `email`, `resend`,
 * `sendgrid`, `postmark`) and your own.
 *
 * @example
 * ```ts
 * const provider: EmailConfig = { id: "magic", name: "Email", type: "email", maxAge: 600, sendVerificationRequest: ({ identifier, url }) => mail(identifier, url) }
 * ```
 * @module
 */
import type { Translator } from "../core/i18n/translator.js"
import { parseEmailAddress } from "../core/email-address.js"
import type { customFetch } from "../core/symbols.js"
import type { Awaitable, CommonProviderOptions, Theme } from "../base-types.js"

export { parseEmailAddress, type EmailAddressProblem, type ParsedEmailAddress } from "../core/email-address.js"

/** What `sendVerificationRequest` gets: who to write to, the link, and the context. */
export interface SendVerificationRequestParams {
  /** The address to write to, exactly: the identifier stored with the token, in {@link parseEmailAddress}'s canonical form. */
  identifier: string
  /** The sign-in link: `<origin><basePath>/callback/<id>?callbackUrl=…&token=…&email=…`. */
  url: string
  /** The token in the link (stored only hashed). */
  token: string
  /**
   * When the link expires; with `code: "instead"`, when the code does.
   */
  expires: Date
  /**
   * The 6-digit code to mail, when the provider's `code` option is on (valid 10 minutes, typed in
   * the browser that asked for it). With `code: "instead"` no link is made: `url` is then the
   * page where the code is typed and `token` is empty.
   * @default undefined (no code: `code: false`)
   */
  code?: string
  provider: EmailConfig
  theme: Theme
  request: Request
  /**
   * The language of the request that asked for the email (see the `i18n` option): its BCP 47 tag.
   * @default "en" when the caller gives none
   */
  locale?: string
  /**
   * That language's messages and Intl formatting: the built-in email is written with it, and your
   * own can be (`translator.t("emailSignInTo", { host })`).
   * @default English when the caller gives none
   */
  translator?: Translator
}

/**
 * Whether the sign-in email carries a 6-digit code: `"instead"` of the link, `"beside"` it, or
 * not at all (`false`, the Auth.js wire). A code is typed in the browser that asked for it, so a
 * mail scanner that opens links signs nobody in, and a link opened on another device is not needed.
 *
 * @example
 * ```ts
 * const code: EmailCodeMode = "instead" // Nodemailer({ server, code })
 * ```
 */
export type EmailCodeMode = "instead" | "beside" | false

/** An email provider. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** Sends the link. Throwing ends the sign-in with an `EmailSignInError`. */
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>
  /**
   * Mail a 6-digit code `"instead"` of the link, or `"beside"` it: the sign-in then sends the
   * browser to a page where the code is typed (`/verify-request?provider=<id>&type=code`,
   * or `pages.verifyRequest` with the same query), the flow sealed in a cookie of that browser. The
   * code lives 10 minutes, is kept only as a keyed hash, dies after 5 wrong tries, and works once.
   * With `"beside"` the link works too (from any device), and whichever is used first ends the other.
   * @default false
   */
  code?: EmailCodeMode
  /** Seconds the link stays valid. Default 24 hours. */
  maxAge?: number
  /** The sender address. */
  from?: string
  /** API key of HTTP senders (Resend, SendGrid, Postmark); from `AUTH_<ID>_KEY`. */
  apiKey?: string
  /** SMTP server of nodemailer providers: a connection URL or nodemailer transport options. */
  server?: string | Record<string, unknown>
  /** Secret used to hash tokens instead of the configuration's. */
  secret?: string
  /** Make the token yourself (for example a short code). Default: 32 random bytes as hex. */
  generateVerificationToken?: () => Awaitable<string>
  /**
   * Normalise the address the user typed. Default: {@link defaultNormalizer}. Throw to refuse it.
   * The result must pass {@link parseEmailAddress} (the sign-in ends with `InvalidEmail` if not),
   * and is stored and mailed in its canonical form.
   */
  normalizeIdentifier?: (identifier: string) => string
  /** Replace `fetch` for HTTP senders (tests, proxies). */
  [customFetch]?: typeof fetch
}

/** What a user passes to a built-in email provider factory. */
export type EmailUserConfig = Partial<Omit<EmailConfig, "type">>

/**
 * The default address normaliser: Unicode NFKC, lowercase, trimmed; exactly one `@` with a
 * non-empty local part and domain; anything after a `,` in the domain dropped; `"`, whitespace,
 * control characters and the `@` lookalikes U+FF20 and U+FE6B refused; then the result must pass
 * {@link parseEmailAddress}, whose canonical form it returns (IDN domains as A-labels). Throws
 * `TypeError` with a message fit for the user (and `cause.problem` when the grammar refused it).
 *
 * @example
 * ```ts
 * defaultNormalizer(" Ada@Example.COM ") // "ada@example.com"
 * defaultNormalizer("ada@example.com,evil.test") // "ada@example.com"
 * defaultNormalizer("ada@bücher.example") // "ada@xn--bcher-kva.example"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc5321#section-4.1.2
 */
export function defaultNormalizer(input: string | undefined | null): string {
  if (!input) throw new TypeError("Missing email from request body.")
  // NFKC turns these lookalikes into "@": refuse them before normalising.
  if (/[\uFF20\uFE6B]/.test(input)) throw new TypeError("Invalid email address format.")
  const email = input.normalize("NFKC").toLowerCase().trim()
  if (email.includes('"') || /[\s\p{Cc}]/u.test(email)) throw new TypeError("Invalid email address format.")
  const parts = email.split("@")
  if (parts.length !== 2) throw new TypeError("Invalid email address format.")
  const [local, domainPart] = parts as [string, string]
  const domain = domainPart.split(",")[0]!
  if (!local || !domain) throw new TypeError("Invalid email address format.")
  const parsed = parseEmailAddress(`${local}@${domain}`)
  if (!parsed.ok) throw new TypeError("Invalid email address format.", { cause: { problem: parsed.problem } })
  return parsed.address
}
