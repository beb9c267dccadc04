import { and, assign, not, setup } from "xstate"
import { checkingSignInStates, flowActions, issuingSessionStates, signInTailGuards, type SignInOutcomeContext, type SignInTailEffect, type SignInTailEvent, type SignInTailPolicy } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import type { FlowMeta } from "./run-flow.js"
import { credentialsReadActions, credentialsReadGuards, readingCredentialsState, type CredentialsReadContext, type CredentialsReadEvent } from "./credentials-read.js"
import type { User } from "../types.js"

/** What the password sign-in reads of the configuration, given as its input. */
export interface PasswordSignInPolicy extends SignInTailPolicy {
  /** A user whose email is not verified cannot sign in with a password (`verification: "required"`). */
  requiresVerifiedEmail: boolean
  /**
   * The address is verified by an emailed code typed in the browser (`verifyBy: "code"` or
   * `"both"`): a sign-in refused for an unverified address mails a fresh code instead, and a
   * sign-up goes to the code page.
   * @default false
   */
  verifiesByCode?: boolean
}

/**
 * A verification code on its way, as the flow that waits for it keeps it: the account's binding
 * to its address (a keyed hash), the code's keyed hash, and when it dies (epoch ms).
 */
export interface PendingCode {
  bound: string
  codeHash: string
  expiresAt: number
}

/**
 * Events of the password sign-in flow: what each effect found. The account lookup reports the user
 * and their stored hash, or nobody; the check reports whether the password matched the hash (a
 * dummy hash of the same cost when nobody was found) and whether the hash is older than the
 * configured parameters.
 */
export type PasswordSignInEvent =
  | CsrfEvent
  | CredentialsReadEvent
  | RateLimitEvent
  | { type: "account.found"; user: User; hash: string; emailVerified: boolean }
  | { type: "account.unknown" }
  | { type: "account.failed"; error: unknown }
  | { type: "password.checked"; valid: boolean; needsRehash: boolean }
  | { type: "dummyPassword.checked" }
  | { type: "password.rehashed" }
  | { type: "rehash.failed"; error: unknown }
  | { type: "attempt.refunded" }
  | { type: "mail.sent"; code?: PendingCode }
  | { type: "mail.failed"; error: unknown; code?: PendingCode }
  | SignInTailEvent

/** Context of a password sign-in. */
export interface PasswordSignInContext extends SignInOutcomeContext, RateLimitContext, CredentialsReadContext {
  policy?: PasswordSignInPolicy
  /** The user the email names, and their stored hash, once found. */
  user?: User
  hash?: string
  /** Whether the user's email address was verified. */
  emailVerified?: boolean
  /** The verification code mailed to an unverified address (its hash), for the flow that waits for it in this browser. */
  pendingCode?: PendingCode
}

/** Effects the password sign-in machine names. */
export type PasswordSignInEffect = CsrfEffect | "readCredentials" | RateLimitEffect | "findAccount" | "checkPassword" | "checkDummyPassword" | "rehashPassword" | "refundAttempt" | "mailCode" | Exclude<SignInTailEffect, "persistUser">

const checked = (event: PasswordSignInEvent) => (event.type === "password.checked" ? event : undefined)

/**
 * Sign-in with an email and a password (the Password provider), POST `/callback/password`: check
 * CSRF, read the credentials (a field that is not a string ends in `credentialsMalformed`), count
 * the attempt (per client and per email), find the user's password account, check the password
 * against its hash (against a dummy hash of the same cost when there is none, so an unknown email
 * takes as long and ends as a wrong password does: `credentialsRejected`), refuse an unverified
 * email where verification is required (`emailUnverified`; where addresses are verified by code,
 * a fresh code is mailed instead and the flow ends in `codeSent`, a failed mail in
 * `emailUnverified`), store a new hash when the stored one
 * was made with older parameters (a failure to store it does not stop the sign-in), take the
 * attempt back, and end in the shared sign-in tail.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(passwordSignInMachine, { input: { policy: { databaseSessions: false, newUserPage: false, requiresVerifiedEmail: false } } }).start()
 * actor.send({ type: "csrf.valid" })
 * actor.send({ type: "credentials.read", identifier: "ada@example.test", nonString: [] })
 * actor.send({ type: "rateLimit.counted", hits: [] })
 * actor.send({ type: "account.unknown" })
 * actor.send({ type: "dummyPassword.checked" })
 * actor.getSnapshot().value // "credentialsRejected"
 * ```
 */
