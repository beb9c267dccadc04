import { assign, setup } from "xstate"

/** Events of the OAuth callback machine, each the outcome of the effect its state names. */
export type OAuthCallbackEvent =
  | { type: "response.valid" }
  | { type: "response.providerError"; error: unknown }
  | { type: "response.invalid"; error: unknown }
  | { type: "tokens.valid" }
  | { type: "tokens.invalid"; error: unknown }
  | { type: "profile.received" }
  | { type: "profile.failed"; error: unknown }
  | { type: "user.looked-up" }
  | { type: "lookup.failed"; error: unknown }
  | { type: "signIn.allowed" }
  | { type: "signIn.denied"; error?: unknown }
  | { type: "signIn.redirect"; url: string }
  | { type: "user.persisted"; isNewUser: boolean }
  | { type: "account.notLinked"; error: unknown }
  | { type: "persist.failed"; error: unknown }
  | { type: "session.issued" }
  | { type: "session.failed"; error: unknown }

/** Context of the OAuth callback machine: how the flow ended. Tokens and profiles stay out of it. */
export interface OAuthCallbackContext {
  isNewUser?: boolean
  redirectTo?: string
  error?: unknown
}

/**
 * The second half of an OAuth 2 / OpenID Connect sign-in, GET or POST `/callback/<id>`: validate
 * the authorization response (state, `iss`, provider errors), exchange the code (and validate the ID
 * token), fetch the profile, look the account up, ask the `signIn` callback, persist the user and
 * link the account (only after the callback allowed it), issue the session.
 *
 * @example
 * ```ts
 * const done = await runFlow(oauthCallbackMachine, effects)
 * done.value // "signedIn"
 * ```
 */
export const oauthCallbackMachine = setup({
  types: {
    context: {} as OAuthCallbackContext,
    events: {} as OAuthCallbackEvent,
  },
}).createMachine({
  id: "oauth-callback",
  context: {},
  initial: "validatingResponse",
  states: {
    validatingResponse: {
      meta: { effect: "validateResponse" },
      on: {
        "response.valid": "exchangingCode",
        "response.providerError": { target: "providerRejected", actions: assign({ error: ({ event }) => event.error }) },
        "response.invalid": { target: "responseRejected", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    exchangingCode: {
      meta: { effect: "exchangeCode" },
      on: {
        "tokens.valid": "fetchingProfile",
        "tokens.invalid": { target: "tokensRejected", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    fetchingProfile: {
      meta: { effect: "fetchProfile" },
      on: {
        "profile.received": "lookingUpUser",
        "profile.failed": { target: "profileFailed", actions: assign({ error: ({ event }) => event.error }) },
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
        "account.notLinked": { target: "accountNotLinked", actions: assign({ error: ({ event }) => event.error }) },
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
    providerRejected: { type: "final" },
    responseRejected: { type: "final" },
    tokensRejected: { type: "final" },
    profileFailed: { type: "final" },
    accessDenied: { type: "final" },
    redirected: { type: "final" },
    accountNotLinked: { type: "final" },
    persistFailed: { type: "final" },
    sessionFailed: { type: "final" },
  },
})
