import { assign, setup } from "xstate"
import type { User } from "../types.js"

/**
 * Events of the credentials sign-in flow. Each one is the outcome of the effect named by the state
 * that receives it (`meta.effect`), sent by the engine's flow runner.
 */
export type CredentialsSignInEvent =
  | { type: "csrf.valid" }
  | { type: "csrf.invalid" }
  | { type: "authorize.user"; user: User }
  | { type: "authorize.rejected"; error?: unknown }
  | { type: "authorize.failed"; error: unknown }
  | { type: "signIn.allowed" }
  | { type: "signIn.denied"; error?: unknown }
  | { type: "signIn.redirect"; url: string }
  | { type: "session.issued" }
  | { type: "session.failed"; error: unknown }

/** Context of a credentials sign-in flow: the user once authorized, and what ended the flow. */
export interface CredentialsSignInContext {
  user?: User
  error?: unknown
  redirectTo?: string
}

/** Effects the credentials sign-in machine names, in the order a successful flow meets them. */
export type CredentialsSignInEffect = "checkCsrf" | "authorize" | "decideSignIn" | "issueSession"

/**
 * The credentials sign-in flow, POST `/callback/<id>`: check CSRF, authorize the credentials, ask
 * the `signIn` callback, issue the session. Every way it can end is a named final state.
 *
 * The machine is pure. A state that needs I/O names it in `meta.effect`; the engine's flow runner
 * performs that effect and sends its outcome back as an event, so every transition is an explicit
 * event that tests and the inspector can see.
 *
 * @example
 * ```ts
 * import { createActor } from "xstate"
 * const actor = createActor(credentialsSignInMachine).start()
 * actor.send({ type: "csrf.valid" })
 * actor.send({ type: "authorize.user", user: { id: "1" } })
 * actor.getSnapshot().value // "checkingSignIn"
 * ```
 */
export const credentialsSignInMachine = setup({
  types: {
    context: {} as CredentialsSignInContext,
    events: {} as CredentialsSignInEvent,
  },
}).createMachine({
  id: "credentials-sign-in",
  context: {},
  initial: "validatingInput",
  states: {
    validatingInput: {
      meta: { effect: "checkCsrf" },
      on: { "csrf.valid": "authorizing", "csrf.invalid": "csrfRejected" },
    },
    authorizing: {
      meta: { effect: "authorize" },
      on: {
        "authorize.user": { target: "checkingSignIn", actions: assign({ user: ({ event }) => event.user }) },
        "authorize.rejected": { target: "credentialsRejected", actions: assign({ error: ({ event }) => event.error }) },
        "authorize.failed": { target: "authorizeFailed", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    checkingSignIn: {
      meta: { effect: "decideSignIn" },
      on: {
        "signIn.allowed": "issuingSession",
        "signIn.denied": { target: "accessDenied", actions: assign({ error: ({ event }) => event.error }) },
        "signIn.redirect": { target: "redirected", actions: assign({ redirectTo: ({ event }) => event.url }) },
      },
    },
    issuingSession: {
      meta: { effect: "issueSession" },
      on: {
        "session.issued": "signedIn",
        "session.failed": { target: "sessionFailed", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    signedIn: { type: "final" },
    csrfRejected: { type: "final" },
    credentialsRejected: { type: "final" },
    authorizeFailed: { type: "final" },
    accessDenied: { type: "final" },
    redirected: { type: "final" },
    sessionFailed: { type: "final" },
  },
})
