import { assign, setup } from "xstate"
import { checkingSignInStates, flowActions, issuingSessionStates, signInTailGuards, type SignInOutcomeContext, type SignInTailEffect, type SignInTailEvent, type SignInTailPolicy } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { awaitingCodeStates, checkingCodeState, emailedCodeActions, emailedCodeGuards, emailedCodeRefusingStates, type CodeFlowEvent, type EmailedCodeContext, type EmailedCodeEffect, type EmailedCodeEvent } from "./emailed-code.js"
import type { ClaimFlowEffect } from "./flow-claim.js"
import { flowMachine } from "./flow-machine.js"
import type { FlowMeta } from "./run-flow.js"
import type { User } from "../types.js"

/**
 * What a Password sign-up (or a sign-in of an unverified account) leaves in the browser while the
 * verification code is on its way: the address, the binding of the account to it (a keyed hash of
 * the account's id and address, so the code dies once the address changes; a random one that no
 * account has when the address was taken), the code's keyed hash and expiry (epoch ms), and where
 * the sign-in returns to. Sealed in the browser while the flow waits.
 */
export interface PasswordCodeStart {
  email: string
  bound: string
  codeHash: string
  expiresAt: number
  callbackUrl: string
}

/**
 * What the `findCodeUser` effect found of the address's account: whether it is still the one the
 * code was mailed for (`bound`), and whether its address is verified already.
 */
export type CodeUserEvent = { type: "user.found"; user: User; bound: boolean; verified: boolean } | { type: "user.missing" } | { type: "lookup.failed"; error: unknown }

/**
 * Events of the Password verification code flow: the request that resumes it (a typed code, with
 * the tail's policy, never sealed), then what each effect found.
 */
export type PasswordVerifyCodeEvent =
  | CodeFlowEvent<SignInTailPolicy>
  | CsrfEvent
  | RateLimitEvent
  | EmailedCodeEvent
  | CodeUserEvent
  | { type: "email.verified" }
  | { type: "update.failed"; error: unknown }
  | SignInTailEvent

/** Context of the Password verification code flow; sealed while it waits: {@link PasswordCodeStart} and the wrong tries so far. */
export interface PasswordVerifyCodeContext extends PasswordCodeStart, EmailedCodeContext, SignInOutcomeContext, RateLimitContext {
  /** The account, once the right code found it. */
  user?: User
}

/** Effects the Password verification code machine names, in the order a successful flow meets them. */
export type PasswordVerifyCodeEffect = ClaimFlowEffect | CsrfEffect | RateLimitEffect | EmailedCodeEffect | "findCodeUser" | "markVerified" | Exclude<SignInTailEffect, "persistUser">

const found = (event: PasswordVerifyCodeEvent) => (event.type === "user.found" ? event : undefined)

/**
 * Typing the code a Password verification mail carried (`verifyBy: "code"` or `"both"`), POST
 * `/verify-email/<id>` with `code`: the sign-up (or the sign-in of an unverified account) ended in
 * `codeSent` and this flow waits in `awaitingCode`, sealed in that browser (bound to it, 15
 * minutes; the code lives 10). The request resumes it: the flow is claimed once (`flowReplayed`
 * for a copy of the cookie sent again), the CSRF check, the rate limiter (per address and per
 * client), then the shared code check (`codeExpired`; a wrong code back to `awaitingCode` while
 * tries are left, `attemptsExhausted` at the fifth). A right code finds the account (gone, or no
 * longer at the address the code was mailed for: `codeStale`), marks the address verified unless
 * it already is, and signs the user in through the shared tail (the `signIn` callback, the second
 * factor, the session).
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(passwordVerifyCodeMachine, { input: { email: "ada@example.test", bound, codeHash, expiresAt, callbackUrl: "/" } }).start()
 * actor.getSnapshot().value // "awaitingCode"
 * ```
 */
export const passwordVerifyCodeMachine = flowMachine(setup({
  types: {
    context: {} as PasswordVerifyCodeContext,
    events: {} as PasswordVerifyCodeEvent,
    input: {} as PasswordCodeStart,
    meta: {} as FlowMeta<PasswordVerifyCodeEffect>,
  },
  actions: {
    ...flowActions<PasswordVerifyCodeContext, PasswordVerifyCodeEvent>(),
    ...rateLimitActions<PasswordVerifyCodeContext, PasswordVerifyCodeEvent>(),
    ...emailedCodeActions<PasswordVerifyCodeContext, PasswordVerifyCodeEvent>(),
    recordUser: assign({ user: ({ event }) => found(event)?.user }),
  },
  guards: {
    ...signInTailGuards<PasswordVerifyCodeContext, PasswordVerifyCodeEvent>(),
    ...rateLimitGuards<PasswordVerifyCodeContext, PasswordVerifyCodeEvent>(),
    ...emailedCodeGuards<PasswordVerifyCodeContext, PasswordVerifyCodeEvent>(),
    /** The account at the address is not the one the code was mailed for (its address changed since). */
    codeUnbound: ({ event }) => found(event)?.bound === false,
    /** The address is verified already: nothing to write. */
    alreadyVerified: ({ event }) => found(event)?.verified === true,
  },
}).createMachine)({
  id: "password-verify-code",
  context: ({ input }) => ({ ...input, attempts: 0 }),
  initial: "awaitingCode",
  states: {
    ...awaitingCodeStates("validatingInput"),
    validatingInput: csrfCheckingState("checkingRateLimit"),
    checkingRateLimit: limitingState("checkingCode"),
    checkingCode: checkingCodeState("findingUser"),
    ...emailedCodeRefusingStates("awaitingCode"),
    findingUser: {
      meta: { effect: "findCodeUser" },
      on: {
        "user.found": [
          { guard: "codeUnbound", target: "codeStale" },
          { guard: "alreadyVerified", target: "checkingSignIn", actions: "recordUser" },
          { target: "markingVerified", actions: "recordUser" },
        ],
        "user.missing": "codeStale",
        "lookup.failed": { target: "verifyFailed", actions: "recordError" },
      },
    },
    markingVerified: {
      meta: { effect: "markVerified" },
      on: {
        "email.verified": "checkingSignIn",
        "update.failed": { target: "verifyFailed", actions: "recordError" },
      },
    },
    ...checkingSignInStates("issuingSession"),
    ...issuingSessionStates(false),
    ...csrfRejectedState,
    ...rateLimitedState,
    codeStale: { type: "final" },
    verifyFailed: { type: "final" },
  },
})
