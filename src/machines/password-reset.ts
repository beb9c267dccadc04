import { assign, setup } from "xstate"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import { linkActions, linkRefusedStates, openingLinkState, type LinkContext, type LinkEffect, type LinkEvent } from "./password-link.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import type { FlowMeta } from "./run-flow.js"

/** Why a new password was refused: the length rules (code points after NFKC), not a string, or the app's `checkPassword`. */
export type NewPasswordRefusal = "too-short" | "too-long" | "not-a-string" | "refused-password"

/** What the rules and the app's `checkPassword` say of a new password (the `readNewPassword` effect). */
export type NewPasswordReadEvent = { type: "newPassword.read"; problem?: NewPasswordRefusal }

/** What writing a new hash reports: written, or lost to another change of the same password (compare-and-set). */
export type PasswordWriteEvent = { type: "password.written" } | { type: "password.raced" } | { type: "write.failed"; error: unknown }

/** What ending the user's other sessions reports. */
export type SessionsEndEvent = { type: "sessions.ended" } | { type: "sessions.failed"; error: unknown }

/** What a password change's mail to the account reports. */
export type NoticeMailEvent = { type: "mail.sent" } | { type: "mail.failed"; error: unknown }

/** What a password reset or change follows: whether it ends the user's other sessions (`endOtherSessions`). */
export interface PasswordChangePolicy {
  /** @default true */
  endsOtherSessions: boolean
  /** Whether the account is mailed `password-changed` (the provider has `sendMail`). @default true */
  mailsNotice?: boolean
}

/** Events of a password reset: what each effect found. */
export type PasswordResetEvent =
  | CsrfEvent
  | LinkEvent
  | RateLimitEvent
  /** The link's account, with whether the link is still bound to its password hash (it changed since: no), and whether its address is verified. */
  | { type: "account.found"; bound: boolean; verified: boolean }
  | { type: "account.missing" }
  | { type: "lookup.failed"; error: unknown }
  | NewPasswordReadEvent
  | PasswordWriteEvent
  | { type: "email.verified" }
  | { type: "verify.failed"; error: unknown }
  | SessionsEndEvent
  | NoticeMailEvent

/** Context of a password reset. */
export interface PasswordResetContext extends LinkContext, RateLimitContext {
  policy?: PasswordChangePolicy
  verified?: boolean
  refusal?: NewPasswordRefusal
  /** A step after the password was written failed (logged; the reset stands): marking the address verified, ending sessions, the notice. */
  afterWriteFailed?: ("verify" | "sessions" | "mail")[]
}

/** Effects the password reset machine names. */
export type PasswordResetEffect = CsrfEffect | LinkEffect | RateLimitEffect | "findLinkedAccount" | "readNewPassword" | "writePassword" | "markVerified" | "endSessions" | "notifyPasswordChanged"

const found = (event: PasswordResetEvent) => (event.type === "account.found" ? event : undefined)
const failedAfterWrite = (step: "verify" | "sessions" | "mail") =>
  assign<PasswordResetContext, PasswordResetEvent, undefined, PasswordResetEvent, never>(({ context, event }) => ({ afterWriteFailed: [...(context.afterWriteFailed ?? []), step], error: (event as { error?: unknown }).error }))

/**
 * Resetting a forgotten password, POST `/reset-password/<id>` with `csrfToken`, the mailed `token`
 * and the new `password`: check CSRF, open the link (missing, invalid, expired: each its own final
 * state), count the attempt (per client and per account, the `password-reset` budget), find the
 * account and check the link is still bound to its password hash (it is not once the password
 * changed, by this link, another, a change or a rehash: `linkStale`), check the new password (the
 * rules and the app's `checkPassword`: `resetRefused`, the link still good), and write its hash
 * compare-and-set on the hash the link was bound to (of two resets racing with one link, exactly
 * one writes; the other ends in `linkStale`). Then, each failure logged and the reset standing:
 * mark the address verified (the link proved it), end the user's sessions (`endOtherSessions`),
 * and mail `password-changed`; `passwordReset`.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(passwordResetMachine, { input: { policy: { endsOtherSessions: true } } }).start()
 * actor.send({ type: "csrf.valid" })
 * actor.send({ type: "link.expired" })
 * actor.getSnapshot().value // "linkExpired"
 * ```
 */
