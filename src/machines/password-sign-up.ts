import { and, assign, setup } from "xstate"
import { checkingSignInStates, flowActions, issuingSessionStates, signInTailGuards, type SignInOutcomeContext, type SignInTailEffect, type SignInTailEvent } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import type { FlowMeta } from "./run-flow.js"
import type { PasswordSignInPolicy, PendingCode } from "./password-sign-in.js"
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
  /** The account could not be written; `addressTaken` when, looked up again, the address belongs to someone else (a sign-up that raced this one). */
  | { type: "create.failed"; error: unknown; addressTaken: boolean }
  /** A mail was sent; `code` when it carried a verification code (or, for a taken address, when a new account's would have). */
  | { type: "mail.sent"; code?: PendingCode }
  | { type: "mail.failed"; error: unknown; code?: PendingCode }
  | SignInTailEvent

/**
 * What a password sign-up follows: the sign-in policy, and whether a new account's address is
 * mailed its verification link (`sendMail` is set and `verification` is not `"off"`; always where
 * it is `"required"`).
 */
export interface PasswordSignUpPolicy extends PasswordSignInPolicy {
  /** @default false */
  mailsVerification?: boolean
}

/** Context of a password sign-up. */
export interface PasswordSignUpContext extends SignInOutcomeContext, RateLimitContext {
  policy?: PasswordSignUpPolicy
  /** Who signs up: the canonical email and the name; the id once the account exists. */
  user?: User
  refusal?: SignUpRefusal
  rateLimitIdentity?: string
  /** A mail of this sign-up could not be sent (logged; the answer is the same). */
  mailFailed?: boolean
  /** The code the verification mail carried (its hash), for the flow that waits for it in this browser. */
  pendingCode?: PendingCode
}

/** Effects the password sign-up machine names. */
export type PasswordSignUpEffect = CsrfEffect | "readSignUp" | RateLimitEffect | "findUser" | "createAccount" | "mailVerification" | "notifyOwner" | Exclude<SignInTailEffect, "persistUser">

const read = (event: PasswordSignUpEvent) => (event.type === "signUp.read" ? event : undefined)

/**
 * Sign-up with an email and a password (the Password provider), POST `/signup/password`: check
 * CSRF, read the form (an address that is not one, or a password the rules or the app's
 * `checkPassword` refuse, ends in `signUpRefused` with the reason), count the attempt (per client
 * and per email), look the email up, ask the `signIn` callback about the new user, create the user
 * and their password account (hashed), mail the link that verifies the address (where `sendMail`
 * is set), and sign them in through the shared tail; where verification is required, the account
 * waits for it instead (`verificationRequired`).
 *
 * A taken email ends in `emailTaken` (the error says so) where verification is optional or off.
 * Where it is required, nobody may learn from sign-up whether an address has an account: a taken
 * email goes through `notifyingOwner` (the owner is mailed; the effect pays a hash of the password,
 * as a new account does) to the same `verificationRequired` a new account reaches. A mail that fails
 * ends there too (logged, `mailFailed`): the new account exists, and the owner's notice must not
 * answer otherwise than a new account's mail.
 *
 * Where addresses are verified by code (`verifiesByCode`), the verification mail carries a code
 * and the sign-up ends in `codeSent` instead: the action seals the code flow in this browser and
 * sends it to the code page. A taken address (where verification is required) ends there too,
 * with a code no one can type (its owner is mailed the notice).
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
    input: {} as { policy: PasswordSignUpPolicy },
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
    recordMailFailure: assign({ mailFailed: () => true, error: ({ event }) => (event as { error?: unknown }).error }),
    recordPendingCode: assign({ pendingCode: ({ event }) => (event as { code?: PendingCode }).code }),
  },
  guards: {
    ...signInTailGuards<PasswordSignUpContext, PasswordSignUpEvent>(),
    /** Another sign-up took the address between the lookup and the write. */
    addressTakenMeanwhile: ({ event }) => event.type === "create.failed" && event.addressTaken,
    ...rateLimitGuards<PasswordSignUpContext, PasswordSignUpEvent>(),
    /** The email is missing or not an address authflow accepts. */
    emailInvalid: ({ event }) => read(event) !== undefined && (read(event)!.email === undefined || read(event)!.emailProblem !== undefined),
    /** The password breaks the length rules, or the app's `checkPassword` refused it. */
    passwordRefused: ({ event }) => read(event)?.passwordProblem !== undefined,
    /** Where verification is required, a new account signs in only once its email is verified. */
    requiresVerifiedEmail: ({ context }) => context.policy?.requiresVerifiedEmail === true,
    /** A new account's address is mailed its verification link: always where verification is required. */
    mailsVerification: ({ context }) => context.policy?.requiresVerifiedEmail === true || context.policy?.mailsVerification === true,
    /** The address is verified by a code typed in this browser (`verifyBy: "code"` or `"both"`). */
    verifiesByCode: ({ context }) => context.policy?.verifiesByCode === true,
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
        "user.exists": [{ guard: "requiresVerifiedEmail", target: "notifyingOwner" }, { target: "emailTaken" }],
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
          { guard: "mailsVerification", target: "mailingVerification", actions: "recordCreatedUser" },
          { target: "issuingSession", actions: "recordCreatedUser" },
        ],
        // A sign-up that raced this one to the address: answered as a taken address is.
        "create.failed": [
          { guard: and(["addressTakenMeanwhile", "requiresVerifiedEmail"]), target: "notifyingOwner" },
          { guard: "addressTakenMeanwhile", target: "emailTaken" },
          { target: "signUpFailed", actions: "recordError" },
        ],
      },
    },
    // The account exists whatever the mail does: a failed mail is logged, and the answer stays the same.
    mailingVerification: {
      meta: { effect: "mailVerification" },
      on: {
        "mail.sent": [{ guard: "verifiesByCode", target: "codeSent", actions: "recordPendingCode" }, { guard: "requiresVerifiedEmail", target: "verificationRequired" }, { target: "issuingSession" }],
        "mail.failed": [
          // Where verification is required, a failed mail answers as a sent one (a taken address's notice may fail too).
          { guard: and(["verifiesByCode", "requiresVerifiedEmail"]), target: "codeSent", actions: ["recordMailFailure", "recordPendingCode"] },
          { guard: "requiresVerifiedEmail", target: "verificationRequired", actions: "recordMailFailure" },
          { target: "issuingSession", actions: "recordMailFailure" },
        ],
      },
    },
    // A taken email, where verification is required: its owner is told, and the answer is a new account's
    // (with codes, a code page whose sealed flow no code satisfies).
    notifyingOwner: {
      meta: { effect: "notifyOwner" },
      on: {
        "mail.sent": [{ guard: "verifiesByCode", target: "codeSent", actions: "recordPendingCode" }, { target: "verificationRequired" }],
        "mail.failed": [
          { guard: "verifiesByCode", target: "codeSent", actions: ["recordMailFailure", "recordPendingCode"] },
          { target: "verificationRequired", actions: "recordMailFailure" },
        ],
      },
    },
    // A new account has no factor and no trusted device, but the rules for them stay: an adapter
    // whose createUser answers with a user who existed (an upsert on the address) must still meet them.
    ...issuingSessionStates(true),
    ...csrfRejectedState,
    ...rateLimitedState,
    signUpRefused: { type: "final" },
    emailTaken: { type: "final" },
    verificationRequired: { type: "final" },
    codeSent: { type: "final" },
    signUpFailed: { type: "final" },
  },
})
