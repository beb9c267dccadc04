import { assign, setup } from "xstate"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import { findingSessionState, sessionUserActions, type SessionUserContext, type SessionUserEffect, type SessionUserEvent } from "./password-session.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import type { FlowMeta } from "./run-flow.js"

/** Why an email change was refused before the password was checked. */
export type ChangeEmailRefusal = "invalid-email" | "same-email"

/** What the change form carries (the `readChange` effect): the new address in its canonical form, or what is wrong with it. */
export type ChangeEmailReadEvent = { type: "change.read"; newEmail?: string; emailProblem?: string }

/** Events of the email change request: what each effect found. */
export type PasswordChangeEmailEvent =
  | CsrfEvent
  | SessionUserEvent
  | RateLimitEvent
  | ChangeEmailReadEvent
  | { type: "password.checked"; valid: boolean }
  | { type: "account.none" }
  | { type: "check.failed"; error: unknown }
  | { type: "newEmail.free" }
  | { type: "newEmail.taken" }
  | { type: "lookup.failed"; error: unknown }
  | { type: "mail.sent" }
  | { type: "mail.failed"; error: unknown }

/** Context of an email change request. */
export interface PasswordChangeEmailContext extends RateLimitContext, SessionUserContext {
  newEmail?: string
  refusal?: ChangeEmailRefusal
  error?: unknown
}

/** Effects the email change machine names. */
export type PasswordChangeEmailEffect = CsrfEffect | SessionUserEffect | RateLimitEffect | "readChange" | "checkPassword" | "findNewEmail" | "mailConfirmation" | "notifyOwner"

const read = (event: PasswordChangeEmailEvent) => (event.type === "change.read" ? event : undefined)

/**
 * A signed-in user's request to change their Password account's address, POST
 * `/change-email/<id>` with `csrfToken`, `newEmail` and the current `password`: check CSRF, find
 * the signed-in user (nobody: `signInRequired`), count the attempt (it checks a password), read the
 * new address (not one, or the same: `changeRefused`), check the password (re-authentication:
 * `passwordRejected`; a user without a password account: `noPasswordAccount`), and look the new
 * address up. A free address is mailed the confirmation link; a taken one is mailed a notice
 * instead, so that the answer (`changeRequested`) does not tell whether an address has an account.
 * Nothing changes until the link is followed (the `password-confirm-email` machine).
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(passwordChangeEmailMachine).start()
 * actor.send({ type: "csrf.valid" })
 * actor.send({ type: "session.none" })
 * actor.getSnapshot().value // "signInRequired"
 * ```
 */
export const passwordChangeEmailMachine = flowMachine(setup({
  types: {
    context: {} as PasswordChangeEmailContext,
    events: {} as PasswordChangeEmailEvent,
    meta: {} as FlowMeta<PasswordChangeEmailEffect>,
  },
  actions: {
    ...rateLimitActions<PasswordChangeEmailContext, PasswordChangeEmailEvent>(),
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
    ...sessionUserActions<PasswordChangeEmailContext, PasswordChangeEmailEvent>(),
    recordRefusal: assign({ refusal: ({ event }) => (read(event)?.newEmail === undefined || read(event)?.emailProblem !== undefined ? ("invalid-email" as const) : ("same-email" as const)) }),
    recordNewEmail: assign({ newEmail: ({ event }) => read(event)?.newEmail }),
  },
  guards: {
    ...rateLimitGuards<PasswordChangeEmailContext, PasswordChangeEmailEvent>(),
    /** The new address is missing or not one authflow accepts. */
    emailInvalid: ({ event }) => read(event) !== undefined && (read(event)!.newEmail === undefined || read(event)!.emailProblem !== undefined),
    /** The new address is the one the account has. */
    sameEmail: ({ context, event }) => read(event)?.newEmail === context.user?.email,
    /** The password typed is the account's. */
    passwordValid: ({ event }) => event.type === "password.checked" && event.valid,
  },
}).createMachine)({
  id: "password-change-email",
  context: {},
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("findingSession"),
    findingSession: findingSessionState("checkingRateLimit", "changeFailed"),
    checkingRateLimit: limitingState("readingChange"),
    readingChange: {
      meta: { effect: "readChange" },
      on: {
        "change.read": [
          { guard: "emailInvalid", target: "changeRefused", actions: "recordRefusal" },
          { guard: "sameEmail", target: "changeRefused", actions: "recordRefusal" },
          { target: "checkingPassword", actions: "recordNewEmail" },
        ],
      },
    },
    checkingPassword: {
      meta: { effect: "checkPassword" },
      on: {
        "password.checked": [{ guard: "passwordValid", target: "findingNewEmail" }, { target: "passwordRejected" }],
        "account.none": "noPasswordAccount",
        "check.failed": { target: "changeFailed", actions: "recordError" },
      },
    },
    findingNewEmail: {
      meta: { effect: "findNewEmail" },
      on: {
        "newEmail.free": "mailingConfirmation",
        // Answered as a free one: the owner of the address is told instead, nobody else learns it has an account.
        "newEmail.taken": "notifyingOwner",
        "lookup.failed": { target: "changeFailed", actions: "recordError" },
      },
    },
    mailingConfirmation: {
      meta: { effect: "mailConfirmation" },
      on: { "mail.sent": "changeRequested", "mail.failed": { target: "mailFailed", actions: "recordError" } },
    },
    notifyingOwner: {
      meta: { effect: "notifyOwner" },
      on: { "mail.sent": "changeRequested", "mail.failed": { target: "mailFailed", actions: "recordError" } },
    },
    ...csrfRejectedState,
    ...rateLimitedState,
    signInRequired: { type: "final" },
    changeRefused: { type: "final" },
    passwordRejected: { type: "final" },
    noPasswordAccount: { type: "final" },
    changeRequested: { type: "final" },
    mailFailed: { type: "final" },
    changeFailed: { type: "final" },
  },
})
