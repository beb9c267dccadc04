import { assign, setup } from "xstate"
import type { FlowMeta } from "./run-flow.js"

/** How sessions are kept: a JWT in the cookie, or a database row the cookie names. */
export type SessionStrategy = "jwt" | "database"

/** What the session that ended recorded of its sign-in: the provider, and its ID token when kept. */
export interface EndedSession {
  provider?: string
  idToken?: string
}

/**
 * Events of the sign-out flow, each the outcome of the effect its state names: what the request
 * carried, what decoding the JWT or deleting the row gave, what the provider's metadata said.
 */
export type SignOutEvent =
  | { type: "csrf.valid" }
  | { type: "csrf.invalid" }
  | { type: "session.found"; strategy: SessionStrategy }
  | { type: "session.none" }
  | ({ type: "token.decoded" } & EndedSession)
  | { type: "decode.failed"; error: unknown }
  | ({ type: "session.deleted" } & EndedSession)
  | { type: "delete.failed"; error: unknown }
  | { type: "endSession.found"; url: string }
  | { type: "endSession.missing" }
  | { type: "discovery.failed"; error: unknown }

/** What the sign-out machine reads of the configuration: the providers whose sessions sign-out also ends. */
export interface SignOutPolicy {
  providersEndingSession: readonly string[]
}

/** Context of a sign-out flow: the session that ended, where the provider ends its own, and what failed. */
export interface SignOutContext {
  policy: SignOutPolicy
  ended?: EndedSession
  endSessionUrl?: string
  error?: unknown
}

/** Effects the sign-out machine names. */
export type SignOutEffect = "checkCsrf" | "findSession" | "decodeToken" | "deleteSession" | "findEndSession"

/**
 * The sign-out flow, POST `/signout`: check CSRF, find the session cookie, then end the session
 * the way the configuration keeps it: decode the JWT (for `events.signOut`), or delete the
 * database row (and hand it to `events.signOut`). When the session came from a provider configured
 * with `endSessionAtProvider`, the provider's end-session endpoint is looked up and the browser is
 * sent there (`signedOutAtProvider`); a provider without one, or whose metadata cannot be read,
 * leaves a local sign-out (`signedOutLocally`, logged). The engine clears the session cookies in
 * every final state but `csrfRejected`, so a session that could not be ended (`endFailed`) is
 * still gone from the browser.
 *
 * @example
 * ```ts
 * const actor = createActor(signOutMachine, { input: { policy: { providersEndingSession: [] } } }).start()
 * actor.send({ type: "csrf.valid" })
 * actor.send({ type: "session.found", strategy: "database" })
 * actor.getSnapshot().value // "deletingSession"
 * ```
 */
export const signOutMachine = setup({
  types: {
    context: {} as SignOutContext,
    events: {} as SignOutEvent,
    input: {} as { policy?: SignOutPolicy } | undefined,
    meta: {} as FlowMeta<SignOutEffect>,
  },
  actions: {
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
    recordEndedSession: assign({
      ended: ({ event }) => ("provider" in event || "idToken" in event ? { provider: (event as EndedSession).provider, idToken: (event as EndedSession).idToken } : {}),
    }),
    recordEndSessionUrl: assign({ endSessionUrl: ({ event }) => (event.type === "endSession.found" ? event.url : undefined) }),
  },
  guards: {
    /** Sessions are JWTs: there is nothing to delete, only a token to read for `events.signOut`. */
    jwtSession: ({ event }) => event.type === "session.found" && event.strategy === "jwt",
    /** The session came from a provider configured to end its own session too (`endSessionAtProvider`). */
    providerEndsSession: ({ context, event }) => {
      const provider = (event as { provider?: string }).provider
      return provider !== undefined && context.policy.providersEndingSession.includes(provider)
    },
  },
}).createMachine({
  id: "sign-out",
  context: ({ input }) => ({ policy: input?.policy ?? { providersEndingSession: [] } }),
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
        "token.decoded": [
          { guard: "providerEndsSession", target: "findingEndSession", actions: "recordEndedSession" },
          { target: "signedOut" },
        ],
        "decode.failed": { target: "endFailed", actions: "recordError" },
      },
    },
    deletingSession: {
      meta: { effect: "deleteSession" },
      on: {
        "session.deleted": [
          { guard: "providerEndsSession", target: "findingEndSession", actions: "recordEndedSession" },
          { target: "signedOut" },
        ],
        "delete.failed": { target: "endFailed", actions: "recordError" },
      },
    },
    findingEndSession: {
      meta: { effect: "findEndSession" },
      on: {
        "endSession.found": { target: "signedOutAtProvider", actions: "recordEndSessionUrl" },
        "endSession.missing": "signedOutLocally",
        "discovery.failed": { target: "signedOutLocally", actions: "recordError" },
      },
    },
    signedOut: { type: "final" },
    signedOutAtProvider: { type: "final" },
    signedOutLocally: { type: "final" },
    endFailed: { type: "final" },
    csrfRejected: { type: "final" },
  },
})
