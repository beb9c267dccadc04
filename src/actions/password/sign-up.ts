/**
 * POST `/signup/password`: a new account with an email and a password, through the password
 * sign-up machine (see {@link passwordSignUpMachine}). Loaded when the first one arrives.
 *
 * @module
 */
import { AuthError, CallbackRouteError, EmailTaken, MissingCSRF, SignUpRefused } from "../../core/errors.js"
import { errorAnswer, type Answer } from "../../core/answer.js"
import { asError } from "../../core/as-error.js"
import { compensate } from "../../core/adapter-calls.js"
import { randomUUID } from "../../core/crypto.js"
import { emitEvent } from "../../core/events.js"
import { parseEmailAddress } from "../../core/email-address.js"
import { checkPasswordRules, hashPassword } from "../../core/password/index.js"
import { csrfCheckEffect } from "../../machines/csrf-check.js"
import { runFlowWithCookies, type FlowEffects } from "../../machines/run-flow.js"
import { passwordSignUpMachine, type PasswordSignUpContext, type SignUpReadEvent } from "../../machines/password-sign-up.js"
import { outcomeOf, type FlowOutcomes } from "../flow-outcomes.js"
import { newUserRedirect, signInTailPolicy, type SignInOutcome } from "../issue-session.js"
import { rateLimitedError, requestLimiter } from "../rate-limit.js"
import { secondFactorOutcomes } from "../second-factor/tail.js"
import { sessionEffects } from "../session-effects.js"
import { askSignIn, resolveRedirect } from "../sign-in-callback.js"
import { passwordEmail } from "./store.js"
import { mailVerification, newPasswordCode, passwordRouteUrl, sendPasswordMail, signInPageUrl } from "./mails.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, CredentialsConfig, User } from "../../types.js"
import type { AdapterUser } from "../../adapters.js"

/** What the form says, as the sign-up machine reads it: the canonical email, and what the rules say of the password. */
async function readSignUp(provider: CredentialsConfig, body: Record<string, unknown>): Promise<SignUpReadEvent> {
  const settings = provider.passwordAccounts!
  const parsed = typeof body.email === "string" ? parseEmailAddress(passwordEmail(body.email)) : undefined
  const name = typeof body.name === "string" && body.name.trim() !== "" ? body.name.trim().slice(0, 200) : undefined
  const email = parsed?.ok ? { email: parsed.address } : { emailProblem: parsed && !parsed.ok ? parsed.problem : "missing" }
  const rules = checkPasswordRules(body.password, { ...(settings.minLength !== undefined && { minLength: settings.minLength }), ...(settings.maxLength !== undefined && { maxLength: settings.maxLength }) })
  const passwordProblem = !rules.ok ? rules.reason : settings.checkPassword && !(await settings.checkPassword(body.password as string)) ? ("refused-password" as const) : undefined
  return { type: "signUp.read", ...email, ...(passwordProblem && { passwordProblem }), ...(name !== undefined && { name }) }
}

/**
 * Creates an account from the sign-up form (or JSON body), mails the link that verifies its address
 * (where `sendMail` is set), and signs the new user in; where verification is required, sends them
 * to the sign-in page with `notice=verify-email` instead, and answers a taken address the same way
 * (its owner is mailed an `email-taken` notice). Where addresses are verified by code (`verifyBy`),
 * the mail carries a code and the browser goes to the code page, a taken address's too.
 *
 * @example
 * ```ts
 * // POST /auth/signup/password  (csrfToken, email, password, name) → 302 to the callback URL, signed in
 * return passwordSignUp(options, provider, cookies)
 * ```
 */
