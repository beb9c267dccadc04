import { assign, setup } from "xstate"
import { checkingSignInStates, flowActions, issuingSessionStates, persistingUserStates, signInTailGuards, type SignInOutcomeContext, type SignInTailEffect, type SignInTailEvent, type SignInTailPolicy } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import type { FlowMeta } from "./run-flow.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"

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

/** The parameters of the provider's redirect back, as received. */
export interface AuthorizationResponseParams {
  state?: string
  iss?: string
  error?: string
}

/** What the callback's configuration allows, given with `callback.received`. */
export interface OAuthCallbackPolicy extends SignInTailPolicy {
  /** An adapter is configured: users and accounts are stored. */
  adapter: boolean
  /** The provider's `allowDangerousEmailAccountLinking`. */
  emailLinking: boolean
}

/** Which check refused the callback, for the logs and the inspector. */
export type OAuthFailedCheck = "state" | "iss" | "provider-error" | "response" | "code" | "signature" | "id-token-iss" | "aud" | "exp" | "nonce" | "tokens"

/** Why an account is not linked. */
export type NotLinkedReason = "linked-to-other-user" | "not-started-by-signed-in-user" | "email-taken"

/** What the sign-in will write once the `signIn` callback allows it. */
export type AccountPlan = "signInLinkedUser" | "linkToSignedInUser" | "linkToEmailOwner" | "createUser" | "noDatabase"

/** Events of the OAuth machine, each the outcome of the effect its state names (or the callback arriving). */
export type OAuthEvent =
  | CsrfEvent
  | { type: "discovery.done" }
  | { type: "discovery.failed"; error: unknown }
  | { type: "authorization.ready"; checks: OAuthFlowChecks }
  | { type: "authorization.failed"; error: unknown }
  | { type: "callback.received"; policy: OAuthCallbackPolicy }
  | { type: "response.received"; params: AuthorizationResponseParams; expectedIssuer?: string; issuerRequired: boolean; error?: unknown }
  | { type: "response.unreadable"; error: unknown }
  | { type: "code.exchanged" }
  | { type: "code.refused"; error: unknown }
  | { type: "exchange.failed"; error: unknown }
  | { type: "tokens.valid" }
  | { type: "idToken.badSignature"; error: unknown }
  | { type: "idToken.wrongIssuer"; error: unknown }
  | { type: "idToken.wrongAudience"; error: unknown }
  | { type: "idToken.expired"; error: unknown }
  | { type: "idToken.nonceMismatch"; error: unknown }
  | { type: "tokens.invalid"; error: unknown }
  | { type: "profile.received" }
  | { type: "profile.failed"; error: unknown }
  | { type: "account.linkedToUser" }
  | { type: "account.linkedToOther" }
  | { type: "account.new.signedIn"; userId: string }
  | { type: "account.new.emailTaken" }
  | { type: "account.new.noUser" }
  | { type: "lookup.failed"; error: unknown }
  | { type: "user.undone" }
  | { type: "undo.failed"; error: unknown }
  | RateLimitEvent
  | SignInTailEvent

/** The effects the OAuth machine names. */
export type OAuthEffect =
  | CsrfEffect
  | RateLimitEffect
  | "discover"
  | "authorize"
  | "readResponse"
  | "exchangeCode"
  | "validateTokens"
  | "fetchProfile"
  | "resolveAccount"
  | "undoCreatedUser"
  | SignInTailEffect

/** Context of the OAuth machine: the sealed checks, the callback's policy, and how the flow ended. */
export interface OAuthContext extends SignInOutcomeContext, RateLimitContext {
  checks?: OAuthFlowChecks
  policy?: OAuthCallbackPolicy
  plan?: AccountPlan
  failedCheck?: OAuthFailedCheck
  notLinked?: NotLinkedReason
}

const rejected = (check: OAuthFailedCheck) => [{ type: "recordFailedCheck", params: { check } }, "recordError"] as const

