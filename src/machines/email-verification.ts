import { assign, setup } from "xstate"

/** Events of the email verification machine, each the outcome of the effect its state names. */
export type EmailVerificationEvent =
  | { type: "token.valid" }
  | { type: "token.invalid"; error: unknown }
  | { type: "user.looked-up" }
  | { type: "lookup.failed"; error: unknown }
  | { type: "signIn.allowed" }
  | { type: "signIn.denied"; error?: unknown }
  | { type: "signIn.redirect"; url: string }
  | { type: "user.persisted"; isNewUser: boolean }
  | { type: "persist.failed"; error: unknown }
  | { type: "session.issued" }
  | { type: "session.failed"; error: unknown }

/** Context of the email verification machine. */
export interface EmailVerificationContext {
  isNewUser?: boolean
  redirectTo?: string
  error?: unknown
}

/**
 * Following a sign-in link, GET `/callback/<id>?token&email`: use the token (once; an expired, wrong
 * or reused one is refused), find the user by email, ask the `signIn` callback, create the user or
 * mark the address verified, issue the session. Nothing depends on a cookie from the browser that
 * asked for the link, so it works from another device.
 *
 * @example
 * ```ts
 * const done = await runFlow(emailVerificationMachine, effects)
 * done.value // "signedIn"
 * ```
 */
export const emailVerificationMachine = setup({
  types: { context: {} as EmailVerificationContext, events: {} as EmailVerificationEvent },
}).createMachine({
  id: "email-verification",
  context: {},
  initial: "validatingLink",
  states: {
    validatingLink: {
      meta: { effect: "useToken" },
      on: {
        "token.valid": "lookingUpUser",
        "token.invalid": { target: "verificationFailed", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    lookingUpUser: {
      meta: { effect: "lookUpUser" },
      on: {
        "user.looked-up": "checkingSignIn",
        "lookup.failed": { target: "persistFailed", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    checkingSignIn: {
      meta: { effect: "decideSignIn" },
      on: {
        "signIn.allowed": "persistingUser",
        "signIn.denied": { target: "accessDenied", actions: assign({ error: ({ event }) => event.error }) },
        "signIn.redirect": { target: "redirected", actions: assign({ redirectTo: ({ event }) => event.url }) },
      },
    },
    persistingUser: {
      meta: { effect: "persistUser" },
      on: {
        "user.persisted": { target: "issuingSession", actions: assign({ isNewUser: ({ event }) => event.isNewUser }) },
        "persist.failed": { target: "persistFailed", actions: assign({ error: ({ event }) => event.error }) },
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
    verificationFailed: { type: "final" },
    accessDenied: { type: "final" },
    redirected: { type: "final" },
    persistFailed: { type: "final" },
    sessionFailed: { type: "final" },
  },
})