export const passwordResetMachine = flowMachine(setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
    input: {} as { policy: PasswordChangePolicy },
    meta: {} as FlowMeta<PasswordResetEffect>,
  },
  actions: {
    ...linkActions<PasswordResetContext, PasswordResetEvent>(),
    ...rateLimitActions<PasswordResetContext, PasswordResetEvent>(),
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
    recordAccount: assign({ verified: ({ event }) => found(event)?.verified === true }),
    recordRefusal: assign({ refusal: ({ event }) => (event.type === "newPassword.read" ? event.problem : undefined) }),
    recordVerifyFailure: failedAfterWrite("verify"),
    recordSessionsFailure: failedAfterWrite("sessions"),
    recordMailFailure: failedAfterWrite("mail"),
  },
  guards: {
    ...rateLimitGuards<PasswordResetContext, PasswordResetEvent>(),
    /** The password changed since the link was mailed: its hash is not the one the link is bound to. */
    linkUnbound: ({ event }) => found(event)?.bound === false,
    /** The new password breaks the rules, or the app's `checkPassword` refused it. */
    passwordRefused: ({ event }) => event.type === "newPassword.read" && event.problem !== undefined,
    /** The address is verified already: nothing to write. */
    alreadyVerified: ({ context }) => context.verified === true,
    /** The reset ends the user's sessions (`endOtherSessions`, on by default). */
    endsOtherSessions: ({ context }) => context.policy?.endsOtherSessions !== false,
  },
}).createMachine)({
  id: "password-reset",
  context: ({ input }) => ({ policy: input.policy }),
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("openingLink"),
    openingLink: openingLinkState("checkingRateLimit"),
    checkingRateLimit: limitingState("findingAccount"),
    findingAccount: {
      meta: { effect: "findLinkedAccount" },
      on: {
        "account.found": [{ guard: "linkUnbound", target: "linkStale" }, { target: "readingPassword", actions: "recordAccount" }],
        // The user or their password account is gone.
        "account.missing": "linkStale",
        "lookup.failed": { target: "resetFailed", actions: "recordError" },
      },
    },
    readingPassword: {
      meta: { effect: "readNewPassword" },
      on: {
        "newPassword.read": [{ guard: "passwordRefused", target: "resetRefused", actions: "recordRefusal" }, { target: "writingPassword" }],
      },
    },
    writingPassword: {
      meta: { effect: "writePassword" },
      on: {
        "password.written": [{ guard: "alreadyVerified", target: "decidingSessions" }, { target: "markingVerified" }],
        // Another change of this password won (this link used twice at once, a reset, a rehash): this link is spent.
        "password.raced": "linkStale",
        "write.failed": { target: "resetFailed", actions: "recordError" },
      },
    },
    // A reset link proves the address: it was followed from its inbox.
    markingVerified: {
      meta: { effect: "markVerified" },
      on: {
        "email.verified": "decidingSessions",
        "verify.failed": { target: "decidingSessions", actions: "recordVerifyFailure" },
      },
    },
    // With `endOtherSessions: false` every session is kept.
    decidingSessions: {
      always: [{ guard: "endsOtherSessions", target: "endingOtherSessions" }, { target: "notifying" }],
    },
    endingOtherSessions: {
      meta: { effect: "endSessions" },
      on: {
        "sessions.ended": "notifying",
        "sessions.failed": { target: "notifying", actions: "recordSessionsFailure" },
      },
    },
    notifying: {
      meta: { effect: "notifyPasswordChanged" },
      on: {
        "mail.sent": "passwordReset",
        "mail.failed": { target: "passwordReset", actions: "recordMailFailure" },
      },
    },
    ...linkRefusedStates,
    ...csrfRejectedState,
    ...rateLimitedState,
    resetRefused: { type: "final" },
    passwordReset: { type: "final" },
    resetFailed: { type: "final" },
  },
})
