import { assign, not, setup } from "xstate"
import { flowActions, issuingSessionStates, signInTailGuards, type SecondFactorMethod, type SignInOutcomeContext, type SignInTailEffect, type SignInTailEvent, type SignInTailPolicy } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import type { FlowMeta } from "./run-flow.js"
import type { SecondFactorRefusal } from "../core/errors.js"
import type { Account, Profile, User } from "../types.js"
import { emailCodeMatchesAny } from "../core/second-factor/email-code.js"
import type { EmailedCodeEvent } from "./emailed-code.js"
import { claimingFlowState, flowReplayedState, type ClaimFlowEffect, type FlowClaimEvent } from "./flow-claim.js"

/**
 * What the second-factor flow reads of the configuration, given with the event that resumes it
 * (never sealed): the sign-in tail's policy, the attempts one sign-in may make, and whether
 * "remember this device" is offered.
 */
export interface SecondFactorPolicy extends SignInTailPolicy {
  maxAttempts: number
  trustsDevices: boolean
}

/** What the person typed or asked for on the second-factor page. */
export type SecondFactorSubmission =
  | { method: SecondFactorMethod; code: string; rememberDevice: boolean }
  | { method: "email"; requestsCode: true }

/**
 * Events of the second-factor flow: the request that resumes it (a code, or asking for a code by
 * email), and what each effect found.
 */
export type SecondFactorEvent =
  | { type: "code.submitted"; method: SecondFactorMethod; code: string; rememberDevice: boolean; policy: SecondFactorPolicy }
  | { type: "emailCode.requested"; policy: SecondFactorPolicy }
  | FlowClaimEvent
  | CsrfEvent
  | RateLimitEvent
  | { type: "totp.matched"; factorId: string; step: number }
  | { type: "totp.unmatched" }
  | { type: "totp.failed"; error: unknown }
  | { type: "step.claimed" }
  | { type: "step.taken" }
  | { type: "step.failed"; error: unknown }
  | { type: "backupCode.used" }
  | { type: "backupCode.unknown" }
  | { type: "backupCode.failed"; error: unknown }
  /** The typed code's keyed hashes under each secret (the newest first; none for what is not 6 digits), as the shared emailed-code check has them. */
  | EmailedCodeEvent
  | { type: "emailCode.sent"; hash: string; expiresAt: number }
  | { type: "emailCode.failed"; error: unknown }
  | { type: "device.trusted" }
  | { type: "device.failed"; error: unknown }
  | { type: "authContext.renewed" }
  | SignInTailEvent

/** Who passed the first factor, and how: what the session is issued for once the second one passes. */
export interface FirstFactor {
  user: User
  account: Account
  profile?: Profile
  isNewUser?: boolean
  /** Where the sign-in returns to. */
  callbackUrl: string
  /** The second factors this user can pass. */
  methods: SecondFactorMethod[]
  /**
   * A step-up: the user is signed in and proves a second factor again for a sensitive action. Once
   * it passes, the auth context is renewed (`amr` is what the user had, given here, with the factor
   * that passed) and the session is left as it is.
   */
  stepUp?: { amr: string[] }
}

/** Context of the second-factor flow. Sealed while it waits: the first factor, attempts made, the emailed code's hash. */
export interface SecondFactorContext extends SignInOutcomeContext, RateLimitContext, FirstFactor {
  policy?: SecondFactorPolicy
  /** Codes refused so far in this sign-in. */
  attempts: number
  /** The emailed code (its keyed hash) and when it expires (epoch ms), once one was sent. */
  emailCode?: { hash: string; expiresAt: number }
  /** This request's submission. */
  submission?: SecondFactorSubmission
  /** The authenticator app whose code matched, and its time step. */
  matched?: { factorId: string; step: number }
  /** Why the last code was refused. */
  refusal?: SecondFactorRefusal
  /** The factor that passed. */
  passedWith?: SecondFactorMethod
  /** Who the attempt counts against: the user's id. */
  rateLimitIdentity?: string
}

/** Effects the second-factor machine names. */
export type SecondFactorEffect =
  | CsrfEffect
  | RateLimitEffect
  | ClaimFlowEffect
  | "checkTotp"
  | "claimStep"
  | "useBackupCode"
  | "hashEmailCode"
  | "sendEmailCode"
  | "trustDevice"
  | "renewAuthContext"
  | Exclude<SignInTailEffect, "askSignIn" | "resolveRedirect" | "persistUser" | "findSecondFactor">

/** A store or adapter that failed while checking: the flow ends in `verifyFailed`, keeping the error. */
const verifyFailed = { target: "verifyFailed", actions: "recordError" } as const

