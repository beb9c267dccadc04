import { assign, setup } from "xstate"
import type { AuthorizationServer } from "oauth4webapi"
import { accountLinkingActions, accountLinkingGuards, resolvingAccountStates, type AccountLinkingContext, type AccountLinkingEffect, type AccountLinkingEvent, type AccountLinkingPolicy } from "./account-linking.js"
import { checkingSignInStates, flowActions, issuingSessionStates, persistingUserStates, signInTailGuards, type SignInOutcomeContext, type SignInTailEffect, type SignInTailEvent, type SignInTailPolicy } from "./sign-in-tail.js"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEffect, type RateLimitEvent } from "./rate-limit.js"
import type { FlowMeta } from "./run-flow.js"
import { csrfCheckingState, csrfRejectedState, type CsrfEffect, type CsrfEvent } from "./csrf-check.js"
import { flowMachine } from "./flow-machine.js"
import { claimingFlowState, flowReplayedState, type ClaimFlowEffect, type FlowClaimEvent } from "./flow-claim.js"
import { AdapterError } from "../core/errors.js"
import type { ExchangeResult } from "../core/oauth/callback.js"
import type { AdapterUser } from "../adapters.js"
import type { Account, Profile, User } from "../base-types.js"

export type { AccountPlan, NotLinkedReason } from "./account-linking.js"

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

/** What the callback's configuration allows, given with `callback.received`: an adapter, email linking, the tail's policy. */
export interface OAuthCallbackPolicy extends SignInTailPolicy, AccountLinkingPolicy {}

/**
 * Which check refused the callback, for the logs and the inspector: `state`, `iss`,
 * `provider-error` (the provider answered an `error`), `response` (the redirect back could not be
 * checked, or oauth4webapi refused it although every named check passed: its error says why),
 * `code` (the token endpoint refused the code, or could not be reached), then the token response's
 * checks (`signature`, `id-token-iss`, `aud`, `exp`, `nonce`, `tokens`).
 */
export type OAuthFailedCheck = "state" | "iss" | "provider-error" | "response" | "code" | "signature" | "id-token-iss" | "aud" | "exp" | "nonce" | "tokens"


/** Events of the OAuth machine, each the outcome of the effect its state names (or the callback arriving). */
export type OAuthEvent =
  | CsrfEvent
  | { type: "discovery.done"; server: AuthorizationServer }
  | { type: "discovery.failed"; error: unknown }
  | { type: "authorization.ready"; checks: OAuthFlowChecks; url: string; issued: boolean }
  | { type: "authorization.failed"; error: unknown }
  | { type: "callback.received"; policy: OAuthCallbackPolicy }
  /** Whether the resumed flow was claimed for the first time (`claimFlow`). */
  | FlowClaimEvent
  | { type: "response.received"; params: AuthorizationResponseParams; expectedIssuer?: string; issuerRequired: boolean; server: AuthorizationServer; error?: unknown }
  | { type: "response.unreadable"; error: unknown }
  | { type: "code.exchanged"; response: Response }
  | { type: "code.refused"; error: unknown }
  | { type: "exchange.failed"; error: unknown }
  | { type: "tokens.valid"; tokens: ExchangeResult; server: AuthorizationServer }
  | { type: "idToken.badSignature"; error: unknown }
  | { type: "idToken.wrongIssuer"; error: unknown }
  | { type: "idToken.wrongAudience"; error: unknown }
  | { type: "idToken.expired"; error: unknown }
  | { type: "idToken.nonceMismatch"; error: unknown }
  | { type: "tokens.invalid"; error: unknown }
  /** The profile, the user it gives and the account holding the provider's tokens (as `mapProfile` makes them). */
  | { type: "profile.received"; profile: Profile; user: User; account: Account }
  | { type: "profile.failed"; error: unknown }
  | AccountLinkingEvent
  /** The user is stored (created, or the account linked to them), as the adapter answered. */
  | { type: "user.persisted"; isNewUser: boolean; user: User | AdapterUser }
  /** Writing failed; `creatingUserId` is the id of the user it was creating, who may exist (the write may have landed though its answer was lost). */
  | { type: "persist.failed"; error: unknown; creatingUserId?: string }
  | { type: "user.undone" }
  | { type: "undo.failed"; error: unknown }
  | RateLimitEvent
  | Exclude<SignInTailEvent, { type: "user.persisted" | "persist.failed" }>