export const passwordSignInMachine = flowMachine(setup({
  types: {
    context: {} as PasswordSignInContext,
    events: {} as PasswordSignInEvent,
    input: {} as { policy: PasswordSignInPolicy },
    meta: {} as FlowMeta<PasswordSignInEffect>,
  },
  actions: {
    ...flowActions<PasswordSignInContext, PasswordSignInEvent>(),
    ...rateLimitActions<PasswordSignInContext, PasswordSignInEvent>(),
    ...credentialsReadActions<PasswordSignInContext, PasswordSignInEvent>(),
    recordPendingCode: assign({ pendingCode: ({ event }) => (event as { code?: PendingCode }).code }),
    recordAccount: assign(({ event }) => (event.type === "account.found" ? { user: event.user, hash: event.hash, emailVerified: event.emailVerified } : {})),
  },
  guards: {
    ...signInTailGuards<PasswordSignInContext, PasswordSignInEvent>(),
    ...rateLimitGuards<PasswordSignInContext, PasswordSignInEvent>(),
    ...credentialsReadGuards<PasswordSignInContext, PasswordSignInEvent>(),
    /** The password matched the stored hash of the user who was found. */
    passwordMatched: ({ event }) => checked(event)?.valid === true,
    /** The user's email is not verified, and the configuration requires it. */
    emailUnverified: ({ context }) => context.policy?.requiresVerifiedEmail === true && context.emailVerified !== true,
    /** Unverified addresses are verified by an emailed code: the sign-in mails a fresh one. */
    verifiesByCode: ({ context }) => context.policy?.verifiesByCode === true,
    /** The stored hash was made with other parameters (or another algorithm) than the configured ones. */
    hashOutdated: ({ event }) => checked(event)?.needsRehash === true,
  },
}).createMachine)({
  id: "password-sign-in",
  context: ({ input }) => ({ policy: input.policy }),
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("readingCredentials"),
    readingCredentials: readingCredentialsState("checkingRateLimit"),
    checkingRateLimit: limitingState("findingAccount"),
    findingAccount: {
      meta: { effect: "findAccount" },
      on: {
        "account.found": { target: "checkingPassword", actions: "recordAccount" },
        // Nobody: the password is still checked, against a dummy hash, so that the answer takes as long.
        "account.unknown": "checkingDummyPassword",
        "account.failed": { target: "signInFailed", actions: "recordError" },
      },
    },
    checkingPassword: {
      meta: { effect: "checkPassword" },
      on: {
        "password.checked": [
          { guard: not("passwordMatched"), target: "credentialsRejected" },
          { guard: and(["emailUnverified", "verifiesByCode"]), target: "mailingCode" },
          { guard: "emailUnverified", target: "emailUnverified" },
          { guard: "hashOutdated", target: "rehashingPassword" },
          { target: "refundingAttempt" },
        ],
      },
    },
    // The right password of an unverified address, verified by code: a fresh code is mailed, and the browser goes to type it.
    mailingCode: {
      meta: { effect: "mailCode" },
      on: {
        "mail.sent": { target: "codeSent", actions: "recordPendingCode" },
        "mail.failed": { target: "emailUnverified", actions: "recordError" },
      },
    },
    // The same work as a real check, against a hash nobody has: an unknown email ends as a wrong password does.
    checkingDummyPassword: {
      meta: { effect: "checkDummyPassword" },
      on: { "dummyPassword.checked": "credentialsRejected" },
    },
    // A hash made with older parameters is replaced while the password is at hand; failing to does not stop the sign-in.
    rehashingPassword: {
      meta: { effect: "rehashPassword" },
      on: { "password.rehashed": "refundingAttempt", "rehash.failed": "refundingAttempt" },
    },
    refundingAttempt: {
      meta: { effect: "refundAttempt" },
      on: { "attempt.refunded": "checkingSignIn" },
    },
    ...checkingSignInStates("issuingSession"),
    ...issuingSessionStates(false),
    ...csrfRejectedState,
    ...rateLimitedState,
    credentialsMalformed: { type: "final" },
    credentialsRejected: { type: "final" },
    emailUnverified: { type: "final" },
    codeSent: { type: "final" },
    signInFailed: { type: "final" },
  },
})
