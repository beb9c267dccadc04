import { assign, setup } from "xstate"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import { findingSessionState, sessionUserActions, type SessionUserContext, type SessionUserEffect, type SessionUserEvent } from "./password-session.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import type { NewPasswordReadEvent, NewPasswordRefusal, NoticeMailEvent, PasswordChangePolicy, PasswordWriteEvent, SessionsEndEvent } from "./password-reset.js"
import type { FlowMeta } from "./run-flow.js"

/** Events of a signed-in password change: what each effect found. */
export type PasswordChangeEvent =
  | CsrfEvent
  | SessionUserEvent
  | RateLimitEvent
  | { type: "password.checked"; valid: boolean }
  | { type: "account.none" }
  | { type: "check.failed"; error: unknown }
  | { type: "attempt.refunded" }
  | NewPasswordReadEvent
  | PasswordWriteEvent
  | SessionsEndEvent
  | NoticeMailEvent

/** Context of a password change. */
export interface PasswordChangeContext extends RateLimitContext, SessionUserContext {
  policy?: PasswordChangePolicy
  refusal?: NewPasswordRefusal
  /** A step after the password was written failed (logged; the change stands): ending sessions, the notice. */
  afterWriteFailed?: ("sessions" | "mail")[]
}

/** Effects the password change machine names. */
export type PasswordChangeEffect = CsrfEffect | SessionUserEffect | RateLimitEffect | "checkCurrentPassword" | "refundAttempt" | "readNewPassword" | "writePassword" | "endOtherSessions" | "notifyPasswordChanged"

const failedAfterWrite = (step: "sessions" | "mail") =>
  assign<PasswordChangeContext, PasswordChangeEvent, undefined, PasswordChangeEvent, never>(({ context, event }) => ({ afterWriteFailed: [...(context.afterWriteFailed ?? []), step], error: (event as { error?: unknown }).error }))

/**
 * A signed-in user changes their password, POST `/change-password/<id>` with `csrfToken`,
 * `currentPassword` and `newPassword`: check CSRF, find the signed-in user (nobody:
 * `signInRequired`), count the attempt (the `credentials` budget: a password is checked), check
 * the current password (wrong: `passwordRejected`; no password account: `noPasswordAccount`), take
 * the attempt back, check the new one (the rules and the app's `checkPassword`: `changeRefused`),
 * and write its hash compare-and-set on the hash that was checked (a reset or another change that
 * won meanwhile: `passwordRejected`). Then, each failure logged and the change standing: end the
 * user's other sessions, keeping this one (`endOtherSessions`), and mail `password-changed` (where
 * the provider mails); `passwordChanged`.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(passwordChangeMachine, { input: { policy: { endsOtherSessions: true } } }).start()
 * actor.send({ type: "csrf.valid" })
 * actor.send({ type: "session.none" })
 * actor.getSnapshot().value // "signInRequired"
 * ```
 */
export const passwordChangeMachine = flowMachine(setup({
  types: {
    context: {} as PasswordChangeContext,
    events: {} as PasswordChangeEvent,
    input: {} as { policy: PasswordChangePolicy },
    meta: {} as FlowMeta<PasswordChangeEffect>,
  },
  actions: {
    ...rateLimitActions<PasswordChangeContext, PasswordChangeEvent>(),
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
    ...sessionUserActions<PasswordChangeContext, PasswordChangeEvent>(),
    recordRefusal: assign({ refusal: ({ event }) => (event.type === "newPassword.read" ? event.problem : undefined) }),
    recordSessionsFailure: failedAfterWrite("sessions"),
    recordMailFailure: failedAfterWrite("mail"),
  },
  guards: {
    ...rateLimitGuards<PasswordChangeContext, PasswordChangeEvent>(),
    /** The current password typed is the account's. */
    passwordValid: ({ event }) => event.type === "password.checked" && event.valid,
    /** The new password breaks the rules, or the app's `checkPassword` refused it. */
    passwordRefused: ({ event }) => event.type === "newPassword.read" && event.problem !== undefined,
    /** The change ends the user's other sessions (`endOtherSessions`, on by default). */
    endsOtherSessions: ({ context }) => context.policy?.endsOtherSessions !== false,
    /** The provider mails (`sendMail`): the account is told its password changed. */
    mailsNotice: ({ context }) => context.policy?.mailsNotice !== false,
  },
}).createMachine)({
  id: "password-change",
  context: ({ input }) => ({ policy: input.policy }),
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("findingSession"),
    findingSession: findingSessionState("checkingRateLimit", "changeFailed"),
    checkingRateLimit: limitingState("checkingPassword"),
    checkingPassword: {
      meta: { effect: "checkCurrentPassword" },
      on: {
        "password.checked": [{ guard: "passwordValid", target: "refundingAttempt" }, { target: "passwordRejected" }],
        "account.none": "noPasswordAccount",
        "check.failed": { target: "changeFailed", actions: "recordError" },
      },
    },
    refundingAttempt: {
      meta: { effect: "refundAttempt" },
      on: { "attempt.refunded": "readingPassword" },
    },
    readingPassword: {
      meta: { effect: "readNewPassword" },
      on: {
        "newPassword.read": [{ guard: "passwordRefused", target: "changeRefused", actions: "recordRefusal" }, { target: "writingPassword" }],
      },
    },
    writingPassword: {
      meta: { effect: "writePassword" },
      on: {
        "password.written": "decidingSessions",
        // A reset or another change won since the current password was checked: it is not the current one any more.
        "password.raced": "passwordRejected",
        "write.failed": { target: "changeFailed", actions: "recordError" },
      },
    },
    // With `endOtherSessions: false` every session is kept.
    decidingSessions: {
      always: [{ guard: "endsOtherSessions", target: "endingOtherSessions" }, { target: "decidingNotice" }],
    },
    endingOtherSessions: {
      meta: { effect: "endOtherSessions" },
      on: {
        "sessions.ended": "decidingNotice",
        "sessions.failed": { target: "decidingNotice", actions: "recordSessionsFailure" },
      },
    },
    decidingNotice: {
      always: [{ guard: "mailsNotice", target: "notifying" }, { target: "passwordChanged" }],
    },
    notifying: {
      meta: { effect: "notifyPasswordChanged" },
      on: {
        "mail.sent": "passwordChanged",
        "mail.failed": { target: "passwordChanged", actions: "recordMailFailure" },
      },
    },
    ...csrfRejectedState,
    ...rateLimitedState,
    signInRequired: { type: "final" },
    passwordRejected: { type: "final" },
    noPasswordAccount: { type: "final" },
    changeRefused: { type: "final" },
    passwordChanged: { type: "final" },
    changeFailed: { type: "final" },
  },
})
