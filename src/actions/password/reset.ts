/**
 * Forgotten passwords: POST `/forgot-password/<id>` mails a reset link or code (see
 * {@link passwordResetRequestMachine}); GET `/reset-password/<id>?token=…` shows the new-password
 * form (the pages), and POST `/reset-password/<id>` sets the new password (see
 * {@link passwordResetMachine}). Loaded when the first one arrives.
 *
 * @module
 */
import { CallbackRouteError } from "../../core/errors.js"
import { errorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { parseEmailAddress } from "../../core/email-address.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { runFlow, type FlowEffects } from "../../machines/run-flow.js"
import { passwordResetRequestMachine, type PendingResetCode, type ResetRequestReadEvent } from "../../machines/password-reset-request.js"
import { unmatchableEmailCodeHash } from "../../core/second-factor/email-code.js"
import type { Concealed } from "../../core/concealed.js"
import { mintEmailedCode } from "../emailed-code.js"
import { passwordResetMachine } from "../../machines/password-reset.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { rateLimitedError, requestLimiter } from "../rate-limit.js"
import { linkBindings, openPasswordLink, PASSWORD_LINK_MAX_AGE, sealPasswordLink } from "./link-token.js"
import { passwordRouteUrl, sendPasswordMail, signInPageUrl } from "./mails.js"
import { newPasswordEffects, resetCodePage } from "./new-password.js"
import { findPasswordAccount, passwordEmail } from "./store.js"
import { linkRefusals } from "./verify-email.js"
import type { AuthOptions } from "../../core/options.js"
import type { LinkEvent } from "../../machines/password-link.js"
import type { Cookie, CredentialsConfig } from "../../types.js"

// What an unknown address's dummy link is sealed over: the same work as a real one's, thrown away.
const dummyHash = "$scrypt$ln=17,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

// Whom an unknown address's stand-in flow names: no account has this id.
const unknownUserId = "00000000-0000-0000-0000-000000000000"

/**
 * A reset code for the account whose password hash is `hash`: the code to mail and what the flow
 * keeps (the keyed hash of the password hash, the code's hash, its expiry). Without a hash (an
 * unknown address), a stand-in of the same shape that no code satisfies.
 */
async function newResetCode(options: AuthOptions, hash?: string): Promise<{ code: Concealed<string>; pending: PendingResetCode }> {
  const { code, codeHash, expiresAt } = await mintEmailedCode(options.secret)
  if (hash === undefined) return { code, pending: { bound: unmatchableEmailCodeHash(), codeHash: unmatchableEmailCodeHash(), expiresAt } }
  const [bound] = await linkBindings(options.secret, hash)
  return { code, pending: { bound: bound!, codeHash, expiresAt } }
}

/** A reset link for the account, bound to its password hash: its URL and when it expires. */
async function resetLink(options: AuthOptions, provider: CredentialsConfig, user: { id: string; email: string }, hash: string): Promise<{ url: string; expires: Date }> {
  const [bound] = await linkBindings(options.secret, hash)
  const token = await sealPasswordLink(options.secret, "reset-password", { userId: user.id, email: user.email, bound: bound! })
  return { url: passwordRouteUrl(options, provider, "reset-password", { token }), expires: new Date(Date.now() + PASSWORD_LINK_MAX_AGE["reset-password"] * 1000) }
}

/**
 * Asks for a reset link for the address of the form (or JSON body): a known address with a
 * password is mailed `reset-password`; an unknown one is answered the same (the sign-in page with
 * `notice=reset-sent`, the same cookies, about the same time) and mailed nothing. An address that
 * is not one goes back to the form with `error=InvalidEmail`.
 *
 * @example
 * ```ts
 * // POST /auth/forgot-password/password (csrfToken, email) → 302 /auth/signin?notice=reset-sent
 * return passwordForgot(options, provider, cookies)
 * ```
 */
export async function passwordForgot(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const adapter = options.adapter!
  const body = options.request.body ?? {}
  const limiter = requestLimiter(options)
  const resetBy = provider.passwordAccounts?.resetBy ?? "link"
  const form = (query: Record<string, string>) => ({ redirect: passwordRouteUrl(options, provider, "forgot-password", query), cookies })
  const effects: FlowEffects<typeof passwordResetRequestMachine> = {
    ...csrfCheckEffect(options),
    readRequest: (): ResetRequestReadEvent => {
      const parsed = typeof body.email === "string" ? parseEmailAddress(passwordEmail(body.email)) : undefined
      return parsed?.ok ? { type: "request.read", email: parsed.address } : { type: "request.read", emailProblem: parsed && !parsed.ok ? parsed.problem : "missing" }
    },
    checkRateLimit: ({ rateLimitIdentity }) => limiter.count("password-reset", rateLimitIdentity),
    findAccount: async ({ email }) => {
      try {
        const found = await findPasswordAccount(adapter, provider.id, email!)
        return found && typeof found.user.email === "string" ? { type: "account.found", user: { id: found.user.id, email: found.user.email }, hash: found.hash } : { type: "account.unknown" }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    mailResetLink: async ({ user, hash }) => {
      if (resetBy === "link") return sendPasswordMail(options, provider, async () => ({ kind: "reset-password", to: user!.email, ...(await resetLink(options, provider, user!, hash!)) }))
      const { code, pending } = await newResetCode(options, hash)
      const sent = await sendPasswordMail(options, provider, async () => ({
        kind: "reset-password",
        to: user!.email,
        ...(resetBy === "both" ? await resetLink(options, provider, user!, hash!) : { url: resetCodePage(options, provider), expires: new Date(pending.expiresAt) }),
        code: code.reveal(),
      }))
      return { ...sent, code: pending }
    },
    sealDummyLink: async ({ email }) => {
      await resetLink(options, provider, { id: unknownUserId, email: email! }, dummyHash).catch(() => undefined)
      // With codes, the code page follows as for a known address, waiting for a code no one has.
      return { type: "dummyLink.sealed", ...(resetBy !== "link" && { code: (await newResetCode(options)).pending }) }
    },
  }
  const outcomes: FlowOutcomes<typeof passwordResetRequestMachine, Answer | Promise<Answer>> = {
    csrfRejected: () => form({ error: "MissingCSRF" }),
    requestRefused: () => form({ error: "InvalidEmail" }),
    rateLimited: (context) => errorAnswer(rateLimitedError("password-reset", context, limiter), cookies),
    // A known address, an unknown one, and a mail that failed end here alike.
    resetSent: () => ({ redirect: signInPageUrl(options, { notice: "reset-sent" }), cookies }),
    // A known address, an unknown one, and a mail that failed end here alike where resets are by code.
    codeSent: async ({ user, email, pendingCode }) =>
      (await import("./reset-code.js")).startPasswordResetCode(options, provider, cookies, { link: { userId: user?.id ?? unknownUserId, email: user?.email ?? email! }, ...pendingCode! }),
    requestFailed: ({ error }) => errorAnswer(new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), cookies),
  }
  const policy = { resetsByCode: resetBy !== "link" }
  return outcomeOf(await runFlow(passwordResetRequestMachine, effects, { inspect: options.config.inspect, input: { policy } }), outcomes)
}

/**
 * Sets the new password a reset link's form posts, then sends the user to the sign-in page with
 * `notice=password-reset`. A refused password goes back to the form (its link still good) with
 * `error=PasswordResetRefused&reason=…`; a link that cannot be used ends on the sign-in page with
 * `PasswordLinkInvalid` or `PasswordLinkExpired`.
 *
 * @example
 * ```ts
 * // POST /auth/reset-password/password (csrfToken, token, password) → 302 /auth/signin?notice=password-reset
 * return passwordReset(options, provider, cookies)
 * ```
 */
export async function passwordReset(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const settings = provider.passwordAccounts!
  const adapter = options.adapter!
  const body = options.request.body ?? {}
  const token = typeof body.token === "string" ? body.token : undefined
  const limiter = requestLimiter(options)
  let bound = ""
  const form = (query: Record<string, string>) => ({ redirect: passwordRouteUrl(options, provider, "reset-password", { ...(token !== undefined && { token }), ...query }), cookies })
  const effects: FlowEffects<typeof passwordResetMachine> = {
    ...csrfCheckEffect(options),
    openLink: async (): Promise<LinkEvent> => {
      const opened = await openPasswordLink(options.secret, "reset-password", token)
      if (!opened.ok) return { type: `link.${opened.reason}` }
      bound = opened.claims.bound
      return { type: "link.opened", link: { userId: opened.claims.userId, email: opened.claims.email } }
    },
    checkRateLimit: ({ link }) => limiter.count("password-reset", `reset:${link!.userId}`),
    ...newPasswordEffects(options, provider, body.password, () => bound),
  }
  const outcomes: FlowOutcomes<typeof passwordResetMachine, Answer> = {
    csrfRejected: () => form({ error: "MissingCSRF" }),
    ...linkRefusals(provider, "reset-password", cookies),
    rateLimited: (context) => errorAnswer(rateLimitedError("password-reset", context, limiter), cookies),
    resetRefused: ({ refusal }) => form({ error: "PasswordResetRefused", reason: refusal! }),
    passwordReset: () => ({ redirect: signInPageUrl(options, { notice: "password-reset" }), cookies }),
    resetFailed: ({ error }) => errorAnswer(new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), cookies),
  }
  const policy = { endsOtherSessions: settings.endOtherSessions !== false }
  return outcomeOf(await runFlow(passwordResetMachine, effects, { inspect: options.config.inspect, input: { policy } }), outcomes)
}
