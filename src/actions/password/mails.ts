/**
 * The Password provider's mails and the links they carry: the URL of each route a mail points at,
 * the sealed token bound to the state it may change, and the send itself (through the provider's
 * `sendMail`), whose failure is reported, never thrown.
 *
 * @module
 */
import { asError } from "../../core/as-error.js"
import { EmailSignInError } from "../../core/errors.js"
import { linkBindings, PASSWORD_LINK_MAX_AGE, sealPasswordLink, type PasswordLinkPurpose } from "./link-token.js"
import type { AuthOptions } from "../../core/options.js"
import { unmatchableEmailCodeHash } from "../../core/second-factor/email-code.js"
import type { Concealed } from "../../core/concealed.js"
import type { PendingCode } from "../../machines/password-sign-in.js"
import { emailCodePage } from "../email-code-cookies.js"
import { mintEmailedCode } from "../emailed-code.js"
import type { CredentialsConfig, PasswordMail } from "../../types.js"

/**
 * The URL of a route of the Password provider under `basePath`: `<baseUrl>/<route>/<id>`, with a query.
 *
 * @example
 * ```ts
 * passwordRouteUrl(options, provider, "verify-email", { token }) // "https://app.test/auth/verify-email/password?token=…"
 * ```
 */
export function passwordRouteUrl(options: AuthOptions, provider: CredentialsConfig, route: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString()
  return `${options.baseUrl}/${route}/${encodeURIComponent(provider.id)}${search ? `?${search}` : ""}`
}

/**
 * The sign-in page (`pages.signIn`, or the built-in one) with a query (`notice`, `error`).
 *
 * @example
 * ```ts
 * signInPageUrl(options, { notice: "email-verified" }) // "https://app.test/auth/signin?notice=email-verified"
 * ```
 */
export function signInPageUrl(options: AuthOptions, query: Record<string, string> = {}): string {
  const page = options.pages.signIn ?? `${options.baseUrl}/signin`
  const search = new URLSearchParams(query).toString()
  return search ? `${page}${page.includes("?") ? "&" : "?"}${search}` : page
}

/**
 * The state a link of an address is bound to: the account's id and its address, so that the link
 * dies once the address changes.
 *
 * @example
 * ```ts
 * addressBinding("u1", "ada@example.test") // "u1\nada@example.test"
 * ```
 */
export function addressBinding(userId: string, email: string): string {
  return `${userId}\n${email}`
}

/**
 * Whether a link's `bound` still holds for the account's current address (under any of the secrets).
 *
 * @example
 * ```ts
 * await addressStillBound(options.secret, link.bound, user.id, user.email) // false once the address changed
 * ```
 */
export async function addressStillBound(secret: string | string[], bound: string, userId: string, email: string | null | undefined): Promise<boolean> {
  if (typeof email !== "string") return false
  return (await linkBindings(secret, addressBinding(userId, email))).includes(bound)
}

/**
 * A link of `purpose` for the account at `email`, bound to that address: its URL under `route` and
 * when it expires.
 *
 * @example
 * ```ts
 * const { url, expires } = await addressLink(options, provider, "verify-email", "verify-email", { userId: user.id, email: user.email })
 * ```
 */
export async function addressLink(
  options: AuthOptions,
  provider: CredentialsConfig,
  purpose: PasswordLinkPurpose,
  route: string,
  claims: { userId: string; email: string; newEmail?: string },
): Promise<{ url: string; expires: Date }> {
  const [bound] = await linkBindings(options.secret, addressBinding(claims.userId, claims.email))
  const token = await sealPasswordLink(options.secret, purpose, { ...claims, bound: bound! })
  return { url: passwordRouteUrl(options, provider, route, { token }), expires: new Date(Date.now() + PASSWORD_LINK_MAX_AGE[purpose] * 1000) }
}

/**
 * Sends a mail through the provider's `sendMail` and reports it as the machines' `mail.sent` or
 * `mail.failed` (the failure logged, with the mail's kind; never the link).
 *
 * @example
 * ```ts
 * return sendPasswordMail(options, provider, { kind: "password-changed", to: user.email })
 * ```
 */
export async function sendPasswordMail(options: AuthOptions, provider: CredentialsConfig, mail: PasswordMail | (() => Promise<PasswordMail>)): Promise<{ type: "mail.sent" } | { type: "mail.failed"; error: unknown }> {
  let kind: string | undefined
  try {
    const sendMail = provider.passwordAccounts?.sendMail
    if (!sendMail) throw new TypeError(`The Password provider "${provider.id}" has no sendMail`)
    const made = typeof mail === "function" ? await mail() : mail
    kind = made.kind
    await sendMail(made)
    return { type: "mail.sent" }
  } catch (error) {
    const failure = new EmailSignInError(`The Password provider "${provider.id}" could not send a mail${kind ? ` (${kind})` : ""}`, { cause: { err: asError(error), provider: provider.id, ...(kind && { kind }) } })
    options.logger.error(failure)
    return { type: "mail.failed", error: failure }
  }
}

/**
 * A verification code for the account `account` (its id and address): the code to mail and what
 * the flow keeps (the account's binding to the address, the code's hash, its expiry). Without an
 * account (a sign-up with a taken address), a stand-in of the same shape that no code and no
 * account satisfy.
 *
 * @example
 * ```ts
 * const { code, pending } = await newPasswordCode(options, { userId: user.id, email: user.email })
 * ```
 */
export async function newPasswordCode(options: AuthOptions, account?: { userId: string; email: string }): Promise<{ code: Concealed<string>; pending: PendingCode }> {
  const { code, codeHash, expiresAt } = await mintEmailedCode(options.secret)
  if (!account) return { code, pending: { bound: unmatchableEmailCodeHash(), codeHash: unmatchableEmailCodeHash(), expiresAt } }
  const [bound] = await linkBindings(options.secret, addressBinding(account.userId, account.email))
  return { code, pending: { bound: bound!, codeHash, expiresAt } }
}

/**
 * Mails the verification of `account`'s address, as the provider's `verifyBy` says: the link, a
 * 6-digit code (the mail's `url` is then the code page), or both; reported as `mail.sent` or
 * `mail.failed`, with the code's hash for the flow that waits for it.
 *
 * @example
 * ```ts
 * mailVerification: ({ user }) => mailVerification(options, provider, { userId: user.id, email: user.email })
 * ```
 */
export async function mailVerification(options: AuthOptions, provider: CredentialsConfig, account: { userId: string; email: string }): Promise<{ type: "mail.sent"; code?: PendingCode } | { type: "mail.failed"; error: unknown; code?: PendingCode }> {
  const verifyBy = provider.passwordAccounts?.verifyBy ?? "link"
  if (verifyBy === "link") return sendPasswordMail(options, provider, async () => ({ kind: "verify-email", to: account.email, ...(await addressLink(options, provider, "verify-email", "verify-email", account)) }))
  const { code, pending } = await newPasswordCode(options, account)
  const sent = await sendPasswordMail(options, provider, async () => ({
    kind: "verify-email",
    to: account.email,
    ...(verifyBy === "both"
      ? await addressLink(options, provider, "verify-email", "verify-email", account)
      : { url: emailCodePage(options.baseUrl, provider.id), expires: new Date(pending.expiresAt) }),
    code: code.reveal(),
  }))
  return { ...sent, code: pending }
}
