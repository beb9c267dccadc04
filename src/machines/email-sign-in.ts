import { assign, setup } from "xstate"

/** Events of the email sign-in machine, each the outcome of the effect its state names. */
export type EmailSignInEvent =
  | { type: "csrf.valid" }
  | { type: "csrf.invalid" }
  | { type: "email.valid" }
  | { type: "email.invalid"; error: unknown }
  | { type: "signIn.allowed" }
  | { type: "signIn.denied"; error?: unknown }
  | { type: "signIn.redirect"; url: string }
  | { type: "link.sent" }
  | { type: "send.failed"; error: unknown }

/** Context of the email sign-in machine: what ended it. The address and token stay out of it. */
export interface EmailSignInContext {
  error?: unknown
  redirectTo?: string
}

/**
 * Asking for a sign-in link, POST `/signin/<id>`: check CSRF, normalise the address, ask the
 * `signIn` callback (with `email.verificationRequest: true`), then store the hashed token and send
 * the link. The user is sent to the verify-request page.
 *
 * @example
 * ```ts
 * const done = await runFlow(emailSignInMachine, { checkCsrf, normalizeEmail, decideSignIn, sendLink })
 * done.value // "linkSent"
 * ```
 */
export const emailSignInMachine = setup({
  types: { context: {} as EmailSignInContext, events: {} as EmailSignInEvent },
}).createMachine({
  id: "email-sign-in",
  context: {},
  initial: "validatingInput",
  states: {
    validatingInput: {
      meta: { effect: "checkCsrf" },
      on: { "csrf.valid": "normalizing", "csrf.invalid": "csrfRejected" },
    },
    normalizing: {
      meta: { effect: "normalizeEmail" },
      on: {
        "email.valid": "checkingSignIn",
        "email.invalid": { target: "emailRejected", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    checkingSignIn: {
      meta: { effect: "decideSignIn" },
      on: {
        "signIn.allowed": "sendingLink",
        "signIn.denied": { target: "accessDenied", actions: assign({ error: ({ event }) => event.error }) },
        "signIn.redirect": { target: "redirected", actions: assign({ redirectTo: ({ event }) => event.url }) },
      },
    },
    sendingLink: {
      meta: { effect: "sendLink" },
      on: {
        "link.sent": "linkSent",
        "send.failed": { target: "sendFailed", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    linkSent: { type: "final" },
    csrfRejected: { type: "final" },
    emailRejected: { type: "final" },
    accessDenied: { type: "final" },
    redirected: { type: "final" },
    sendFailed: { type: "final" },
  },
})