const refuse = (reason: SecondFactorRefusal) => ({ target: "refusing", actions: { type: "recordRefusal", params: { reason } } }) as const

/**
 * The second factor, after any first factor: the first-factor machine ended in
 * `secondFactorRequired`, and this flow starts waiting in `awaitingCode`, its snapshot sealed in
 * the second-factor cookie (bound to the browser, used once, 5 minutes). No session exists yet.
 * Each request resumes it with a code (`code.submitted`) or asks for a code by email
 * (`emailCode.requested`): the flow claimed once (`flowReplayed` for a copy sent again), the CSRF check, a method the user has, the rate limiter (per user and
 * per client), then the check the method needs: an authenticator app's code matched and its time
 * step claimed once (`step.taken` is a replay), a backup code used once, or the emailed code
 * compared with its hash before it expires. A refused code goes back to `awaitingCode` while
 * attempts are left (`attemptsExhausted` when none are); a passed factor remembers the device
 * when asked and issues the session through the shared sign-in tail. A step-up (a signed-in user
 * proving a factor again, started by `/step-up`) instead renews the auth context and ends in
 * `steppedUp`, its session untouched.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(secondFactorMachine, { input: { user, account, callbackUrl: "/", methods: ["totp"] } }).start()
 * actor.getSnapshot().value // "awaitingCode"
 * actor.send({ type: "code.submitted", method: "totp", code: "123456", rememberDevice: false, policy })
 * actor.getSnapshot().value // "validatingInput"
 * ```
 */
