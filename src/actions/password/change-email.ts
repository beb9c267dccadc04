/**
 * Changing a Password account's address: POST `/change-email/<id>` (signed in, with the current
 * password) mails a confirmation link to the new address (see {@link passwordChangeEmailMachine});
 * GET `/confirm-email/<id>?token=…` makes the change (see {@link passwordConfirmEmailMachine}).
 * Loaded when the first one arrives.
 *
 * @module
 */
import { CallbackRouteError, EmailChangeConflict } from "../../core/errors.js"
import { errorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { parseEmailAddress } from "../../core/email-address.js"
import { dummyVerify, verifyPassword } from "../../core/password/index.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { runFlow, type FlowEffects } from "../../machines/run-flow.js"
import { passwordChangeEmailMachine, type ChangeEmailReadEvent } from "../../machines/password-change-email.js"
import { passwordConfirmEmailMachine } from "../../machines/password-confirm-email.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { rateLimitedError, requestLimiter } from "../rate-limit.js"
import { addressLink, addressStillBound, passwordRouteUrl, sendPasswordMail, signInPageUrl } from "./mails.js"
import { passwordEmail } from "./store.js"
import { findSessionUser } from "./sessions.js"
import { linkOpener, linkRefusals } from "./verify-email.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, CredentialsConfig } from "../../types.js"

/** What the change form says of the new address: its canonical form, or what is wrong with it. */
function readChange(body: Record<string, unknown>): ChangeEmailReadEvent {
  const parsed = typeof body.newEmail === "string" ? parseEmailAddress(passwordEmail(body.newEmail)) : undefined
  return parsed?.ok ? { type: "change.read", newEmail: parsed.address } : { type: "change.read", emailProblem: parsed && !parsed.ok ? parsed.problem : "missing" }
}

/**
 * Asks to move the signed-in user's Password account to `newEmail`, after checking `password`: the
 * new address is mailed a link that makes the change (a day, void once the address changed). A
 * taken address is answered the same way (its owner is mailed a notice instead). The answer goes
 * back to the change page with `notice=change-requested`, or with `error=` (`MissingCSRF`,
 * `InvalidEmail`, `SameEmail`, `CredentialsSignin`, `NoPassword`, `EmailSignin`); nobody signed
 * in goes to the sign-in page.
 *
 * @example
 * ```ts
 * // POST /auth/change-email/password (csrfToken, newEmail, password) → 302 /auth/change-email/password?notice=change-requested
 * return passwordChangeEmail(options, provider, cookies)
 * ```
 */
export async function passwordChangeEmail(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const settings = provider.passwordAccounts!
  const adapter = options.adapter!
  const body = options.request.body ?? {}
  const password = typeof body.password === "string" ? body.password : ""
  const limiter = requestLimiter(options)
  const page = (query: Record<string, string>) => ({ redirect: passwordRouteUrl(options, provider, "change-email", query), cookies })
  const effects: FlowEffects<typeof passwordChangeEmailMachine> = {
    ...csrfCheckEffect(options),
    findSessionUser: () => findSessionUser(options),
    checkRateLimit: ({ rateLimitIdentity }) => limiter.count("credentials", rateLimitIdentity),
    readChange: () => readChange(body),
    checkPassword: async ({ user }) => {
      try {
        const account = await adapter.getAccount!(user!.id, provider.id)
        const hash = typeof account?.refresh_token === "string" && account.refresh_token !== "" ? account.refresh_token : undefined
        if (hash === undefined) {
          await dummyVerify(password, settings.hashing ?? {})
          return { type: "account.none" }
        }
        const legacy = settings.verifyLegacyHash
        const checked = await verifyPassword(password, hash, { ...settings.hashing, ...(legacy && { verify: async (typed: string, stored: string) => (await legacy(typed, stored)) === true }) })
        return { type: "password.checked", valid: checked.valid }
      } catch (error) {
        return { type: "check.failed", error }
      }
    },
    findNewEmail: async ({ newEmail }) => {
      try {
        return (await adapter.getUserByEmail!(newEmail!)) ? { type: "newEmail.taken" } : { type: "newEmail.free" }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    mailConfirmation: ({ user, newEmail }) =>
      sendPasswordMail(options, provider, async () => ({ kind: "change-email", to: newEmail!, from: user!.email, ...(await addressLink(options, provider, "change-email", "confirm-email", { userId: user!.id, email: user!.email, newEmail: newEmail! })) })),
    notifyOwner: ({ newEmail }) =>
      sendPasswordMail(options, provider, { kind: "email-taken", to: newEmail!, signInUrl: signInPageUrl(options), resetUrl: passwordRouteUrl(options, provider, "forgot-password") }),
  }
  const outcomes: FlowOutcomes<typeof passwordChangeEmailMachine, Answer> = {
    csrfRejected: () => page({ error: "MissingCSRF" }),
    rateLimited: (context) => errorAnswer(rateLimitedError("credentials", context, limiter), cookies),
    signInRequired: () => ({ redirect: signInPageUrl(options, { callbackUrl: passwordRouteUrl(options, provider, "change-email") }), cookies }),
    changeRefused: ({ refusal }) => page({ error: refusal === "same-email" ? "SameEmail" : "InvalidEmail" }),
    passwordRejected: () => page({ error: "CredentialsSignin" }),
    noPasswordAccount: () => page({ error: "NoPassword" }),
    changeRequested: () => page({ notice: "change-requested" }),
    mailFailed: () => page({ error: "EmailSignin" }),
    changeFailed: ({ error }) => errorAnswer(new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), cookies),
  }
  return outcomeOf(await runFlow(passwordChangeEmailMachine, effects, { inspect: options.config.inspect }), outcomes)
}

/**
 * Makes the email change a link confirms, tells the old address, and sends the user to the sign-in
 * page with `notice=email-changed`. With JWT sessions, a session issued before the change carries
 * the old address until it is issued again (sign in again, or `update()`); database sessions read
 * the new one at once.
 *
 * @example
 * ```ts
 * // GET /auth/confirm-email/password?token=… → 302 /auth/signin?notice=email-changed
 * return passwordConfirmEmail(options, provider, cookies)
 * ```
 */
export async function passwordConfirmEmail(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const adapter = options.adapter!
  const opener = linkOpener(options, "change-email")
  const effects: FlowEffects<typeof passwordConfirmEmailMachine> = {
    // A change link names the new address: one that does not was not sealed for this.
    openLink: async () => {
      const opened = await opener.openLink()
      return opened.type === "link.opened" && opened.link.newEmail === undefined ? { type: "link.invalid" } : opened
    },
    findLinkedUser: async ({ link }) => {
      try {
        const user = await adapter.getUser!(link!.userId)
        if (!user) return { type: "user.missing" }
        return { type: "user.found", bound: await addressStillBound(options.secret, opener.bound(), user.id, user.email), verified: user.emailVerified != null }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    findNewEmail: async ({ link }) => {
      try {
        return (await adapter.getUserByEmail!(link!.newEmail!)) ? { type: "newEmail.taken" } : { type: "newEmail.free" }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    changeEmail: async ({ link }) => {
      try {
        await adapter.updateUser!({ id: link!.userId, email: link!.newEmail!, emailVerified: new Date() })
        return { type: "email.changed" }
      } catch (error) {
        return { type: "update.failed", error }
      }
    },
    notifyOldAddress: ({ link }) => sendPasswordMail(options, provider, { kind: "email-changed", to: link!.email, newEmail: link!.newEmail! }),
  }
  const outcomes: FlowOutcomes<typeof passwordConfirmEmailMachine, Answer> = {
    ...linkRefusals(provider, "change-email", cookies),
    newEmailTaken: () => errorAnswer(new EmailChangeConflict("The new address has become another account's since the link was mailed", { cause: { provider: provider.id } }), cookies),
    emailChanged: () => ({ redirect: signInPageUrl(options, { notice: "email-changed" }), cookies }),
    changeFailed: ({ error }) => errorAnswer(new CallbackRouteError(asError(error), { cause: { provider: provider.id } }), cookies),
  }
  return outcomeOf(await runFlow(passwordConfirmEmailMachine, effects, { inspect: options.config.inspect }), outcomes)
}
