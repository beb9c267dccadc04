import { assign, setup } from "xstate"
import { flowActions, issuingSessionStates, signInTailGuards, type SignInTailEffect, type SignInTailEvent, type SignInTailPolicy } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { emailUserActions, emailUserStates, emailUserGuards, plannedUser, type EmailUserContext, type EmailUserEffect, type EmailUserEvent } from "./email-user.js"
import { flowMachine } from "./flow-machine.js"
import { awaitingCodeStates, checkingCodeState, emailedCodeActions, emailedCodeGuards, emailedCodeRefusingStates, type CodeFlowEvent, type EmailedCodeContext, type EmailedCodeEffect, type EmailedCodeEvent } from "./emailed-code.js"
import type { ClaimFlowEffect } from "./flow-claim.js"
import type { FlowMeta } from "./run-flow.js"

export { EMAIL_CODE_MAX_ATTEMPTS } from "./emailed-code.js"

/**
 * What the email sign-in left for the browser that asked: the address, the code's keyed hash and
 * expiry (epoch ms), where the sign-in returns to, and, when the link was mailed beside the code,
 * the link token's stored hash (so a code that signs in uses the link up, and a used link ends the
 * code). Sealed in the browser while the flow waits.
 */
export interface EmailCodeStart {
  identifier: string
  codeHash: string
  expiresAt: number
  callbackUrl: string
  /** The link's token as the database stores it (hashed), when the mail carried a link too. @default none */
  linkTokenHash?: string
}

/**
 * Events of the email code flow: the request that resumes it (a typed code, with the tail's
 * policy, never sealed), then what each effect found. `emailCode.hashed` carries the typed code's
 * keyed hashes under each secret (the newest first) and the time it was hashed.
 */
export type EmailCodeEvent =
  | CodeFlowEvent<SignInTailPolicy>
  | CsrfEvent
  | RateLimitEvent
  | EmailedCodeEvent
  | { type: "token.used"; row: { identifier: string; expires: Date } | null }
  | { type: "token.failed"; error: unknown }
  | EmailUserEvent
  | SignInTailEvent

/** Context of the email code flow; sealed while it waits: {@link EmailCodeStart} and the wrong tries so far. */
export interface EmailCodeContext extends EmailCodeStart, EmailedCodeContext, EmailUserContext, RateLimitContext {
  identifier: string
}

/** Effects the email code machine names, in the order a successful flow meets them. */
export type EmailCodeEffect = ClaimFlowEffect | CsrfEffect | RateLimitEffect | EmailedCodeEffect | "useLinkToken" | EmailUserEffect | SignInTailEffect

const failedWriting = { target: "persistFailed", actions: "recordError" } as const

/**
 * Typing the code a sign-in email carried (the email provider's `code` option), POST
 * `/callback/<id>` with `code`: the email sign-in ended in `codeSent` and this flow waits in
 * `awaitingCode`, sealed in the browser that asked (bound to it, 15 minutes; the code lives 10).
 * The request resumes it with the typed code: the flow is claimed once (`flowReplayed` for a copy of the cookie sent
 * again), the CSRF check, the rate limiter (per address and per client), then the typed code's
 * keyed hash compared in constant time with the one kept: after it expired, `codeExpired`; a wrong
 * one goes back to `awaitingCode` (sealed anew with the attempt counted) while tries are left,
 * `attemptsExhausted` at the fifth. A right code uses up the link mailed beside it (`linkUsed` when
 * the link signed in first), then signs in exactly as the link does: the user who has the address
 * is verified, anyone else created, and the shared tail issues the session (second factor
 * included).
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(emailCodeMachine, { input: { identifier: "ada@example.com", codeHash, expiresAt, callbackUrl: "/" } }).start()
 * actor.getSnapshot().value // "awaitingCode"
 * ```
 */
export const emailCodeMachine = flowMachine(setup({
  types: {
    context: {} as EmailCodeContext,
    events: {} as EmailCodeEvent,
    input: {} as EmailCodeStart,
    meta: {} as FlowMeta<EmailCodeEffect>,
  },
  actions: {
    ...flowActions<EmailCodeContext, EmailCodeEvent>(),
    ...rateLimitActions<EmailCodeContext, EmailCodeEvent>(),
    ...emailUserActions<EmailCodeContext, EmailCodeEvent>(),
    ...emailedCodeActions<EmailCodeContext, EmailCodeEvent>(),
  },
  guards: {
    ...signInTailGuards<EmailCodeContext, EmailCodeEvent>(),
    ...rateLimitGuards<EmailCodeContext, EmailCodeEvent>(),
    ...emailUserGuards<EmailCodeContext, EmailCodeEvent>(),
    ...emailedCodeGuards<EmailCodeContext, EmailCodeEvent>(),
    /** The mail carried the link too: the code uses it up. */
    linkMailed: ({ context }) => context.linkTokenHash !== undefined,
    /** The database has no row for the link's token: the link signed in first. */
    noTokenRow: ({ event }) => event.type === "token.used" && event.row === null,
  },
}).createMachine)({
  id: "email-code",
  context: ({ input }) => ({ ...input, attempts: 0 }),
  initial: "awaitingCode",
  states: {
    ...awaitingCodeStates("validatingInput"),
    validatingInput: csrfCheckingState("checkingRateLimit"),
    checkingRateLimit: limitingState("checkingCode"),
    checkingCode: checkingCodeState("codeAccepted"),
    ...emailedCodeRefusingStates("awaitingCode"),
    codeAccepted: {
      always: [{ guard: "linkMailed", target: "usingToken" }, { target: "lookingUpUser" }],
    },
    usingToken: {
      meta: { effect: "useLinkToken" },
      on: {
        "token.used": [{ guard: "noTokenRow", target: "linkUsed" }, { target: "lookingUpUser" }],
        "token.failed": { target: "tokenLookupFailed", actions: "recordError" },
      },
    },
    lookingUpUser: {
      meta: { effect: "lookUpUser" },
      on: {
        "user.lookedUp": plannedUser,
        "lookup.failed": { target: "lookupFailed", actions: "recordError" },
      },
    },
    ...emailUserStates(failedWriting),
    ...issuingSessionStates(true, { firstFactor: "email" }),
    ...csrfRejectedState,
    ...rateLimitedState,
    linkUsed: { type: "final" },
    tokenLookupFailed: { type: "final" },
    lookupFailed: { type: "final" },
  },
})