export async function passwordSignUp(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<Answer> {
  const adapter = options.adapter!
  const body = options.request.body ?? {}
  const password = typeof body.password === "string" ? body.password : ""
  const settings = provider.passwordAccounts!
  const verifyBy = settings.verifyBy ?? "link"
  const limiter = requestLimiter(options)
  const account = (user: User) => ({ providerAccountId: user.id ?? "", type: "credentials" as const, provider: provider.id })
  const signedIn = (user: User): SignInOutcome => ({ user, account: account(user), isNewUser: true })
  const effects: FlowEffects<typeof passwordSignUpMachine> = {
    ...csrfCheckEffect(options),
    readSignUp: () => readSignUp(provider, body),
    checkRateLimit: ({ rateLimitIdentity }) => limiter.count("credentials", rateLimitIdentity),
    findUser: async ({ user }) => {
      try {
        return (await adapter.getUserByEmail!(user!.email!)) ? { type: "user.exists" } : { type: "user.absent" }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    askSignIn: async ({ user }) => askSignIn(options, { user: user!, account: account(user!), credentials: { email: user!.email } }),
    resolveRedirect: ({ requestedRedirect }) => resolveRedirect(options, requestedRedirect!),
    createAccount: async ({ user }) => {
      const email = user!.email!
      // The id is chosen here, so that a failed sign-up removes the user by it even when the write landed and its answer did not.
      let id = randomUUID()
      // Whether the address is someone else's now: a sign-up that raced this one (refused by a unique index, or written beside it).
      const takenByAnother = async () => {
        const holder = await Promise.resolve(adapter.getUserByEmail!(email)).catch(() => null)
        return holder !== null && holder.id !== id
      }
      try {
        const hash = await hashPassword(password, settings.hashing ?? {})
        let created: AdapterUser
        try {
          created = await adapter.createUser!({ id, email, name: user!.name ?? null, emailVerified: null })
          // An adapter that chose its own id: that one is removed if the account cannot be written.
          id = created.id
          await adapter.linkAccount!({ userId: created.id, type: "credentials" as never, provider: provider.id, providerAccountId: created.id, refresh_token: hash })
          if (await takenByAnother()) throw new EmailTaken("Another sign-up took this address at the same time", { cause: { provider: provider.id } })
        } catch (error) {
          // No user without the password they signed up with, and no second user with one address.
          await compensate(() => adapter.deleteUser?.(id))
          throw error
        }
        // The password account is not announced (linkAccount): its row holds the hash.
        await emitEvent(options.config, options.logger, "createUser", { user: created })
        return { type: "account.created", user: created }
      } catch (error) {
        return { type: "create.failed", error, addressTaken: await takenByAnother() }
      }
    },
    mailVerification: ({ user }) => mailVerification(options, provider, { userId: user!.id!, email: user!.email! }),
    notifyOwner: async ({ user }) => {
      // The hash a new account's creation pays, paid here too: the answer takes as long as a new account's.
      await hashPassword(password, settings.hashing ?? {}).catch(() => undefined)
      // With codes, the code page follows as for a new account, waiting for a code no one has.
      const code = verifyBy !== "link" ? (await newPasswordCode(options)).pending : undefined
      const sent = await sendPasswordMail(options, provider, { kind: "email-taken", to: user!.email!, signInUrl: signInPageUrl(options), resetUrl: passwordRouteUrl(options, provider, "forgot-password") })
      return { ...sent, ...(code && { code }) }
    },
    ...sessionEffects(options, ({ user }: PasswordSignUpContext) => signedIn(user!)),
  }
  const failed = ({ error }: PasswordSignUpContext) => errorAnswer(error instanceof AuthError ? error : new CallbackRouteError(asError(error), { cause: { provider: provider.id } }))
  const outcomes: FlowOutcomes<typeof passwordSignUpMachine, Answer | Promise<Answer>> = {
    signedIn: (_, minted) => ({ redirect: options.callbackUrl, cookies: [...cookies, ...minted] }),
    signedInNewUser: (_, minted) => ({ redirect: newUserRedirect(options, options.callbackUrl), cookies: [...cookies, ...minted] }),
    redirected: ({ redirectTo }) => ({ redirect: redirectTo!, cookies }),
    csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action signup")),
    signUpRefused: ({ refusal }) => errorAnswer(new SignUpRefused(`The sign-up was refused: ${refusal}`, { cause: { provider: provider.id, reason: refusal } })),
    emailTaken: () => errorAnswer(new EmailTaken("An account with this email exists", { cause: { provider: provider.id } })),
    // A new account and a taken address end here alike: the same redirect, the same cookies.
    verificationRequired: () => ({ redirect: signInPageUrl(options, { notice: "verify-email" }), cookies }),
    // A new account and a taken address end here alike too, where addresses are verified by code.
    codeSent: async ({ user, pendingCode }) =>
      (await import("./verify-code.js")).startPasswordCode(options, provider, cookies, { email: user!.email!, ...pendingCode!, callbackUrl: options.callbackUrl }),
    accessDenied: ({ error }) => errorAnswer(asError(error)),
    signUpFailed: failed,
    sessionFailed: failed,
    rateLimited: (context) => errorAnswer(rateLimitedError("credentials", context, limiter)),
    ...secondFactorOutcomes(options, cookies, ({ user }: PasswordSignUpContext) => signedIn(user!), () => options.callbackUrl),
  }
  const policy = {
    ...signInTailPolicy(options, provider),
    requiresVerifiedEmail: settings.verification === "required",
    mailsVerification: settings.sendMail !== undefined && settings.verification !== "off",
    verifiesByCode: settings.sendMail !== undefined && verifyBy !== "link",
  }
  return outcomeOf(await runFlowWithCookies(passwordSignUpMachine, effects, { inspect: options.config.inspect, input: { policy } }), outcomes)
}
