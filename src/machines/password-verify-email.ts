import { assign, setup } from "xstate"
import { flowMachine } from "./flow-machine.js"
import { linkActions, linkRefusedStates, openingLinkState, type LinkContext, type LinkEffect, type LinkEvent } from "./password-link.js"
import type { FlowMeta } from "./run-flow.js"

/**
 * What the `findLinkedUser` effect found of the link's user: whether the account still has the
 * address the link was sent for (`bound`), and whether that address is verified already.
 */
export type LinkedUserEvent = { type: "user.found"; bound: boolean; verified: boolean } | { type: "user.missing" } | { type: "lookup.failed"; error: unknown }

/** Events of the address verification flow: what each effect found. */
export type PasswordVerifyEmailEvent = LinkEvent | LinkedUserEvent | { type: "email.verified" } | { type: "update.failed"; error: unknown }

/** Context of an address verification. */
export interface PasswordVerifyEmailContext extends LinkContext {
  error?: unknown
}

/** Effects the address verification machine names. */
export type PasswordVerifyEmailEffect = LinkEffect | "findLinkedUser" | "markVerified"

const found = (event: PasswordVerifyEmailEvent) => (event.type === "user.found" ? event : undefined)

/**
 * The link that verifies a Password account's address, GET `/verify-email/<id>?token=…`: open the
 * token (missing, invalid or expired: each its own final state), find its user (gone, or no longer
 * at the address the link was sent for: `linkStale`), and mark the address verified, unless it
 * already is (following the link twice verifies once). It does not sign in: the user signs in with
 * their password next.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(passwordVerifyEmailMachine).start()
 * actor.send({ type: "link.expired" })
 * actor.getSnapshot().value // "linkExpired"
 * ```
 */
export const passwordVerifyEmailMachine = flowMachine(setup({
  types: {
    context: {} as PasswordVerifyEmailContext,
    events: {} as PasswordVerifyEmailEvent,
    meta: {} as FlowMeta<PasswordVerifyEmailEffect>,
  },
  actions: {
    ...linkActions<PasswordVerifyEmailContext, PasswordVerifyEmailEvent>(),
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
  },
  guards: {
    /** The account's address is no longer the one the link was sent for. */
    linkUnbound: ({ event }) => found(event)?.bound === false,
    /** The address is verified already: nothing to write. */
    alreadyVerified: ({ event }) => found(event)?.verified === true,
  },
}).createMachine)({
  id: "password-verify-email",
  context: {},
  initial: "openingLink",
  states: {
    openingLink: openingLinkState("findingUser"),
    findingUser: {
      meta: { effect: "findLinkedUser" },
      on: {
        "user.found": [{ guard: "linkUnbound", target: "linkStale" }, { guard: "alreadyVerified", target: "emailVerified" }, { target: "markingVerified" }],
        "user.missing": "linkStale",
        "lookup.failed": { target: "verifyFailed", actions: "recordError" },
      },
    },
    markingVerified: {
      meta: { effect: "markVerified" },
      on: {
        "email.verified": "emailVerified",
        "update.failed": { target: "verifyFailed", actions: "recordError" },
      },
    },
    ...linkRefusedStates,
    emailVerified: { type: "final" },
    verifyFailed: { type: "final" },
  },
})
