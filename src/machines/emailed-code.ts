/**
 * Checking an emailed 6-digit code, defined once: the state whose effect (`hashCode`) reports the
 * typed code's keyed hashes under each secret and the time, the decisions on them (expired, right,
 * wrong with tries left, the fifth wrong one) and the final states the refusals end in. Every flow
 * that waits in the browser for an emailed code (the email provider's sign-in code, the Password
 * provider's verification code and reset code) spreads these in, so the inspector and the model tests see the
 * same rules everywhere: 10 minutes, five wrong tries, compared in constant time, used once (the
 * sealed flow is claimed before the code is checked).
 *
 * @module
 */
import { assign } from "xstate"
import { emailCodeMatchesAny } from "../core/second-factor/email-code.js"
import { Concealed } from "../core/concealed.js"
import { claimingFlowState, flowReplayedState, type FlowClaimEvent } from "./flow-claim.js"

/**
 * Wrong codes one emailed code takes: the fifth wrong one ends the flow.
 *
 * @example
 * ```ts
 * EMAIL_CODE_MAX_ATTEMPTS // 5
 * ```
 */
export const EMAIL_CODE_MAX_ATTEMPTS = 5

/** What the `hashCode` effect reports: the typed code's keyed hashes under each secret (the newest first; none for what is not 6 digits) and when it was hashed. */
export type EmailedCodeEvent = { type: "emailCode.hashed"; hashes: string[]; now: number }

/** The effect a code-checking state names. */
export type EmailedCodeEffect = "hashCode"

/** Context of a flow waiting for an emailed code: the code's keyed hash and expiry (sealed), the wrong tries so far (sealed), and what this request typed (never sealed). */
export interface EmailedCodeContext {
  /** The mailed code's keyed hash (HMAC under the first secret). */
  codeHash: string
  /** When the code dies (epoch ms). */
  expiresAt: number
  /** Wrong codes typed so far. */
  attempts: number
  /** The code this request typed (never sealed; {@link Concealed}, so no inspector or log shows it). */
  typed?: Concealed<string>
}

/**
 * What resuming a code flow reports: the request's typed code (with the tail's policy, never
 * sealed), then whether its sealed flow was claimed for the first time (`claimFlow`).
 */
export type CodeFlowEvent<TPolicy> =
  | { type: "code.submitted"; code: string; policy: TPolicy }
  | FlowClaimEvent

/**
 * The wait for a code and its claim, defined once: `awaitingCode` takes the typed code
 * (`recordPolicy`, `recordTypedCode`), `claimingFlow` uses the sealed flow once (a copy of its cookie
 * sent again, here or on another instance, ends in `flowReplayed`; a store failure in `claimFailed`,
 * with `recordError`) and goes on to `next`.
 *
 * @param next - The state a first claim goes to (the CSRF check).
 * @example
 * ```ts
 * createMachine({ initial: "awaitingCode", states: { ...awaitingCodeStates("validatingInput"), … } })
 * ```
 */
export function awaitingCodeStates<const TNext extends string>(next: TNext) {
  return {
    awaitingCode: {
      on: { "code.submitted": { target: "claimingFlow", actions: ["recordPolicy", "recordTypedCode"] } },
    },
    claimingFlow: claimingFlowState(next, { target: "claimFailed", actions: "recordError" }),
    ...flowReplayedState,
    claimFailed: { type: "final" },
  } as const
}

/**
 * A state that checks the typed code (`hashCode`): expired goes to `codeExpired`, the right code
 * to `accepted`, a wrong one to `refusingCode` (then back to `waiting` with the try counted, or
 * `attemptsExhausted` at the fifth). Spread {@link emailedCodeRefusingStates} into the machine as
 * well, and {@link emailedCodeGuards} and {@link emailedCodeActions} into its setup.
 *
 * @param accepted - The state the right code goes to.
 * @example
 * ```ts
 * createMachine({ states: { checkingCode: checkingCodeState("codeAccepted"), ...emailedCodeRefusingStates("awaitingCode"), … } })
 * ```
 */
export function checkingCodeState<const TAccepted extends string>(accepted: TAccepted) {
  return {
    meta: { effect: "hashCode" },
    on: {
      "emailCode.hashed": [
        { guard: "emailCodeExpired", target: "codeExpired" },
        { guard: "emailCodeMatches", target: accepted },
        { target: "refusingCode" },
      ],
    },
  } as const
}

/**
 * The wrong code's decision and the final states of a code that cannot be used any more: back to
 * `waiting` (sealed anew with the try counted) while tries are left, `attemptsExhausted` at the
 * fifth; `codeExpired` after 10 minutes.
 *
 * @param waiting - The state that waits for the next code.
 * @example
 * ```ts
 * createMachine({ states: { awaitingCode: { … }, ...emailedCodeRefusingStates("awaitingCode") } })
 * ```
 */
export function emailedCodeRefusingStates<const TWaiting extends string>(waiting: TWaiting) {
  return {
    refusingCode: {
      always: [{ guard: "attemptsLeft", target: waiting, actions: "countAttempt" }, { target: "attemptsExhausted" }],
    },
    codeExpired: { type: "final" },
    attemptsExhausted: { type: "final" },
  } as const
}

/**
 * The guards of a code-checking machine, for its `setup({ guards })`.
 *
 * @example
 * ```ts
 * setup({ guards: { ...emailedCodeGuards<MyContext, MyEvent>() } })
 * ```
 */
export function emailedCodeGuards<TContext extends EmailedCodeContext, TEvent extends { type: string }>() {
  const hashed = (event: TEvent) => (event.type === "emailCode.hashed" ? (event as unknown as EmailedCodeEvent) : undefined)
  return {
    /** The code expired before it was typed. */
    emailCodeExpired: ({ context, event }: { context: TContext; event: TEvent }) => hashed(event) !== undefined && hashed(event)!.now >= context.expiresAt,
    /** What was typed is the mailed code: its keyed hash under one of the secrets equals the kept one, compared in constant time. */
    emailCodeMatches: ({ context, event }: { context: TContext; event: TEvent }) => hashed(event) !== undefined && emailCodeMatchesAny(hashed(event)!.hashes, context.codeHash),
    /** This wrong code is not the last one allowed. */
    attemptsLeft: ({ context }: { context: TContext }) => context.attempts + 1 < EMAIL_CODE_MAX_ATTEMPTS,
  }
}

/**
 * The named actions of a code-checking machine, for its `setup({ actions })`: `countAttempt`
 * counts a wrong code, `recordTypedCode` keeps the code an event carries (`code`), concealed, and
 * `recordPolicy` the tail's policy the typed code came with (`code.submitted`, never sealed).
 *
 * @example
 * ```ts
 * setup({ actions: { ...emailedCodeActions<MyContext, MyEvent>() } })
 * ```
 */
export function emailedCodeActions<TContext extends EmailedCodeContext, TEvent extends { type: string }>() {
  return {
    countAttempt: assign<TContext, TEvent, undefined, TEvent, never>(({ context }) => ({ attempts: context.attempts + 1 }) as Partial<TContext>),
    recordTypedCode: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => {
      const code = (event as { code?: unknown }).code
      return (typeof code === "string" ? { typed: new Concealed(code) } : {}) as Partial<TContext>
    }),
    recordPolicy: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => (event.type === "code.submitted" ? { policy: (event as { policy?: unknown }).policy } : {}) as Partial<TContext>),
  }
}