/**
 * An OAuth 2 / OpenID Connect sign-in, from POST `/signin/<id>` to the session, as one machine
 * over two requests:
 *
 * 1. The sign-in request: check CSRF, count the request against the rate limit (per client
 *    address; over the budget ends in `rateLimited`), discover the provider's endpoints, build the authorization
 *    request (PKCE S256, `state`, and `nonce` for OIDC), then wait in `awaitingCallback`. That
 *    snapshot is sealed into the flow cookie and the user goes to the provider.
 * 2. The callback request restores it and sends `callback.received`; it is counted against the
 *    same budget (`rateLimited` again when over it). Guards check the provider's
 *    response (`iss` per RFC 9207, `state`, a provider error), the code is exchanged, the tokens
 *    validated (ID token signature, `iss`, `aud`, `exp`, `nonce`, each its own refusal), the
 *    profile fetched, and the account resolved: the effect reports which case holds and guards
 *    decide (a new account links to the signed-in user only when they started the sign-in; to
 *    an existing user with the same email only with `allowDangerousEmailAccountLinking`). Then
 *    the shared tail: the `signIn` callback, the writes, the session.
 *
 * @example
 * ```ts
 * const waiting = await runFlow(oauthMachine, { checkCsrf, discover, authorize, ...callbackEffects })
 * waiting.value // "awaitingCallback"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc9700 (OAuth 2.0 Security Best Current Practice)
 */
