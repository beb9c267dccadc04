/**
 * The end every sign-in shares, defined once: ask the `signIn` callback, write the user (where the
 * flow has something to write), issue the session. Each sign-in machine spreads these states and
 * actions into its own definition, so the inspector and the model tests see the same tail
 * everywhere.
 *
 * @module
 */
import { assign, type EventObject } from "xstate"

/** What every sign-in machine's context records about how it ended. */
export interface SignInOutcomeContext {
  isNewUser?: boolean
  redirectTo?: string
  error?: unknown
}

/** The events of the sign-in tail, each the outcome of the effect its state names. */
export type SignInTailEvent =
  | { type: "signIn.allowed" }
  | { type: "signIn.denied"; error?: unknown }
  | { type: "signIn.redirect"; url: string }
  | { type: "user.persisted"; isNewUser: boolean }
  | { type: "persist.failed"; error: unknown }
  | { type: "session.issued" }
  | { type: "session.failed"; error: unknown }

/** The effects the sign-in tail names. */
export type SignInTailEffect = "decideSignIn" | "persistUser" | "issueSession"

/**
 * The named actions of every flow machine, for its `setup({ actions })`: `recordError` keeps the
 * event's `error`, `recordRedirect` its `url`, `recordNewUser` its `isNewUser`.
 *
 * @example
 * ```ts
 * setup({ types: { context: {} as MyContext, events: {} as MyEvent }, actions: flowActions<MyContext, MyEvent>() })
 * ```
 */
export function flowActions<TContext extends SignInOutcomeContext, TEvent extends EventObject>() {
  return {
    recordError: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ error: (event as { error?: unknown }).error }) as Partial<TContext>),
    recordRedirect: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ redirectTo: (event as { url?: string }).url }) as Partial<TContext>),
    recordNewUser: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => ({ isNewUser: (event as { isNewUser?: boolean }).isNewUser }) as Partial<TContext>),
  }
}

/**
 * Where an allowed sign-in goes next: straight to the session, through writing the user first, or
 * (asking for an email link, where nobody is signed in yet) to the machine's own next step.
 */
type AllowedTransition = string | readonly { guard?: string; target: string }[]

/**
 * `checkingSignIn`: asks the `signIn` callback. A machine enters it when it knows who signs in.
 *
 * @param allowed - Where `signIn.allowed` leads: `"persistingUser"`, `"issuingSession"`, another state of the machine, or guarded choices.
 * @example
 * ```ts
 * createMachine({ states: { checkingSignIn: checkingSignInState("issuingSession"), ...issuingSessionStates } })
 * ```
 */
export function checkingSignInState<const TAllowed extends AllowedTransition>(allowed: TAllowed) {
  return {
    meta: { effect: "decideSignIn" },
    on: {
      "signIn.allowed": allowed,
      "signIn.denied": { target: "accessDenied", actions: "recordError" },
      "signIn.redirect": { target: "redirected", actions: "recordRedirect" },
    },
  } as const
}

/**
 * `persistingUser` (create or link the user, then issue the session) and its failure, for the
 * machines that write a user.
 *
 * @example
 * ```ts
 * createMachine({ states: { checkingSignIn: checkingSignInState("persistingUser"), ...persistingUserStates, ...issuingSessionStates } })
 * ```
 */
export const persistingUserStates = {
  persistingUser: {
    meta: { effect: "persistUser" },
    on: {
      "user.persisted": { target: "issuingSession", actions: "recordNewUser" },
      "persist.failed": { target: "persistFailed", actions: "recordError" },
    },
  },
  persistFailed: { type: "final" },
} as const

/**
 * `issuingSession` and the finals of the tail: `signedIn`, `accessDenied`, `redirected`,
 * `sessionFailed`.
 *
 * @example
 * ```ts
 * createMachine({ states: { checkingSignIn: checkingSignInState("issuingSession"), ...issuingSessionStates } })
 * ```
 */
export const issuingSessionStates = {
  issuingSession: {
    meta: { effect: "issueSession" },
    on: {
      "session.issued": "signedIn",
      "session.failed": { target: "sessionFailed", actions: "recordError" },
    },
  },
  signedIn: { type: "final" },
  accessDenied: { type: "final" },
  redirected: { type: "final" },
  sessionFailed: { type: "final" },
} as const
