/**
 * Changing the password of a signed-in user: POST `/change-password/<id>` with the current
 * password and the new one (see {@link passwordChangeMachine}); GET shows the form (the pages).
 * Loaded when the first one arrives.
 *
 * @module
 */
import { CallbackRouteError } from "../../core/errors.js"
import { errorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { dummyVerify, hashPassword, verifyPassword } from "../../core/password/index.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { runFlowWithCookies, type FlowEffects } from "../../machines/run-flow.js"
import { passwordChangeMachine } from "../../machines/password-change.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { rateLimitedError, requestLimiter } from "../rate-limit.js"
import { passwordRouteUrl, sendPasswordMail, signInPageUrl } from "./mails.js"
import { readNewPassword } from "./new-password.js"
import { endOtherUserSessions, findSessionUser } from "./sessions.js"
import { replacePasswordHash } from "./store.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, CredentialsConfig } from "../../types.js"

/**
 * Changes the signed-in user's password after checking the current one, ends their other sessions
 * (`endOtherSessions`; this one is issued again), mails `password-changed`, and goes back to the
 * form with `notice=password-changed`. Refusals go back to the form with `error=` (`MissingCSRF`,
 * `CredentialsSignin`, `NoPassword`, `PasswordChangeRefused` with `reason=`); nobody signed in goes
 * to the sign-in page and back.
 *
 * @example
 * ```ts
 * // POST /auth/change-password/password (csrfToken, currentPassword, newPassword) → 302 /auth/change-password/password?notice=password-changed
 * return passwordChange(options, provider, cookies)
 * ```
 */
export async function passwordChange(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const settings = provider.passwordAccounts!
  const hashing = settings.hashing ?? {}
  const adapter = options.adapter!
  const body = options.request.body ?? {}
  const current = typeof body.currentPassword === "string" ? body.currentPassword : ""
  const limiter = requestLimiter(options)
  let hash = ""
  // After the other sessions ended, this one's cookies, issued again, go with the answer.
  const form = (query: Record<string, string>, minted: readonly Cookie[] = []) => ({ redirect: passwordRouteUrl(options, provider, "change-password", query), cookies: [...cookies, ...minted] })
  const effects: FlowEffects<typeof passwordChangeMachine> = {
    ...csrfCheckEffect(options),
    findSessionUser: () => findSessionUser(options),
    checkRateLimit: ({ rateLimitIdentity }) => limiter.count("credentials", rateLimitIdentity),
    checkCurrentPassword: async ({ user }) => {
      try {
        const account = await adapter.getAccount!(user!.id, provider.id)
        if (typeof account?.refresh_token !== "string" || account.refresh_token === "") {
          await dummyVerify(current, hashing)
          return { type: "account.none" }
        }
        hash = account.refresh_token
        const legacy = settings.verifyLegacyHash
        const checked = await verifyPassword(current, hash, { ...hashing, ...(legacy && { verify: async (typed: string, stored: string) => (await legacy(typed, stored)) === true }) })
        return { type: "password.checked", valid: checked.valid }
      } catch (error) {
        return { type: "check.failed", error }
      }
    },
    refundAttempt: async () => {
      await limiter.refund()
      return { type: "attempt.refunded" }
    },
    readNewPassword: () => readNewPassword(settings, body.newPassword),
    writePassword: async ({ user }) => {
      try {
        const written = await replacePasswordHash(adapter, provider.id, user!.id, hash, await hashPassword(body.newPassword as string, hashing))
        return written ? { type: "password.written" } : { type: "password.raced" }
      } catch (error) {
        return { type: "write.failed", error }
      }
    },
    endOtherSessions: async ({ user }) => {
      const ended = await endOtherUserSessions(options, user!.id)
      if (ended.type === "sessions.failed") options.logger.error(asError(ended.error))
      return ended
    },
    notifyPasswordChanged: ({ user }) => sendPasswordMail(options, provider, { kind: "password-changed", to: user!.email }),
  }
  const outcomes: FlowOutcomes<typeof passwordChangeMachine, Answer> = {
    csrfRejected: () => form({ error: "MissingCSRF" }),
    signInRequired: () => ({ redirect: signInPageUrl(options, { callbackUrl: passwordRouteUrl(options, provider, "change-password") }), cookies }),
    rateLimited: (context) => errorAnswer(rateLimitedError("credentials", context, limiter), cookies),
    passwordRejected: () => form({ error: "CredentialsSignin" }),
    noPasswordAccount: () => form({ error: "NoPassword" }),
    changeRefused: ({ refusal }) => form({ error: "PasswordChangeRefused", reason: refusal! }),
    passwordChanged: (_, minted) => form({ notice: "password-changed" }, minted),
    changeFailed: ({ error }) => errorAnswer(new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), cookies),
  }
  const policy = { endsOtherSessions: settings.endOtherSessions !== false, mailsNotice: settings.sendMail !== undefined }
  return outcomeOf(await runFlowWithCookies(passwordChangeMachine, effects, { inspect: options.config.inspect, input: { policy } }), outcomes)
}