export const oauthMachine = setup({
  types: {
    context: {} as OAuthContext,
    events: {} as OAuthEvent,
    meta: {} as FlowMeta<OAuthEffect>,
  },
  actions: {
    ...flowActions<OAuthContext, OAuthEvent>(),
    ...rateLimitActions<OAuthContext, OAuthEvent>(),
    recordFailedCheck: assign((_, params: { check: OAuthFailedCheck }) => ({ failedCheck: params.check })),
    recordResponseError: assign(({ event }) => ({ error: event.type === "response.received" ? event.error : undefined })),
    plan: assign((_, params: { plan: AccountPlan }) => ({ plan: params.plan })),
    refuseLink: assign((_, params: { reason: NotLinkedReason }) => ({ notLinked: params.reason })),
  },
  guards: {
    ...signInTailGuards<OAuthContext, OAuthEvent>(),
    ...rateLimitGuards<OAuthContext, OAuthEvent>(),
    /** The provider announced RFC 9207 support, or an issuer is configured, and the response has no `iss`. */
    issuerMissing: ({ event }) => event.type === "response.received" && event.issuerRequired && !event.params.iss,
    /** The response names another issuer than the one the flow started with (the mix-up attack). */
    issuerMismatch: ({ event }) =>
      event.type === "response.received" && event.params.iss !== undefined && event.expectedIssuer !== undefined && event.params.iss !== event.expectedIssuer,
    /** The response's `state` is not the sealed flow's. */
    stateMismatch: ({ context, event }) => event.type === "response.received" && event.params.state !== context.checks?.state,
    /** The provider answered with an `error` instead of a code. */
    providerError: ({ event }) => event.type === "response.received" && event.params.error !== undefined,
    /** The signed-in user is the one who started this sign-in. */
    startedBySignedInUser: ({ context, event }) => event.type === "account.new.signedIn" && context.checks?.startedBy === event.userId,
    /** The provider allows linking to an existing user with the same email. */
    emailLinkingAllowed: ({ context }) => context.policy?.emailLinking === true,
    /** Users and accounts are stored. */
    adapterPresent: ({ context }) => context.policy?.adapter === true,
    /** The plan writes a user or an account. */
    planWrites: ({ context }) => context.plan !== "signInLinkedUser" && context.plan !== "noDatabase",
    /** The write that failed was to create a user (and link the account to it): the user may exist. */
    planCreatesUser: ({ context }) => context.plan === "createUser",
  },
}).createMachine({
  id: "oauth",
  context: {},
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("checkingRateLimit"),
    checkingRateLimit: limitingState("discovering"),
    discovering: {
      meta: { effect: "discover" },
      on: {
        "discovery.done": "authorizing",
        "discovery.failed": { target: "signInFailed", actions: "recordError" },
      },
    },
    authorizing: {
      meta: { effect: "authorize" },
      on: {
        "authorization.ready": { target: "awaitingCallback", actions: assign({ checks: ({ event }) => event.checks }) },
        "authorization.failed": { target: "signInFailed", actions: "recordError" },
      },
    },
    awaitingCallback: {
      on: { "callback.received": { target: "checkingCallbackRateLimit", actions: assign({ policy: ({ event }) => event.policy }) } },
    },
    checkingCallbackRateLimit: limitingState("checkingResponse"),
    checkingResponse: {
      meta: { effect: "readResponse" },
      on: {
        "response.received": [
          { guard: "issuerMissing", target: "responseRejected", actions: [{ type: "recordFailedCheck", params: { check: "iss" } }, "recordResponseError"] },
          { guard: "issuerMismatch", target: "responseRejected", actions: [{ type: "recordFailedCheck", params: { check: "iss" } }, "recordResponseError"] },
          { guard: "stateMismatch", target: "responseRejected", actions: [{ type: "recordFailedCheck", params: { check: "state" } }, "recordResponseError"] },
          { guard: "providerError", target: "providerRejected", actions: [{ type: "recordFailedCheck", params: { check: "provider-error" } }, "recordResponseError"] },
          { target: "exchangingCode" },
        ],
        "response.unreadable": { target: "responseRejected", actions: rejected("response") },
      },
    },
    exchangingCode: {
      meta: { effect: "exchangeCode" },
      on: {
        "code.exchanged": "validatingTokens",
        "code.refused": { target: "tokensRejected", actions: rejected("code") },
        "exchange.failed": { target: "tokensRejected", actions: rejected("code") },
      },
    },
    validatingTokens: {
      meta: { effect: "validateTokens" },
      on: {
        "tokens.valid": "fetchingProfile",
        "idToken.badSignature": { target: "idTokenRejected", actions: rejected("signature") },
        "idToken.wrongIssuer": { target: "idTokenRejected", actions: rejected("id-token-iss") },
        "idToken.wrongAudience": { target: "idTokenRejected", actions: rejected("aud") },
        "idToken.expired": { target: "idTokenRejected", actions: rejected("exp") },
        "idToken.nonceMismatch": { target: "idTokenRejected", actions: rejected("nonce") },
        "tokens.invalid": { target: "tokensRejected", actions: rejected("tokens") },
      },
    },
    fetchingProfile: {
      meta: { effect: "fetchProfile" },
      on: {
        "profile.received": "resolvingAccount",
        "profile.failed": { target: "profileFailed", actions: "recordError" },
      },
    },
    resolvingAccount: {
      meta: { effect: "resolveAccount" },
      on: {
        "account.linkedToUser": { target: "checkingSignIn", actions: { type: "plan", params: { plan: "signInLinkedUser" } } },
        "account.linkedToOther": { target: "accountNotLinked", actions: { type: "refuseLink", params: { reason: "linked-to-other-user" } } },
        "account.new.signedIn": [
          { guard: "startedBySignedInUser", target: "checkingSignIn", actions: { type: "plan", params: { plan: "linkToSignedInUser" } } },
          { target: "accountNotLinked", actions: { type: "refuseLink", params: { reason: "not-started-by-signed-in-user" } } },
        ],
        "account.new.emailTaken": [
          { guard: "emailLinkingAllowed", target: "checkingSignIn", actions: { type: "plan", params: { plan: "linkToEmailOwner" } } },
          { target: "accountNotLinked", actions: { type: "refuseLink", params: { reason: "email-taken" } } },
        ],
        "account.new.noUser": [
          { guard: "adapterPresent", target: "checkingSignIn", actions: { type: "plan", params: { plan: "createUser" } } },
          { target: "checkingSignIn", actions: { type: "plan", params: { plan: "noDatabase" } } },
        ],
        "lookup.failed": { target: "persistFailed", actions: "recordError" },
      },
    },
    ...checkingSignInStates([{ guard: "planWrites", target: "persistingUser" }, { target: "issuingSession" }]),
    ...persistingUserStates,
    persistingUser: {
      ...persistingUserStates.persistingUser,
      on: {
        ...persistingUserStates.persistingUser.on,
        "persist.failed": [
          { guard: "planCreatesUser", target: "undoingCreatedUser", actions: "recordError" },
          { target: "persistFailed", actions: "recordError" },
        ],
      },
    },
    // Creating the user or linking the account to it failed: the user goes again (it may have been
    // written though its answer was lost), so no user is left without its account. A failed delete
    // is logged; either way the sign-in ends failed.
    undoingCreatedUser: {
      meta: { effect: "undoCreatedUser" },
      on: {
        "user.undone": { target: "persistFailed" },
        "undo.failed": { target: "persistFailed" },
      },
    },
    ...issuingSessionStates(true),
    ...csrfRejectedState,
    signInFailed: { type: "final" },
    providerRejected: { type: "final" },
    responseRejected: { type: "final" },
    tokensRejected: { type: "final" },
    idTokenRejected: { type: "final" },
    profileFailed: { type: "final" },
    accountNotLinked: { type: "final" },
    ...rateLimitedState,
  },
})
