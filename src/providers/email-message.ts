/**
 * The default sign-in email of the built-in email providers, and the small pieces they share:
 * the default sender address and the JSON POST of the HTTP senders (Resend, SendGrid, Postmark).
 * Use {@link signInMessage} to keep the default wording in your own `sendVerificationRequest`.
 *
 * @example
 * ```ts
 * import { signInMessage } from "authflow/providers/email-message"
 * const { subject, text, html } = signInMessage({ url, theme: { brandColor: "#0a7" } })
 * ```
 * @module
 */
import { parseEmailAddress } from "../core/email-address.js"
import { AuthError } from "../core/errors.js"
import { customFetch } from "../core/symbols.js"
import { englishWith } from "../core/i18n/english.js"
import { messages as emails } from "../core/i18n/english/emails.js"
import type { KeysOf } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import type { Theme } from "../types.js"
import type { EmailConfig, SendVerificationRequestParams } from "./email-config.js"

// The emails' English, when they are given no translator.
const english = englishWith(emails)

/** A message ready to send: subject line, plain-text body and HTML body. */
export interface EmailMessage {
  subject: string
  text: string
  html: string
}

const defaultBrandColor = "#346df1"
const defaultButtonText = "#fff"

/** Hex (`#abc`, `#aabbcc`, with alpha), a colour keyword, or `rgb()`/`hsl()` with plain numbers. */
const safeColor = /^(#[0-9a-f]{3,8}|[a-z]{3,30}|(rgb|rgba|hsl|hsla)\(\s*[0-9.,%\s/]+\))$/i

/** Escapes text for HTML element content and double-quoted attribute values. */
const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => entities[c]!)
}

/** A theme colour only when it cannot break out of a CSS declaration; else the default. */
function colorOr(value: string | undefined, fallback: string): string {
  const trimmed = value?.trim()
  return trimmed && safeColor.test(trimmed) ? trimmed : fallback
}

/** What {@link signInMessage} writes: the link, and the code when the provider mails one. */
export interface SignInMessageParams {
  /** The sign-in link (or, without one, the page where the code is typed: its host names the site). */
  url: string
  theme?: Theme
  /** The 6-digit code to show. @default none (a link only) */
  code?: string
  /** Whether the message carries the link (`false` with `code: "instead"`). @default true */
  link?: boolean
  /** The language to write in (`params.translator` of `sendVerificationRequest`). @default English */
  translator?: Translator<KeysOf<"emails">>
}

/**
 * The message of a provider's `sendVerificationRequest` parameters: the link, the code, or both,
 * as the provider's `code` option made them ({@link signInMessage}).
 *
 * @example
 * ```ts
 * async function sendVerificationRequest(params: SendVerificationRequestParams) {
 *   const { subject, text, html } = signInMessageOf(params)
 *   await mailer.send({ to: params.identifier, subject, text, html })
 * }
 * ```
 */
export function signInMessageOf({ url, theme, code, token, translator }: Pick<SendVerificationRequestParams, "url" | "theme" | "code" | "token" | "translator">): EmailMessage {
  return signInMessage({ url, theme, ...(code !== undefined && { code, link: token !== "" }), ...(translator && { translator }) })
}

/**
 * The default sign-in email for a link: subject `Sign in to <host>`, a text body
 * `Sign in to <host>\n<url>\n\n`, and an HTML body with a "Sign in" button in the theme's
 * `brandColor` (default `#346df1`) and `buttonText` colour (default `#fff`). In the HTML the
 * dots of the host are followed by a zero-width space, so mail clients do not turn the host into
 * a link of their own. Everything taken from the URL or the theme is escaped; a colour that is
 * not a plain CSS colour is replaced by the default. With a `code`, the body shows it (`Your
 * sign-in code: 123456`, valid 10 minutes) above the button, or instead of it with `link: false`.
 * With a `translator`, every line is in its language and `<html>` carries its `lang` (and
 * `dir="rtl"` for Arabic and Hebrew); the English message is the default.
 *
 * @example
 * ```ts
 * signInMessage({ url: "https://app.example/auth/callback/email?token=…" }).subject // "Sign in to app.example"
 * ```
 * @see https://html.spec.whatwg.org/multipage/syntax.html#escapingString
 */
