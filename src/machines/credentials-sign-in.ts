import { assign, setup } from "xstate"
import { CredentialsSignin } from "../core/errors.js"
import { checkingSignInStates, contextFromInput, flowActions, issuingSessionStates, signInTailGuards, type SignInOutcomeContext, type SignInTailEffect, type SignInTailEvent } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import type { FlowMeta } from "./run-flow.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import { credentialsReadActions, credentialsReadGuards, readingCredentialsState, type CredentialsReadContext, type CredentialsReadEvent } from "./credentials-read.js"
import type { User } from "../types.js"

export type { CredentialsReadEvent } from "./credentials-read.js"

/**
 * Events of the credentials sign-in flow. Each one is the outcome of the effect named by the state
 * that receives it (`meta.effect`), sent by the engine's flow runner: what `authorize` returned or
 * threw, as it was; the machine's guards decide what it means.
 */
export type CredentialsSignInEvent =
  | CsrfEvent
  | CredentialsReadEvent
  | { type: "authorize.returned"; user: User | null }
  | { type: "authorize.threw"; error: unknown }
  | { type: "attempt.refunded" }
  | RateLimitEvent
  | SignInTailEvent

/** Context of a credentials sign-in flow: the user once authorized, and what ended the flow. */
export interface CredentialsSignInContext extends SignInOutcomeContext, RateLimitContext, CredentialsReadContext {
  user?: User
}

/** Effects the credentials sign-in machine names, in the order a successful flow meets them. */
export type CredentialsSignInEffect = CsrfEffect | "readCredentials" | RateLimitEffect | "authorize" | "refundAttempt" | Exclude<SignInTailEffect, "persistUser">

/**
 * The credentials sign-in flow, POST `/callback/<id>`: check CSRF, read the credentials (a declared
 * field that is not a string ends in `credentialsMalformed`, before `authorize` runs), count the
 * attempt against the rate limits (per client address, and per identifier: the provider's declared
 * identity field, or one shared budget when it cannot be read; over a budget ends in `rateLimited`),
 * authorize the credentials (accepted ones take their attempt back, so only failures count), ask
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
 * actor.send({ type: "credentials.read", identifier: "ada", nonString: [] })
 * actor.send({ type: "rateLimit.counted", hits: [] })
 * actor.send({ type: "authorize.returned", user: { id: "1" } })
 * actor.send({ type: "attempt.refunded" })
 * actor.getSnapshot().value // "checkingSignIn"
 * ```
 */
export const credentialsSignInMachine = flowMachine(setup({
  types: {
    context: {} as CredentialsSignInContext,
    events: {} as CredentialsSignInEvent,
    meta: {} as FlowMeta<CredentialsSignInEffect>,
  },
  actions: {
    ...flowActions<CredentialsSignInContext, CredentialsSignInEvent>(),
    ...rateLimitActions<CredentialsSignInContext, CredentialsSignInEvent>(),
    ...credentialsReadActions<CredentialsSignInContext, CredentialsSignInEvent>(),
  },
  guards: {
    ...signInTailGuards<CredentialsSignInContext, CredentialsSignInEvent>(),
    ...rateLimitGuards<CredentialsSignInContext, CredentialsSignInEvent>(),
    ...credentialsReadGuards<CredentialsSignInContext, CredentialsSignInEvent>(),
    /** `authorize` returned a user object: these credentials are accepted. */
    returnedUser: ({ event }) => event.type === "authorize.returned" && event.user !== null && typeof event.user === "object",
    /** `authorize` threw a `CredentialsSignin`: the credentials are refused, with the app's code. */
    threwCredentialsSignin: ({ event }) => event.type === "authorize.threw" && event.error instanceof CredentialsSignin,
  },
}).createMachine)({
  id: "credentials-sign-in",
  context: ({ input }) => contextFromInput(input),
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("readingCredentials"),
    readingCredentials: readingCredentialsState("checkingRateLimit"),
    checkingRateLimit: limitingState("authorizing"),
    authorizing: {
      meta: { effect: "authorize" },
      on: {
        "authorize.returned": [
          { guard: "returnedUser", target: "refundingAttempt", actions: assign({ user: ({ event }) => event.user ?? undefined }) },
          { target: "credentialsRejected" },
        ],
        "authorize.threw": [
          { guard: "threwCredentialsSignin", target: "credentialsRejected", actions: "recordError" },
          { target: "authorizeFailed", actions: "recordError" },
        ],
      },
    },
    // Accepted credentials are not a failed attempt: the count is taken back.
    refundingAttempt: {
      meta: { effect: "refundAttempt" },
      on: { "attempt.refunded": "checkingSignIn" },
    },
    ...checkingSignInStates("issuingSession"),
    ...issuingSessionStates(false),
    ...csrfRejectedState,
    credentialsMalformed: { type: "final" },
    credentialsRejected: { type: "final" },
    authorizeFailed: { type: "final" },
    ...rateLimitedState,
  },
})
