import { assign, setup } from "xstate"
import { checkingSignInStates, flowActions, issuingSessionStates, signInTailGuards, type SignInOutcomeContext, type SignInTailEffect, type SignInTailEvent } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import type { FlowMeta } from "./run-flow.js"
import type { PasswordSignInPolicy } from "./password-sign-in.js"
import type { User } from "../types.js"

/** Why a sign-up was refused before anything was looked up. */
export type SignUpRefusal = "invalid-email" | "too-short" | "too-long" | "not-a-string" | "refused-password"

/**
 * What the sign-up form carries (the `readSignUp` effect): the email in its canonical form, or what
 * is wrong with it; what is wrong with the password by the rules (length, in code points after
 * NFKC), or by the app's `checkPassword`; the name, if given.
 */
export type SignUpReadEvent = { type: "signUp.read"; email?: string; emailProblem?: string; passwordProblem?: SignUpRefusal; name?: string }

/** Events of the password sign-up flow: what each effect found. */
export type PasswordSignUpEvent =
  | CsrfEvent
  | SignUpReadEvent
  | RateLimitEvent
  | { type: "user.exists" }
  | { type: "user.absent" }
  | { type: "lookup.failed"; error: unknown }
  | { type: "account.created"; user: User }
  | { type: "create.failed"; error: unknown }
  | SignInTailEvent

/** Context of a password sign-up. */
export interface PasswordSignUpContext extends SignInOutcomeContext, RateLimitContext {
  policy?: PasswordSignInPolicy
  /** Who signs up: the canonical email and the name; the id once the account exists. */
  user?: User
  refusal?: SignUpRefusal
  rateLimitIdentity?: string
}

/** Effects the password sign-up machine names. */
export type PasswordSignUpEffect = CsrfEffect | "readSignUp" | RateLimitEffect | "findUser" | "createAccount" | Exclude<SignInTailEffect, "persistUser">

const read = (event: PasswordSignUpEvent) => (event.type === "signUp.read" ? event : undefined)

/**
 * Sign-up with an email and a password (the Password provider), POST `/signup/password`: check
 * CSRF, read the form (an address that is not one, or a password the rules or the app's
 * `checkPassword` refuse, ends in `signUpRefused` with the reason), count the attempt (per client
 * and per email), look the email up (taken: `emailTaken`), ask the `signIn` callback about the new
 * user, create the user and their password account (hashed), and sign them in through the shared
 * tail; where verification is required, the account waits for it instead (`verificationRequired`).
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(passwordSignUpMachine, { input: { policy: { databaseSessions: false, newUserPage: false, requiresVerifiedEmail: false } } }).start()
 * actor.send({ type: "csrf.valid" })
 * actor.send({ type: "signUp.read", email: "ada@example.test", passwordProblem: "too-short" })
 * actor.getSnapshot().value // "signUpRefused"
 * ```
 */
export const passwordSignUpMachine = flowMachine(setup({
  types: {
    context: {} as PasswordSignUpContext,
    events: {} as PasswordSignUpEvent,
    input: {} as { policy: PasswordSignInPolicy },
    meta: {} as FlowMeta<PasswordSignUpEffect>,
  },
  actions: {
    ...flowActions<PasswordSignUpContext, PasswordSignUpEvent>(),
    ...rateLimitActions<PasswordSignUpContext, PasswordSignUpEvent>(),
    recordSignUpRefusal: assign({ refusal: ({ event }) => (read(event)?.emailProblem !== undefined || read(event)?.email === undefined ? "invalid-email" : read(event)?.passwordProblem) }),
    recordSignUp: assign(({ event }) => {
      const form = read(event)
      return form ? { user: { email: form.email!, ...(form.name !== undefined && { name: form.name }) }, rateLimitIdentity: form.email! } : {}
    }),
    recordCreatedUser: assign({ user: ({ event }) => (event.type === "account.created" ? event.user : undefined), isNewUser: () => true }),
  },
  guards: {
    ...signInTailGuards<PasswordSignUpContext, PasswordSignUpEvent>(),
    ...rateLimitGuards<PasswordSignUpContext, PasswordSignUpEvent>(),
    /** The email is missing or not an address authflow accepts. */
    emailInvalid: ({ event }) => read(event) !== undefined && (read(event)!.email === undefined || read(event)!.emailProblem !== undefined),
    /** The password breaks the length rules, or the app's `checkPassword` refused it. */
    passwordRefused: ({ event }) => read(event)?.passwordProblem !== undefined,
    /** Where verification is required, a new account signs in only once its email is verified. */
    requiresVerifiedEmail: ({ context }) => context.policy?.requiresVerifiedEmail === true,
  },
}).createMachine)({
  id: "password-sign-up",
  context: ({ input }) => ({ policy: input.policy }),
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("readingSignUp"),
    readingSignUp: {
      meta: { effect: "readSignUp" },
      on: {
        "signUp.read": [
          { guard: "emailInvalid", target: "signUpRefused", actions: "recordSignUpRefusal" },
          { guard: "passwordRefused", target: "signUpRefused", actions: "recordSignUpRefusal" },
          { target: "checkingRateLimit", actions: "recordSignUp" },
        ],
      },
    },
    checkingRateLimit: limitingState("findingUser"),
    findingUser: {
      meta: { effect: "findUser" },
      on: {
        "user.exists": "emailTaken",
        "user.absent": "checkingSignIn",
        "lookup.failed": { target: "signUpFailed", actions: "recordError" },
      },
    },
    ...checkingSignInStates("creatingAccount"),
    // The user and their password account, written together: a user whose account could not be written is removed again.
    creatingAccount: {
      meta: { effect: "createAccount" },
      on: {
        "account.created": [
          { guard: "requiresVerifiedEmail", target: "verificationRequired", actions: "recordCreatedUser" },
          { target: "issuingSession", actions: "recordCreatedUser" },
        ],
        "create.failed": { target: "signUpFailed", actions: "recordError" },
      },
    },
    ...issuingSessionStates(true),
    ...csrfRejectedState,
    ...rateLimitedState,
    signUpRefused: { type: "final" },
    emailTaken: { type: "final" },
    verificationRequired: { type: "final" },
    signUpFailed: { type: "final" },
  },
})
