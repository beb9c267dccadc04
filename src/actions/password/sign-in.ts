/**
 * POST `/callback/password`: a sign-in with an email and a password, through the password sign-in
 * machine (see {@link passwordSignInMachine}). Loaded when the first one arrives.
 *
 * @module
 */
import { AuthError, CallbackRouteError, CredentialsSignin, MissingCSRF } from "../../core/errors.js"
import { errorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { dummyVerify, hashPassword, verifyPassword } from "../../core/password/index.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { runFlowWithCookies, type FlowEffects } from "../../machines/run-flow.js"
import { passwordSignInMachine, type PasswordSignInContext } from "../../machines/password-sign-in.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { signInTailPolicy, type SignInOutcome } from "../issue-session.js"
import { rateLimitedError, readCredentials, requestLimiter } from "../rate-limit.js"
import { secondFactorOutcomes } from "../second-factor/tail.js"
import { sessionEffects } from "../session-effects.js"
import { askSignIn, resolveRedirect } from "../sign-in-callback.js"
import { findPasswordAccount, replacePasswordHash } from "./store.js"
import { mailVerification } from "./mails.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, CredentialsConfig, User } from "../../types.js"

/** The user found, refused by `verification: "required"` until their email is verified. */
export class EmailUnverified extends CredentialsSignin {
  override code = "email_unverified"
}

/**
 * Signs a user in with the email and password of the form (or JSON body).
 *
 * @example
 * ```ts
 * // POST /auth/callback/password  (csrfToken, email, password) → 302 to the callback URL
 * return passwordSignIn(options, provider, cookies)
 * ```
 */
export async function passwordSignIn(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const settings = provider.passwordAccounts!
  const hashing = settings.hashing ?? {}
  const adapter = options.adapter!
  const body = options.request.body ?? {}
  const email = typeof body.email === "string" ? body.email : ""
  const password = typeof body.password === "string" ? body.password : ""
  const limiter = requestLimiter(options)
  const account = (user: User) => ({ providerAccountId: user.id!, type: "credentials" as const, provider: provider.id })
  const signedIn = (user: User): SignInOutcome => ({ user, account: account(user) })
  const effects: FlowEffects<typeof passwordSignInMachine> = {
    ...csrfCheckEffect(options),
    readCredentials: () => readCredentials(options, provider, body),
    checkRateLimit: ({ rateLimitIdentity }) => limiter.count("credentials", rateLimitIdentity),
    findAccount: async () => {
      try {
        const found = email === "" ? undefined : await findPasswordAccount(adapter, provider.id, email)
        return found ? { type: "account.found", user: found.user, hash: found.hash, emailVerified: found.user.emailVerified != null } : { type: "account.unknown" }
      } catch (error) {
        return { type: "account.failed", error }
      }
    },
    checkPassword: async ({ hash }) => {
      const legacy = settings.verifyLegacyHash
      const checked = await verifyPassword(password, hash!, { ...hashing, ...(legacy && { verify: async (typed: string, stored: string) => (await legacy(typed, stored)) === true }) })
      return { type: "password.checked", valid: checked.valid, needsRehash: checked.needsRehash }
    },
    checkDummyPassword: async () => {
      await dummyVerify(password, hashing)
      return { type: "dummyPassword.checked" }
    },
    rehashPassword: async ({ user, hash }) => {
      try {
        // A change since the hash was read (a reset) wins: then this one is not stored.
        await replacePasswordHash(adapter, provider.id, user!.id!, hash!, await hashPassword(password, hashing))
        return { type: "password.rehashed" }
      } catch (error) {
        options.logger.error(asError(error))
        return { type: "rehash.failed", error }
      }
    },
    mailCode: ({ user }) => mailVerification(options, provider, { userId: user!.id!, email: user!.email! }),
    refundAttempt: async () => {
      await limiter.refund()
      return { type: "attempt.refunded" }
    },
    askSignIn: async ({ user }) => askSignIn(options, { user: user!, account: account(user!), credentials: { email } }),
    resolveRedirect: ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect!),
    ...sessionEffects(options, ({ user }: PasswordSignInContext) => signedIn(user!)),
  }
  const failed = ({ error }: PasswordSignInContext) => errorAnswer(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: provider.id } }))
  const outcomes: FlowOutcomes<typeof passwordSignInMachine, Answer | Promise<Answer>> = {
    signedIn: (_, minted) => ({ redirect: options.callbackUrl, cookies: [...cookies, ...minted] }),
    redirected: ({ redirectTo }) => ({ redirect: redirectTo!, cookies }),
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action callback")),
    credentialsMalformed: ({ nonStringFields }) =>
      errorAnswer(new CredentialsSignin(`Credentials field(s) ${nonStringFields!.join(", ")} of provider "${provider.id}" must be strings`, { cause: { provider: provider.id, fields: nonStringFields } })),
    credentialsRejected: () => errorAnswer(new CredentialsSignin()),
    // A fresh code is on its way to the unverified address: this browser types it.
    codeSent: async ({ user, pendingCode }) =>
      (await import("./verify-code.js")).startPasswordCode(options, provider, cookies, { email: user!.email!, ...pendingCode!, callbackUrl: options.callbackUrl }),
    emailUnverified: () => errorAnswer(new EmailUnverified("The email address of this account is not verified yet", { cause: { provider: provider.id } })),
    accessDenied: ({ error }) => errorAnswer(asError(error)),
    signInFailed: failed,
    sessionFailed: failed,
    rateLimited: (context) => errorAnswer(rateLimitedError("credentials", context, limiter)),
    ...secondFactorOutcomes(options, cookies, ({ user }: PasswordSignInContext) => signedIn(user!), () => options.callbackUrl),
  }
  const policy = { ...signInTailPolicy(options, provider), requiresVerifiedEmail: settings.verification === "required", verifiesByCode: settings.sendMail !== undefined && (settings.verifyBy ?? "link") !== "link" }
  return outcomeOf(await runFlowWithCookies(passwordSignInMachine, effects, { inspect: options.config.inspect, input: { policy } }), outcomes)
}