export function signInMessage({ url, theme = {}, code, link = true, translator = english }: SignInMessageParams): EmailMessage {
  const { t } = translator
  const { host } = new URL(url)
  const brand = colorOr(theme.brandColor, defaultBrandColor)
  const buttonText = colorOr(theme.buttonText, defaultButtonText)
  const shownHost = escapeHtml(host).replace(/\./g, ".&#8203;")
  const href = escapeHtml(url)
  const font = "font-family: Helvetica, Arial, sans-serif;"
  const shownCode = code === undefined ? "" : escapeHtml(code)
  const codeRow = code === undefined ? "" : `<tr><td align="center" style="padding: 16px 24px 4px; ${font} font-size: 15px; line-height: 22px; color: #374151;">${escapeHtml(t("emailCodeValid", { duration: translator.duration(10, "minute") }))}<br><strong style="display: inline-block; margin-top: 8px; font-size: 30px; letter-spacing: 6px; color: #111827;">${shownCode}</strong></td></tr>\n`
  const button = `<tr><td align="center" style="padding: 20px 24px;">
<table role="presentation" cellspacing="0" cellpadding="0" border="0"><tr>
<td align="center" bgcolor="${brand}" style="border-radius: 6px; background: ${brand};"><a href="${href}" target="_blank" rel="noopener" style="display: inline-block; padding: 12px 28px; border: 1px solid ${brand}; border-radius: 6px; ${font} font-size: 16px; font-weight: bold; color: ${buttonText}; text-decoration: none;">${escapeHtml(t("signInButton"))}</a></td>
</tr></table>
</td></tr>
`
  const html = `<!doctype html>
<html lang="${escapeHtml(translator.locale)}"${translator.dir === "rtl" ? ' dir="rtl"' : ""}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t("signInHeading"))}</title>
</head>
<body style="margin: 0; padding: 0; background: #f3f4f6;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background: #f3f4f6;">
<tr><td align="center" style="padding: 32px 12px;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width: 520px; background: #ffffff; border-radius: 10px;">
<tr><td align="center" style="padding: 36px 24px 8px; ${font} font-size: 22px; line-height: 30px; color: #111827;">${translator.html("emailSignInTo", { host: `<strong>${shownHost}</strong>` })}</td></tr>
${codeRow}${link ? button : ""}<tr><td align="center" style="padding: 4px 24px 36px; ${font} font-size: 14px; line-height: 22px; color: #6b7280;">${escapeHtml(t("emailIgnore"))}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`
  const codeText = code === undefined ? "" : `${t("emailCodeValid", { duration: translator.duration(10, "minute") })} ${code}\n`
  const signInTo = t("emailSignInTo", { host })
  return { subject: signInTo, text: `${signInTo}\n${codeText}${link ? `${url}\n` : ""}\n`, html }
}

/** What {@link secondFactorCodeMessage} writes. */
export interface SecondFactorCodeMessageParams {
  /** The 6-digit code. */
  code: string
  /** When the code expires: the message states the minutes left. */
  expires: Date
  /** A URL of the site (the request's): its host names the site. */
  url: string
  /** The language to write in. @default English */
  translator?: Translator<KeysOf<"emails">>
  /** The time the minutes are counted from. @default now */
  now?: Date
}

/**
 * The email of a second-factor code (`secondFactor.sendCode` is given it as `message`): subject
 * `Your verification code for <host>`, the code and how long it is valid, in the request's
 * language; the HTML escaped as {@link signInMessage}'s is.
 *
 * @example
 * ```ts
 * secondFactorCodeMessage({ code: "123456", expires: new Date(Date.now() + 600_000), url: "https://app.example/auth" }).text
 * // "Your verification code, valid 10 minutes: 123456\n\nIf you did not request this email you can safely ignore it.\n"
 * ```
 */
