import { and, assign, setup } from "xstate"
import type { FlowMeta } from "./run-flow.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"

/** How sessions are kept: a JWT in the cookie, or a database row the cookie names. */
export type SessionStrategy = "jwt" | "database"

/**
 * What the session that ended recorded of its sign-in: the provider, and its ID token when kept
 * (a JWT session keeps it; a database session's row names its user, whose account holds it).
 */
export interface EndedSession {
  provider?: string
  idToken?: string
  /** The user of a deleted database session row, when the adapter returned the row. */
  userId?: string
}

/**
 * Events of the sign-out flow, each the outcome of the effect its state names: what the request
 * carried, what decoding the JWT or deleting the row gave, what the provider's metadata said.
 */
export type SignOutEvent =
  | CsrfEvent
  | { type: "session.found"; strategy: SessionStrategy }
  | { type: "session.none" }
  | ({ type: "token.decoded" } & EndedSession)
  | { type: "decode.failed"; error: unknown }
  | ({ type: "session.deleted" } & EndedSession)
  | { type: "delete.failed"; error: unknown }
  /** The ID tokens held by the user's accounts at the session's provider (none, one, or one per account). */
  | { type: "accounts.listed"; idTokens: string[] }
  | { type: "accounts.failed"; error: unknown }
  | { type: "endSession.found"; url: string }
  | { type: "endSession.missing" }
  | { type: "discovery.failed"; error: unknown }

/**
 * What the sign-out machine reads of the configuration: the providers whose sessions sign-out also
 * ends, and whether the adapter can list a user's accounts (`listAccountsByUserId`), where a
 * database session's ID token is found.
 */
export interface SignOutPolicy {
  providersEndingSession: readonly string[]
  /** @default false */
  listsAccounts?: boolean
}

/** Context of a sign-out flow: the session that ended, where the provider ends its own, and what failed. */
export interface SignOutContext {
  policy: SignOutPolicy
  ended?: EndedSession
  endSessionUrl?: string
  error?: unknown
}

/** Effects the sign-out machine names. */
export type SignOutEffect = CsrfEffect | "findSession" | "decodeToken" | "deleteSession" | "findIdToken" | "findEndSession"

/**
 * The sign-out flow, POST `/signout`: check CSRF, find the session cookie, then end the session
 * the way the configuration keeps it: decode the JWT (for `events.signOut`), or delete the
 * database row (and hand it to `events.signOut`). When the session came from a provider configured
 * with `endSessionAtProvider`, the ID token for `id_token_hint` is taken from the JWT, or, for a
 * database session, from the user's account at that provider (`findingIdToken`: sent only when
 * exactly one account there holds one; an adapter without `listAccountsByUserId`, a row returned
 * without its user, or a failed read sends none). Then the provider's end-session endpoint is looked up and the browser is
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
export const signOutMachine = flowMachine(setup({
  types: {
    context: {} as SignOutContext,
    events: {} as SignOutEvent,
    input: {} as { policy?: SignOutPolicy } | undefined,
    meta: {} as FlowMeta<SignOutEffect>,
  },
  actions: {
    recordError: assign({ error: ({ event }) => (event as { error?: unknown }).error }),
    recordEndedSession: assign({
      ended: ({ event }) => {
        const { provider, idToken, userId } = event as EndedSession
        return { provider, idToken, userId }
      },
    }),
    recordIdToken: assign({
      ended: ({ context, event }) => ({ ...context.ended, idToken: event.type === "accounts.listed" ? event.idTokens[0] : undefined }),
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
    /** The deleted row named its user, and the adapter can list that user's accounts. */
    accountsReadable: ({ context, event }) => event.type === "session.deleted" && event.userId !== undefined && context.policy.listsAccounts === true,
    /** Exactly one of the user's accounts at the provider holds an ID token: the hint names that sign-in and no other. */
    oneIdToken: ({ event }) => event.type === "accounts.listed" && event.idTokens.length === 1,
  },
}).createMachine)({
  id: "sign-out",
  context: ({ input }) => ({ policy: input?.policy ?? { providersEndingSession: [], listsAccounts: false } }),
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("findingSession"),
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
          { guard: and(["providerEndsSession", "accountsReadable"]), target: "findingIdToken", actions: "recordEndedSession" },
          { guard: "providerEndsSession", target: "findingEndSession", actions: "recordEndedSession" },
          { target: "signedOut" },
        ],
        "delete.failed": { target: "endFailed", actions: "recordError" },
      },
    },
    findingIdToken: {
      meta: { effect: "findIdToken" },
      on: {
        "accounts.listed": [{ guard: "oneIdToken", target: "findingEndSession", actions: "recordIdToken" }, { target: "findingEndSession" }],
        // The adapter's failure is logged where it happened; the provider's end-session page then asks the user to confirm.
        "accounts.failed": "findingEndSession",
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
    ...csrfRejectedState,
  },
})
