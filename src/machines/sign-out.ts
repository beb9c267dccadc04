import { setup } from "xstate"
import { flowActions } from "./sign-in-tail.js"
import type { FlowMeta } from "./run-flow.js"

/** How sessions are kept: a JWT in the cookie, or a database row the cookie names. */
export type SessionStrategy = "jwt" | "database"

/**
 * Events of the sign-out flow, each the outcome of the effect its state names: what the request
 * carried, what decoding the JWT or deleting the row gave.
 */
export type SignOutEvent =
  | { type: "csrf.valid" }
  | { type: "csrf.invalid" }
  | { type: "session.found"; strategy: SessionStrategy }
  | { type: "session.none" }
  | { type: "token.decoded" }
  | { type: "decode.failed"; error: unknown }
  | { type: "session.deleted" }
  | { type: "delete.failed"; error: unknown }

/** Context of a sign-out flow: what made ending the session fail. */
export interface SignOutContext {
  error?: unknown
}

/** Effects the sign-out machine names. */
export type SignOutEffect = "checkCsrf" | "findSession" | "decodeToken" | "deleteSession"

/**
 * The sign-out flow, POST `/signout`: check CSRF, find the session cookie, then end the session
 * the way the configuration keeps it: decode the JWT (for `events.signOut`), or delete the
 * database row (and hand it to `events.signOut`). The engine clears the session cookies in every
 * final state but `csrfRejected`, so a session that could not be ended (`endFailed`) is still
 * gone from the browser.
 *
 * @example
 * ```ts
 * const actor = createActor(signOutMachine).start()
 * actor.send({ type: "csrf.valid" })
 * actor.send({ type: "session.found", strategy: "database" })
 * actor.getSnapshot().value // "deletingSession"
 * ```
 */
export const signOutMachine = setup({
  types: {
    context: {} as SignOutContext,
    events: {} as SignOutEvent,
    meta: {} as FlowMeta<SignOutEffect>,
  },
  actions: flowActions<SignOutContext, SignOutEvent>(),
  guards: {
    /** Sessions are JWTs: there is nothing to delete, only a token to read for `events.signOut`. */
    jwtSession: ({ event }) => event.type === "session.found" && event.strategy === "jwt",
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
      on: {
        "session.found": [{ guard: "jwtSession", target: "decodingToken" }, { target: "deletingSession" }],
        "session.none": "signedOut",
      },
    },
    decodingToken: {
      meta: { effect: "decodeToken" },
      on: {
        "token.decoded": "signedOut",
        "decode.failed": { target: "endFailed", actions: "recordError" },
      },
    },
    deletingSession: {
      meta: { effect: "deleteSession" },
      on: {
        "session.deleted": "signedOut",
        "delete.failed": { target: "endFailed", actions: "recordError" },
      },
    },
    signedOut: { type: "final" },
    endFailed: { type: "final" },
    csrfRejected: { type: "final" },
  },
})