export function secondFactorCodeMessage({ code, expires, url, translator = english, now = new Date() }: SecondFactorCodeMessageParams): EmailMessage {
  const { t } = translator
  const { host } = new URL(url)
  const minutes = Math.max(1, Math.ceil((expires.getTime() - now.getTime()) / 60_000))
  const valid = t("emailSecondFactorCode", { duration: translator.duration(minutes, "minute") })
  const font = "font-family: Helvetica, Arial, sans-serif;"
  const html = `<!doctype html>
<html lang="${escapeHtml(translator.locale)}"${translator.dir === "rtl" ? ' dir="rtl"' : ""}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t("emailSecondFactorSubject", { host }))}</title>
</head>
<body style="margin: 0; padding: 0; background: #f3f4f6;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background: #f3f4f6;">
<tr><td align="center" style="padding: 32px 12px;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width: 520px; background: #ffffff; border-radius: 10px;">
<tr><td align="center" style="padding: 36px 24px 4px; ${font} font-size: 15px; line-height: 22px; color: #374151;">${escapeHtml(valid)}<br><strong style="display: inline-block; margin-top: 8px; font-size: 30px; letter-spacing: 6px; color: #111827;" dir="ltr">${escapeHtml(code)}</strong></td></tr>
<tr><td align="center" style="padding: 16px 24px 36px; ${font} font-size: 14px; line-height: 22px; color: #6b7280;">${escapeHtml(t("emailIgnore"))}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`
  return { subject: t("emailSecondFactorSubject", { host }), text: `${valid} ${code}\n\n${t("emailIgnore")}\n`, html }
}

/**
 * The sender of a provider: its `from`, or else `no-reply@<host of the link>`, an address on the
 * site's own domain (your mail service must be allowed to send for it).
 *
 * @example
 * ```ts
 * senderOf({}, "https://app.example/auth/callback/email?…") // "no-reply@app.example"
 * ```
 */
export function senderOf(provider: Pick<EmailConfig, "from">, url: string): string {
  return provider.from || `no-reply@${new URL(url).hostname}`
}

/**
 * The recipient of a sign-in email: `identifier` itself, once it is known to be a canonical address
 * of {@link parseEmailAddress} (as the engine's identifiers always are), so no mailer can read a
 * display name, a group or a second recipient into it. Throws an `Error` otherwise, for a
 * `sendVerificationRequest` that passes something else.
 *
 * @example
 * ```ts
 * recipientOf("ada@xn--bcher-kva.example") // "ada@xn--bcher-kva.example"
 * recipientOf("x<evil@evil.test>") // throws
 * ```
 */
export function recipientOf(identifier: string): string {
  const parsed = parseEmailAddress(identifier)
  if (parsed.ok && parsed.address === identifier) return identifier
  // The address stays out of the message (it may be logged); the cause says what is wrong with it.
  throw new Error("Refusing to send a sign-in email: the recipient is not a canonical email address", {
    cause: { problem: parsed.ok ? "not-canonical" : parsed.problem },
  })
}

/**
 * The API key of an HTTP sender, or an `AuthError` naming the variable that would provide it.
 *
 * @example
 * ```ts
 * const key = apiKeyOf(provider, "Resend") // throws without AUTH_RESEND_KEY or `apiKey`
 * ```
 */
export function apiKeyOf(provider: EmailConfig, vendor: string): string {
  if (provider.apiKey) return provider.apiKey
  const variable = `AUTH_${provider.id.toUpperCase().replace(/-/g, "_")}_KEY`
  throw new AuthError(`The ${vendor} email provider "${provider.id}" has no API key: set \`apiKey\` or ${variable}`)
}

/**
 * POSTs a JSON body to a mail service's API through the provider's `[customFetch]` (or the global
 * `fetch`). Any answer outside 2xx throws an `Error` carrying the status and the service's own
 * error text.
 *
 * @example
 * ```ts
 * await postJson(provider, "Resend", "https://api.resend.com/emails", { Authorization: `Bearer ${key}` }, message)
 * ```
 * @see https://fetch.spec.whatwg.org/#dom-global-fetch
 */
export async function postJson(
  provider: EmailConfig,
  vendor: string,
  endpoint: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<void> {
  const fetchImpl = provider[customFetch] ?? fetch
  const response = await fetchImpl(endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
    body: JSON.stringify(body),
  })
  if (response.ok) {
    await response.body?.cancel().catch(() => {})
    return
  }
  const detail = (await response.text().catch(() => "")).trim().slice(0, 2000)
  throw new Error(`${vendor} refused the sign-in email (HTTP ${response.status})${detail ? `: ${detail}` : ""}`, {
    cause: { status: response.status, body: detail },
  })
}
