import { assign, setup } from "xstate"

/**
 * What a waiting OAuth flow keeps for its callback: the PKCE verifier, `state`, `nonce`, the
 * `redirect_uri` it asked for, where to send the user at the end, and who was signed in when it
 * started. Nothing else is sealed.
 */
export interface OAuthFlowChecks {
  codeVerifier: string
  state: string
  nonce?: string
  redirectUri: string
  callbackUrl: string
  /** The user this browser was signed in as when the sign-in started: only they may link a new account. */
  startedBy?: string
}

/** Events of the OAuth sign-in machine, each the outcome of the effect its state names. */
export type OAuthSignInEvent =
  | { type: "csrf.valid" }
  | { type: "csrf.invalid" }
  | { type: "discovery.done" }
  | { type: "discovery.failed"; error: unknown }
  | { type: "authorization.ready"; checks: OAuthFlowChecks }
  | { type: "authorization.failed"; error: unknown }
  | { type: "callback.received" }

/** Context of the OAuth sign-in machine. */
export interface OAuthSignInContext {
  checks?: OAuthFlowChecks
  error?: unknown
}

/**
 * The first half of an OAuth 2 / OpenID Connect sign-in, POST `/signin/<id>`: check CSRF, discover
 * the provider's endpoints, build the authorization request (PKCE S256, `state`, and `nonce` for
 * OIDC), then wait in `awaitingCallback`. That waiting snapshot is sealed into the flow cookie and
 * the user goes to the provider. When the callback arrives, the engine restores the snapshot and
 * sends `callback.received`: the flow is handed to {@link oauthCallbackMachine} with its checks.
 *
 * @example
 * ```ts
 * const waiting = await runFlow(oauthSignInMachine, { checkCsrf, discover, authorize })
 * waiting.value // "awaitingCallback"
 * ```
 */
export const oauthSignInMachine = setup({
  types: {
    context: {} as OAuthSignInContext,
    events: {} as OAuthSignInEvent,
    output: {} as Partial<OAuthFlowChecks>,
  },
}).createMachine({
  id: "oauth-sign-in",
  context: {},
  initial: "validatingInput",
  output: ({ context }) => context.checks ?? {},
  states: {
    validatingInput: {
      meta: { effect: "checkCsrf" },
      on: { "csrf.valid": "discovering", "csrf.invalid": "csrfRejected" },
    },
    discovering: {
      meta: { effect: "discover" },
      on: {
        "discovery.done": "authorizing",
        "discovery.failed": { target: "signInFailed", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    authorizing: {
      meta: { effect: "authorize" },
      on: {
        "authorization.ready": { target: "awaitingCallback", actions: assign({ checks: ({ event }) => event.checks }) },
        "authorization.failed": { target: "signInFailed", actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    awaitingCallback: {
      on: { "callback.received": "handedOff" },
    },
    handedOff: { type: "final" },
    csrfRejected: { type: "final" },
    signInFailed: { type: "final" },
  },
})