/** The effects the OAuth machine names. */
export type OAuthEffect =
  | CsrfEffect
  | RateLimitEffect
  | ClaimFlowEffect
  | "discover"
  | "authorize"
  | "readResponse"
  | "exchangeCode"
  | "validateTokens"
  | "fetchProfile"
  | AccountLinkingEffect
  | "undoCreatedUser"
  | SignInTailEffect

/**
 * Context of the OAuth machine: the checks (the only part sealed into the flow cookie), the
 * callback's policy, what this request's effects found (each assigned from the event that
 * reported it, for the effects after it), and how the flow ended.
 */
export interface OAuthContext extends SignInOutcomeContext, RateLimitContext, AccountLinkingContext {
  checks?: OAuthFlowChecks
  policy?: OAuthCallbackPolicy
  failedCheck?: OAuthFailedCheck
  /** The provider's endpoints and issuer (discovered, or configured). */
  server?: AuthorizationServer
  /** The sign-in request's answer: where the user goes, and whether the replay store issued the flow. */
  authorizationUrl?: string
  flowIssued?: boolean
  /** The token endpoint's answer, not yet checked. */
  tokenResponse?: Response
  /** The checked tokens, with the ID token's claims. */
  tokens?: ExchangeResult
  profile?: Profile
  /** The account the sign-in links or signs in with, holding the provider's tokens. */
  account?: Account
  /** The id of the user a failed write was creating (for `undoingCreatedUser`). */
  creatingUserId?: string
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
 * 2. The callback request restores it and sends `callback.received`. The flow is claimed once
 *    (a copy of its cookie sent again ends in `flowReplayed`; a replay store that fails in
 *    `claimFailed` when the adapter's database failed, else in `flowNotResumed`), then counted
 *    against the same budget (`rateLimited` again when over it). Guards check the provider's
 *    response (`iss` per RFC 9207, `state`, a provider error), the code is exchanged, the tokens
 *    validated (ID token signature, `iss`, `aud`, `exp`, `nonce`, each its own refusal), the
 *    profile fetched, and, with an adapter, the account resolved (the account-linking states:
 *    the effects look up, guards decide: a new account links to the signed-in user only when
 *    they started the sign-in; to an existing user with the same email only with
 *    `allowDangerousEmailAccountLinking`). Then the shared tail: the `signIn` callback, the
 *    writes, the session. What each effect finds travels in the event reporting it, and the
 *    machine assigns it for the effects after it.
 *
 * @example
 * ```ts
 * const waiting = await runFlow(oauthMachine, { checkCsrf, discover, authorize, ...callbackEffects })
 * waiting.value // "awaitingCallback"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc9700 (OAuth 2.0 Security Best Current Practice)
 */
export const oauthMachine = flowMachine(setup({
  types: {
    context: {} as OAuthContext,
    events: {} as OAuthEvent,
    meta: {} as FlowMeta<OAuthEffect>,
  },
  actions: {
    ...flowActions<OAuthContext, OAuthEvent>(),
    ...rateLimitActions<OAuthContext, OAuthEvent>(),
    ...accountLinkingActions<OAuthContext, OAuthEvent>(),
    recordFailedCheck: assign((_, params: { check: OAuthFailedCheck }) => ({ failedCheck: params.check })),
    recordResponseError: assign(({ event }) => ({ error: event.type === "response.received" ? event.error : undefined })),
    recordServer: assign(({ event }) => (event.type === "discovery.done" || event.type === "response.received" ? { server: event.server } : {})),
    // The endpoints are not needed once the user is sent to the provider: the callback discovers them again.
    recordAuthorization: assign(({ event }) => (event.type === "authorization.ready" ? { checks: event.checks, authorizationUrl: event.url, flowIssued: event.issued, server: undefined } : {})),
    recordTokenResponse: assign(({ event }) => (event.type === "code.exchanged" ? { tokenResponse: event.response } : {})),
    recordTokens: assign(({ event }) => (event.type === "tokens.valid" ? { tokens: event.tokens, server: event.server } : {})),
    recordProfile: assign(({ event }) => (event.type === "profile.received" ? { profile: event.profile, user: event.user, account: event.account } : {})),
    recordStoredUser: assign(({ event }) => (event.type === "user.persisted" ? { user: event.user } : {})),
    recordCreatingUser: assign(({ event }) => (event.type === "persist.failed" && event.creatingUserId !== undefined ? { creatingUserId: event.creatingUserId } : {})),
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
    /** oauth4webapi refused the response although every check above passed (a hybrid or JARM answer, say): it is not exchanged. */
    responseRefused: ({ event }) => event.type === "response.received" && event.error !== undefined,
    ...accountLinkingGuards<OAuthContext, OAuthEvent>({ policy: (context) => context.policy, startedBy: (context) => context.checks?.startedBy }),
    /** The plan writes a user or an account. */
    planWrites: ({ context }) => context.plan !== "signInLinkedUser" && context.plan !== "noDatabase",
    /** The write that failed was to create a user (and link the account to it): the user may exist. */
    planCreatesUser: ({ context }) => context.plan === "createUser",
    /** The replay store failed in the adapter's database: a server fault, answered as every adapter failure is. */
    isAdapterError: ({ event }) => event.type === "flow.claimFailed" && event.error instanceof AdapterError,
  },
}).createMachine)({
  id: "oauth",
  context: {},
  initial: "validatingInput",
  states: {
    validatingInput: csrfCheckingState("checkingRateLimit"),
    checkingRateLimit: limitingState("discovering"),
    discovering: {
      meta: { effect: "discover" },
      on: {
        "discovery.done": { target: "authorizing", actions: "recordServer" },
        "discovery.failed": { target: "signInFailed", actions: "recordError" },
      },
    },
    authorizing: {
      meta: { effect: "authorize" },
      on: {
        "authorization.ready": { target: "awaitingCallback", actions: "recordAuthorization" },
        "authorization.failed": { target: "signInFailed", actions: "recordError" },
      },
    },
    awaitingCallback: {
      on: { "callback.received": { target: "claimingFlow", actions: assign({ policy: ({ event }) => event.policy }) } },
    },
    // The sealed flow is used once: a copy of its cookie sent again (here or on another instance) is a replay.
    claimingFlow: claimingFlowState("checkingCallbackRateLimit", [
      { guard: "isAdapterError", target: "claimFailed", actions: "recordError" },
      { target: "flowNotResumed", actions: "recordError" },
    ]),
    checkingCallbackRateLimit: limitingState("checkingResponse"),
    checkingResponse: {
      meta: { effect: "readResponse" },
      on: {
        "response.received": [
          { guard: "issuerMissing", target: "responseRejected", actions: [{ type: "recordFailedCheck", params: { check: "iss" } }, "recordResponseError"] },
          { guard: "issuerMismatch", target: "responseRejected", actions: [{ type: "recordFailedCheck", params: { check: "iss" } }, "recordResponseError"] },
          { guard: "stateMismatch", target: "responseRejected", actions: [{ type: "recordFailedCheck", params: { check: "state" } }, "recordResponseError"] },
          { guard: "providerError", target: "providerRejected", actions: [{ type: "recordFailedCheck", params: { check: "provider-error" } }, "recordResponseError"] },
          { guard: "responseRefused", target: "responseRejected", actions: [{ type: "recordFailedCheck", params: { check: "response" } }, "recordResponseError"] },
          { target: "exchangingCode", actions: "recordServer" },
        ],
        "response.unreadable": { target: "responseRejected", actions: rejected("response") },
      },
    },
    exchangingCode: {
      meta: { effect: "exchangeCode" },
      on: {
        "code.exchanged": { target: "validatingTokens", actions: "recordTokenResponse" },
        "code.refused": { target: "tokensRejected", actions: rejected("code") },
        "exchange.failed": { target: "tokensRejected", actions: rejected("code") },
      },
    },
    validatingTokens: {
      meta: { effect: "validateTokens" },
      on: {
        "tokens.valid": { target: "fetchingProfile", actions: "recordTokens" },
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
        "profile.received": [
          { guard: "adapterPresent", target: "resolvingAccount", actions: "recordProfile" },
          { target: "checkingSignIn", actions: ["recordProfile", { type: "plan", params: { plan: "noDatabase" } }] },
        ],
        "profile.failed": { target: "profileFailed", actions: "recordError" },
      },
    },
    ...resolvingAccountStates("checkingSignIn", "persistFailed"),
    ...checkingSignInStates([{ guard: "planWrites", target: "persistingUser" }, { target: "issuingSession" }]),
    ...persistingUserStates,
    persistingUser: {
      ...persistingUserStates.persistingUser,
      on: {
        "user.persisted": { target: "issuingSession", actions: ["recordNewUser", "recordStoredUser"] },
        "persist.failed": [
          { guard: "planCreatesUser", target: "undoingCreatedUser", actions: ["recordError", "recordCreatingUser"] },
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
    // A sign-in brings fresh provider tokens: with database sessions they replace the stored ones.
    ...issuingSessionStates(true, { renewsStoredTokens: true }),
    ...csrfRejectedState,
    ...flowReplayedState,
    claimFailed: { type: "final" },
    flowNotResumed: { type: "final" },
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
