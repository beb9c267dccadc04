import { assign, setup } from "xstate"
import { flowMachine } from "./flow-machine.js"
import { linkActions, linkRefusedStates, openingLinkState, type LinkContext, type LinkEffect, type LinkEvent } from "./password-link.js"
import type { LinkedUserEvent } from "./password-verify-email.js"
import type { FlowMeta } from "./run-flow.js"

/** Events of the email change confirmation: what each effect found. */
export type PasswordConfirmEmailEvent =
  | LinkEvent
  | LinkedUserEvent
  | { type: "newEmail.free" }
  | { type: "newEmail.taken" }
  | { type: "email.changed" }
  | { type: "update.failed"; error: unknown }
  | { type: "mail.sent" }
  | { type: "mail.failed"; error: unknown }

/** Context of an email change confirmation. */
export interface PasswordConfirmEmailContext extends LinkContext {
  error?: unknown
  /** The notice to the old address could not be sent (logged; the change stands). */
  noticeFailed?: boolean
}

/** Effects the email change confirmation machine names. */
export type PasswordConfirmEmailEffect = LinkEffect | "findLinkedUser" | "findNewEmail" | "changeEmail" | "notifyOldAddress"

/**
 * The link that confirms a Password account's new address, GET `/confirm-email/<id>?token=…`
 * (mailed to the new address by POST `/change-email/<id>`): open the token (missing, invalid,
 * expired: each its own final state), find its user still at the old address (the link is bound to
 * it: once the address changed, by this link or another, it is `linkStale`), check the new address
 * is still free (another account may have taken it since the mail: `newEmailTaken`), write the new
 * address as verified, and tell the old address. The notice failing does not undo the change: it is
 * logged and the change stands.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(passwordConfirmEmailMachine).start()
 * actor.send({ type: "link.opened", link: { userId: "u1", email: "ada@old.test", newEmail: "ada@new.test" } })
 * actor.send({ type: "user.found", bound: true, verified: true })
 * actor.send({ type: "newEmail.taken" })
 * actor.getSnapshot().value // "newEmailTaken"
 * ```
 */
export const passwordConfirmEmailMachine = flowMachine(setup({
  types: {
    context: {} as PasswordConfirmEmailContext,
    events: {} as PasswordConfirmEmailEvent,
    meta: {} as FlowMeta<PasswordConfirmEmailEffect>,
  },
  actions: {
    ...linkActions<PasswordConfirmEmailContext, PasswordConfirmEmailEvent>(),
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
    recordNoticeFailure: assign({ noticeFailed: () => true, error: ({ event }) => (event as { error?: unknown }).error }),
  },
  guards: {
    /** The account's address is no longer the one the change was asked from. */
    linkUnbound: ({ event }) => event.type === "user.found" && !event.bound,
  },
}).createMachine)({
  id: "password-confirm-email",
  context: {},
  initial: "openingLink",
  states: {
    openingLink: openingLinkState("findingUser"),
    findingUser: {
      meta: { effect: "findLinkedUser" },
      on: {
        "user.found": [{ guard: "linkUnbound", target: "linkStale" }, { target: "findingNewEmail" }],
        "user.missing": "linkStale",
        "lookup.failed": { target: "changeFailed", actions: "recordError" },
      },
    },
    // Checked again here: the address was free when the link was mailed, a day may have passed.
    findingNewEmail: {
      meta: { effect: "findNewEmail" },
      on: {
        "newEmail.free": "changingEmail",
        "newEmail.taken": "newEmailTaken",
        "lookup.failed": { target: "changeFailed", actions: "recordError" },
      },
    },
    changingEmail: {
      meta: { effect: "changeEmail" },
      on: {
        "email.changed": "notifyingOldAddress",
        "update.failed": { target: "changeFailed", actions: "recordError" },
      },
    },
    notifyingOldAddress: {
      meta: { effect: "notifyOldAddress" },
      on: {
        "mail.sent": "emailChanged",
        "mail.failed": { target: "emailChanged", actions: "recordNoticeFailure" },
      },
    },
    ...linkRefusedStates,
    newEmailTaken: { type: "final" },
    emailChanged: { type: "final" },
    changeFailed: { type: "final" },
  },
})