export const secondFactorMachine = flowMachine(setup({
  types: {
    context: {} as SecondFactorContext,
    events: {} as SecondFactorEvent,
    input: {} as FirstFactor,
    meta: {} as FlowMeta<SecondFactorEffect>,
  },
  actions: {
    ...flowActions<SecondFactorContext, SecondFactorEvent>(),
    ...rateLimitActions<SecondFactorContext, SecondFactorEvent>(),
    recordSubmission: assign(({ event }) => {
      if (event.type === "code.submitted") return { policy: event.policy, submission: { method: event.method, code: event.code, rememberDevice: event.rememberDevice }, refusal: undefined }
      if (event.type === "emailCode.requested") return { policy: event.policy, submission: { method: "email" as const, requestsCode: true as const }, refusal: undefined }
      return {}
    }),
    recordMatch: assign({ matched: ({ event }) => (event.type === "totp.matched" ? { factorId: event.factorId, step: event.step } : undefined) }),
    recordRefusal: assign((_, params: { reason: SecondFactorRefusal }) => ({ refusal: params.reason })),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    recordEmailCode: assign({ emailCode: ({ event }) => (event.type === "emailCode.sent" ? { hash: event.hash, expiresAt: event.expiresAt } : undefined) }),
    recordPassed: assign((_, params: { method: SecondFactorMethod }) => ({ passedWith: params.method })),
  },
  guards: {
    ...signInTailGuards<SecondFactorContext, SecondFactorEvent>(),
    ...rateLimitGuards<SecondFactorContext, SecondFactorEvent>(),
    /** The page sent a method this user has: anything else (a tampered form) is refused. */
    methodOffered: ({ context }) => context.submission !== undefined && context.methods.includes(context.submission.method),
    /** The person asked for a code by email. */
    requestsEmailCode: ({ context }) => context.submission !== undefined && "requestsCode" in context.submission,
    /** The person typed an authenticator app's code. */
    submittedTotp: ({ context }) => context.submission?.method === "totp",
    /** The person typed a backup code. */
    submittedBackupCode: ({ context }) => context.submission?.method === "backup",
    /** No code was emailed in this sign-in yet. */
    noEmailCodeSent: ({ context }) => context.emailCode === undefined,
    /** The emailed code expired before it was typed. */
    emailCodeExpired: ({ context, event }) => event.type === "emailCode.hashed" && context.emailCode !== undefined && event.now >= context.emailCode.expiresAt,
    /** What was typed is the emailed code: its keyed hash under one of the secrets equals the kept one, compared in constant time. */
    emailCodeMatches: ({ context, event }) => event.type === "emailCode.hashed" && context.emailCode !== undefined && emailCodeMatchesAny(event.hashes, context.emailCode.hash),
    /** The sign-in has attempts left after this refusal. */
    attemptsLeft: ({ context }) => context.attempts + 1 < (context.policy?.maxAttempts ?? 5),
    /** The flow is a step-up of a signed-in user: no session is issued, the auth context is renewed. */
    stepsUp: ({ context }) => context.stepUp !== undefined,
    /** The person ticked "remember this device", and the configuration offers it. */
    remembersDevice: ({ context }) => context.policy?.trustsDevices === true && context.submission !== undefined && "rememberDevice" in context.submission && context.submission.rememberDevice,
  },
}).createMachine)({
  id: "second-factor",
  context: ({ input }) => ({
    user: input.user,
    account: input.account,
    ...(input.profile !== undefined && { profile: input.profile }),
    ...(input.isNewUser !== undefined && { isNewUser: input.isNewUser }),
    callbackUrl: input.callbackUrl,
    methods: input.methods,
    attempts: 0,
    rateLimitIdentity: input.user.id!,
    ...(input.stepUp !== undefined && { stepUp: input.stepUp }),
  }),
  initial: "awaitingCode",
  states: {
    awaitingCode: {
      on: {
        "code.submitted": { target: "claimingFlow", actions: "recordSubmission" },
        "emailCode.requested": { target: "claimingFlow", actions: "recordSubmission" },
      },
    },
    // The sealed flow is used once: a copy of its cookie sent again (here or on another instance) is a replay.
    claimingFlow: claimingFlowState("validatingInput", verifyFailed),
    validatingInput: csrfCheckingState("choosingMethod"),
    choosingMethod: {
      always: [{ guard: not("methodOffered"), target: "methodUnavailable" }, { target: "checkingRateLimit" }],
    },
    checkingRateLimit: limitingState("verifying"),
    verifying: {
      always: [
        { guard: "requestsEmailCode", target: "sendingEmailCode" },
        { guard: "submittedTotp", target: "checkingTotp" },
        { guard: "submittedBackupCode", target: "usingBackupCode" },
        { guard: "noEmailCodeSent", ...refuse("no-email-code") },
        { target: "checkingEmailCode" },
      ],
    },
    sendingEmailCode: {
      meta: { effect: "sendEmailCode" },
      on: {
        "emailCode.sent": { target: "awaitingCode", actions: "recordEmailCode" },
        "emailCode.failed": { target: "emailCodeFailed", actions: "recordError" },
      },
    },
    checkingTotp: {
      meta: { effect: "checkTotp" },
      on: {
        "totp.matched": { target: "claimingStep", actions: "recordMatch" },
        "totp.unmatched": refuse("wrong-code"),
        "totp.failed": verifyFailed,
      },
    },
    // A code is accepted once: of two requests with one code, here or on another instance, one claims its time step.
    claimingStep: {
      meta: { effect: "claimStep" },
      on: {
        "step.claimed": { target: "passed", actions: { type: "recordPassed", params: { method: "totp" } } },
        "step.taken": refuse("replayed-code"),
        "step.failed": verifyFailed,
      },
    },
    usingBackupCode: {
      meta: { effect: "useBackupCode" },
      on: {
        "backupCode.used": { target: "passed", actions: { type: "recordPassed", params: { method: "backup" } } },
        "backupCode.unknown": refuse("unknown-backup-code"),
        "backupCode.failed": verifyFailed,
      },
    },
    checkingEmailCode: {
      meta: { effect: "hashEmailCode" },
      on: {
        "emailCode.hashed": [
          { guard: "emailCodeExpired", ...refuse("expired-email-code") },
          { guard: "emailCodeMatches", target: "passed", actions: { type: "recordPassed", params: { method: "email" } } },
          refuse("wrong-code"),
        ],
      },
    },
    refusing: {
      always: [{ guard: "attemptsLeft", target: "awaitingCode", actions: "countAttempt" }, { target: "attemptsExhausted" }],
    },
    passed: {
      always: [{ guard: "stepsUp", target: "renewingAuthContext" }, { guard: "remembersDevice", target: "trustingDevice" }, { target: "issuingSession" }],
    },
    // A step-up leaves the session as it is: only when and how the user authenticated changes (a sealed cookie, made without I/O).
    renewingAuthContext: {
      meta: { effect: "renewAuthContext" },
      on: { "authContext.renewed": "steppedUp" },
    },
    // A device that could not be remembered still signs in: the next sign-in asks for the factor again.
    trustingDevice: {
      meta: { effect: "trustDevice" },
      on: { "device.trusted": "issuingSession", "device.failed": "issuingSession" },
    },
    ...issuingSessionStates(true, { checksSecondFactor: false, renewsStoredTokens: true }),
    ...csrfRejectedState,
    ...rateLimitedState,
    steppedUp: { type: "final" },
    ...flowReplayedState,
    methodUnavailable: { type: "final" },
    emailCodeFailed: { type: "final" },
    verifyFailed: { type: "final" },
    attemptsExhausted: { type: "final" },
  },
})
