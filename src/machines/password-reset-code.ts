import { assign, setup } from "xstate"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { awaitingCodeStates, checkingCodeState, emailedCodeActions, emailedCodeGuards, emailedCodeRefusingStates, type CodeFlowEvent, type EmailedCodeContext, type EmailedCodeEffect, type EmailedCodeEvent } from "./emailed-code.js"
import type { ClaimFlowEffect } from "./flow-claim.js"
import { flowMachine } from "./flow-machine.js"
import { newPasswordActions, newPasswordFinalStates, newPasswordGuards, newPasswordStates, type NewPasswordEffect, type PasswordChangePolicy, type NewPasswordEvent, type PasswordResetContext } from "./password-reset.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import type { OpenedLink } from "./password-link.js"
import type { FlowMeta } from "./run-flow.js"

/**
 * What a forgotten-password request leaves in the browser while the reset code is on its way
 * (`resetBy: "code"` or `"both"`): whom the code was mailed for (`link`: the account's id and
 * address), the keyed hash of the password hash it replaces (`bound`, so the code dies once the
 * password changes), and the code's keyed hash and expiry (epoch ms). For an unknown address, a
 * stand-in of the same shape that no code satisfies. Sealed in the browser while the flow waits.
 */
export interface PasswordResetCodeStart {
  link: OpenedLink
  bound: string
  codeHash: string
  expiresAt: number
}

/**
 * Events of a reset by code: the request that resumes it (the typed code and the new password's
 * policy, never sealed), then what each effect found.
 */
export type PasswordResetCodeEvent = CodeFlowEvent<PasswordChangePolicy> | CsrfEvent | RateLimitEvent | EmailedCodeEvent | NewPasswordEvent

/** Context of a reset by code; sealed while it waits: {@link PasswordResetCodeStart} and the wrong tries so far. */
export interface PasswordResetCodeContext extends PasswordResetContext, EmailedCodeContext {
  link: OpenedLink
  bound: string
}

/** Effects the reset-by-code machine names, in the order a successful flow meets them. */
export type PasswordResetCodeEffect = ClaimFlowEffect | CsrfEffect | RateLimitEffect | EmailedCodeEffect | NewPasswordEffect

/**
 * Resetting a forgotten password by the code its mail carried (`resetBy: "code"` or `"both"`),
 * POST `/reset-password/<id>` with `csrfToken`, the `code` and the new `password`: the forgot
 * request ended in `codeSent` and this flow waits in `awaitingCode`, sealed in that browser (15
 * minutes; the code lives 10). The request resumes it: the flow is claimed once (`flowReplayed`
 * for a copy of its cookie sent again), the CSRF check, the rate limiter (the `password-reset`
 * budget), then the shared code check (`codeExpired`; a wrong code back to `awaitingCode` while
 * tries are left, `attemptsExhausted` at the fifth). The right code goes through the link reset's
 * own steps ({@link newPasswordStates}): the account still bound to the password hash the code was
 * mailed for (`codeStale` once it changed), the new password checked (refused: back to
 * `awaitingCode`, the code still good and no try counted), written compare-and-set, the address
 * marked verified, the user's sessions ended, `password-changed` mailed; `passwordReset`.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(passwordResetCodeMachine, { input: { link: { userId: "u1", email: "ada@example.test" }, bound, codeHash, expiresAt } }).start()
 * actor.getSnapshot().value // "awaitingCode"
 * ```
 */
export const passwordResetCodeMachine = flowMachine(setup({
  types: {
    context: {} as PasswordResetCodeContext,
    events: {} as PasswordResetCodeEvent,
    input: {} as PasswordResetCodeStart,
    meta: {} as FlowMeta<PasswordResetCodeEffect>,
  },
  actions: {
    ...rateLimitActions<PasswordResetCodeContext, PasswordResetCodeEvent>(),
    ...emailedCodeActions<PasswordResetCodeContext, PasswordResetCodeEvent>(),
    ...newPasswordActions<PasswordResetCodeContext, PasswordResetCodeEvent>(),
  },
  guards: {
    ...rateLimitGuards<PasswordResetCodeContext, PasswordResetCodeEvent>(),
    ...emailedCodeGuards<PasswordResetCodeContext, PasswordResetCodeEvent>(),
    ...newPasswordGuards<PasswordResetCodeContext, PasswordResetCodeEvent>(),
  },
}).createMachine)({
  id: "password-reset-code",
  context: ({ input }) => ({ ...input, attempts: 0 }),
  initial: "awaitingCode",
  states: {
    ...awaitingCodeStates("validatingInput"),
    validatingInput: csrfCheckingState("checkingRateLimit"),
    checkingRateLimit: limitingState("checkingCode"),
    checkingCode: checkingCodeState("findingAccount"),
    ...emailedCodeRefusingStates("awaitingCode"),
    // A refused new password waits for the code and a better password again: the code is still good.
    ...newPasswordStates("codeStale", "awaitingCode"),
    ...newPasswordFinalStates,
    ...csrfRejectedState,
    ...rateLimitedState,
    codeStale: { type: "final" },
  },
})
