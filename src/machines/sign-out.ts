import { assign, setup } from "xstate"

/** Events of the sign-out flow, each the outcome of the effect its state names. */
export type SignOutEvent =
  | { type: "csrf.valid" }
  | { type: "csrf.invalid" }
  | { type: "session.found" }
  | { type: "session.none" }
  | { type: "session.ended" }
  | { type: "session.endFailed"; error: unknown }

/** Context of a sign-out flow. */
export interface SignOutContext {
  error?: unknown
}

/** Effects the sign-out machine names. */
export type SignOutEffect = "checkCsrf" | "findSession" | "endSession"

/**
 * The sign-out flow, POST `/signout`: check CSRF, find the session, end it (decode the JWT or
 * delete the database row, then `events.signOut`). The engine clears the session cookies in every
 * final state but `csrfRejected`.
 *
 * @example
 * ```ts
 * const actor = createActor(signOutMachine).start()
 * actor.send({ type: "csrf.valid" })
 * actor.send({ type: "session.none" })
 * actor.getSnapshot().value // "signedOut"
 * ```
 */
export const signOutMachine = setup({
  types: {
    context: {} as SignOutContext,
    events: {} as SignOutEvent,
  },
}).createMachine({
  id: "sign-out",
  context: {},
  initial: "validatingInput",
  states: {
    validatingInput: {
      meta: { effect: "checkCsrf" },
      on: { "csrf.valid": "findingSession", "csrf.invalid": "csrfRejected" },
    },
    findingSession: {
      meta: { effect: "findSession" },
      on: { "session.found": "endingSession", "session.none": "signedOut" },
    },
    endingSession: {
      meta: { effect: "endSession" },
      on: {
        "session.ended": "signedOut",
        "session.endFailed": { target: "endFailed", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    signedOut: { type: "final" },
    endFailed: { type: "final" },
    csrfRejected: { type: "final" },
  },
})
