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

/** What the steps after a proven reset mail report (see {@link newPasswordStates}). */
export type NewPasswordEvent =
  /** The mail's account, with whether the mail is still bound to its password hash (it changed since: no), and whether its address is verified. */
  | { type: "account.found"; bound: boolean; verified: boolean }
  | { type: "account.missing" }
  | { type: "lookup.failed"; error: unknown }
  | NewPasswordReadEvent
  | PasswordWriteEvent
  | { type: "email.verified" }
  | { type: "verify.failed"; error: unknown }
  | SessionsEndEvent
  | NoticeMailEvent

/** Events of a password reset: what each effect found. */
export type PasswordResetEvent = CsrfEvent | LinkEvent | RateLimitEvent | NewPasswordEvent

/** Context of a password reset. */
export interface PasswordResetContext extends LinkContext, RateLimitContext {
  policy?: PasswordChangePolicy
  verified?: boolean
  refusal?: NewPasswordRefusal
  /** A step after the password was written failed (logged; the reset stands): marking the address verified, ending sessions, the notice. */
  afterWriteFailed?: ("verify" | "sessions" | "mail")[]
}

/** Effects the password reset machine names. */
export type PasswordResetEffect = CsrfEffect | LinkEffect | RateLimitEffect | NewPasswordEffect

const found = (event: { type: string }) => (event.type === "account.found" ? (event as Extract<PasswordResetEvent, { type: "account.found" }>) : undefined)
/** The effects of setting a forgotten password's new one, once the mail (its link or its code) was proven. */
export type NewPasswordEffect = "findLinkedAccount" | "readNewPassword" | "writePassword" | "markVerified" | "endSessions" | "notifyPasswordChanged"

/**
 * Setting a forgotten password's new one, defined once for the reset link and the reset code:
 * find the account and check the mail is still bound to its password hash (not once the password
 * changed: `stale`), check the new password (refused: `refused`, with `recordRefusal`), write its
 * hash compare-and-set on the bound one (lost: `stale`), then, each failure logged and the reset
 * standing, mark the address verified (the mail proved it), end the user's sessions
 * (`endOtherSessions`) and mail `password-changed`; `passwordReset`. Spread `resetFailed` and
 * `passwordReset` final states in too ({@link newPasswordFinalStates}), and
 * {@link newPasswordGuards} and {@link newPasswordActions} into the setup.
 *
 * @param stale - The final state of a mail no longer bound to the account's password.
 * @param refused - Where a refused new password goes.
 * @example
 * ```ts
 * createMachine({ states: { checkingRateLimit: limitingState("findingAccount"), ...newPasswordStates("linkStale", "resetRefused"), ...newPasswordFinalStates, … } })
 * ```
 */
export function newPasswordStates<const TStale extends string, const TRefused extends string>(stale: TStale, refused: TRefused) {
  return {
    findingAccount: {
      meta: { effect: "findLinkedAccount" },
      on: {
        "account.found": [{ guard: "linkUnbound", target: stale }, { target: "readingPassword", actions: "recordAccount" }],
        // The user or their password account is gone.
        "account.missing": stale,
        "lookup.failed": { target: "resetFailed", actions: "recordError" },
      },
    },
    readingPassword: {
      meta: { effect: "readNewPassword" },
      on: {
        "newPassword.read": [{ guard: "passwordRefused", target: refused, actions: "recordRefusal" }, { target: "writingPassword" }],
      },
    },
    writingPassword: {
      meta: { effect: "writePassword" },
      on: {
        "password.written": [{ guard: "alreadyVerified", target: "decidingSessions" }, { target: "markingVerified" }],
        // Another change of this password won (this mail used twice at once, a reset, a rehash): this mail is spent.
        "password.raced": stale,
        "write.failed": { target: "resetFailed", actions: "recordError" },
      },
    },
    // A reset link or code proves the address: it was read in its inbox.
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
  } as const
}

/**
 * The final states {@link newPasswordStates} ends in: the password set, or the store failing before it was.
 *
 * @example
 * ```ts
 * createMachine({ states: { ...newPasswordStates("linkStale", "resetRefused"), ...newPasswordFinalStates, … } })
 * ```
 */
export const newPasswordFinalStates = {
  passwordReset: { type: "final" },
  resetFailed: { type: "final" },
} as const

/**
 * The named actions of {@link newPasswordStates}, for a setup's `actions`.
 *
 * @example
 * ```ts
 * setup({ actions: { ...newPasswordActions<MyContext, MyEvent>() } })
 * ```
 */
export function newPasswordActions<TContext extends PasswordResetContext, TEvent extends { type: string }>() {
  const record = (update: (context: TContext, event: TEvent) => Partial<PasswordResetContext>) => assign<TContext, TEvent, undefined, TEvent, never>(({ context, event }) => update(context, event) as Partial<TContext>)
  const errorOf = (event: TEvent) => (event as { error?: unknown }).error
  const failedAfterWrite = (step: "verify" | "sessions" | "mail") => record((context, event) => ({ afterWriteFailed: [...(context.afterWriteFailed ?? []), step], error: errorOf(event) }))
  return {
    recordError: record((_, event) => ({ error: errorOf(event) })),
    recordAccount: record((_, event) => ({ verified: found(event)?.verified === true })),
    recordRefusal: record((_, event) => ({ refusal: event.type === "newPassword.read" ? (event as NewPasswordReadEvent).problem : undefined })),
    recordVerifyFailure: failedAfterWrite("verify"),
    recordSessionsFailure: failedAfterWrite("sessions"),
    recordMailFailure: failedAfterWrite("mail"),
  }
}

/**
 * The guards of {@link newPasswordStates}, for a setup's `guards`.
 *
 * @example
 * ```ts
 * setup({ guards: { ...newPasswordGuards<MyContext, MyEvent>() } })
 * ```
 */
export function newPasswordGuards<TContext extends PasswordResetContext, TEvent extends { type: string }>() {
  return {
    /** The password changed since the mail was sent: its hash is not the one the mail is bound to. */
    linkUnbound: ({ event }: { context: TContext; event: TEvent }) => found(event)?.bound === false,
    /** The new password breaks the rules, or the app's `checkPassword` refused it. */
    passwordRefused: ({ event }: { context: TContext; event: TEvent }) => event.type === "newPassword.read" && (event as NewPasswordReadEvent).problem !== undefined,
    /** The address is verified already: nothing to write. */
    alreadyVerified: ({ context }: { context: TContext; event: TEvent }) => context.verified === true,
    /** The reset ends the user's sessions (`endOtherSessions`, on by default). */
    endsOtherSessions: ({ context }: { context: TContext; event: TEvent }) => context.policy?.endsOtherSessions !== false,
  }
}

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
    ...newPasswordActions<PasswordResetContext, PasswordResetEvent>(),
  },
  guards: {
    ...rateLimitGuards<PasswordResetContext, PasswordResetEvent>(),
    ...newPasswordGuards<PasswordResetContext, PasswordResetEvent>(),
  },
}).createMachine)({
  id: "password-reset",
  context: ({ input }) => ({ policy: input.policy }),
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("openingLink"),
    openingLink: openingLinkState("checkingRateLimit"),
    checkingRateLimit: limitingState("findingAccount"),
    ...newPasswordStates("linkStale", "resetRefused"),
    ...linkRefusedStates,
    ...csrfRejectedState,
    ...rateLimitedState,
    resetRefused: { type: "final" },
    ...newPasswordFinalStates,
  },
})
