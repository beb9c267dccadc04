import { assign, setup } from "xstate"
import type { FlowMeta } from "./run-flow.js"
import { flowMachine } from "./flow-machine.js"
import type { ProviderTokens, RefreshFailure, RefreshResult } from "../core/refresh-store.js"
export type { ProviderTokens, RefreshFailure, RefreshResult } from "../core/refresh-store.js"

/**
 * Events of the refresh flow, each the outcome of the effect its state names: the tokens as
 * stored, whether this request won the claim on the refresh or another one holds it, what the
 * token endpoint answered, whether the new tokens were stored.
 */
export type TokenRefreshEvent =
  | { type: "tokens.loaded"; tokens: ProviderTokens; now: number }
  | { type: "tokens.missing" }
  | { type: "claim.won" }
  | { type: "claim.joined"; result: RefreshResult }
  | { type: "claim.busy" }
  | { type: "claim.failed"; error: unknown }
  | { type: "winner.done"; result: RefreshResult }
  | { type: "winner.gone" }
  | { type: "grant.answered"; tokens: ProviderTokens }
  | { type: "grant.failed"; error: unknown }
  | { type: "persist.done" }
  | { type: "persist.failed"; error: unknown }
  | { type: "release.done" }

/** Effects the refresh machine names, in the order a refresh that wins its claim meets them. */
export type TokenRefreshEffect = "loadTokens" | "claim" | "awaitWinner" | "requestGrant" | "persist" | "release"

/** What the refresh machine is started with: how many seconds before expiry a token counts as expired, and how often a vanished claim is retried. */
export interface TokenRefreshInput {
  /** Seconds before `expires_at` at which the access token is refreshed. */
  skew: number
  /** Claims to try after the one holding the refresh vanished without a result. @default 1 */
  retries?: number
}

/** Context of a refresh flow. */
export interface TokenRefreshContext {
  skew: number
  retries: number
  /** The tokens as stored when the flow started. */
  tokens?: ProviderTokens
  /** Epoch seconds at which the tokens were read. */
  now?: number
  /** The tokens to use from now on: refreshed here, or by the request that won the claim. */
  refreshed?: ProviderTokens
  failure?: RefreshFailure
  error?: unknown
  /** The outcome is another request's: this flow neither sent the grant nor failed on its own. */
  joined?: boolean
}

/**
 * The machine's freshness rule, the `stillFresh` guard: the access token outlives the skew.
 * Exported so that a session read with nobody inspecting it can skip the flow for fresh tokens
 * and still apply exactly this rule.
 *
 * @example
 * ```ts
 * tokensFresh({ expires_at: 2000 }, 1000, 60) // true
 * ```
 */
export function tokensFresh(tokens: ProviderTokens | undefined, now: number | undefined, skew: number): boolean {
  return typeof tokens?.expires_at === "number" && typeof now === "number" && tokens.expires_at - skew > now
}

const resultTokens = (result: RefreshResult) => ("tokens" in result ? result.tokens : undefined)
const resultFailure = (result: RefreshResult) => ("failure" in result ? result.failure : "unavailable")

/**
 * The access-token refresh, on a session read: load the stored tokens, keep them while they are
 * fresh (`expires_at` more than `skew` seconds away), else refresh them exactly once however many
 * requests (or instances) read the session at the same time. One request claims the refresh and
 * sends the refresh grant; every other one joins it and gets the winner's tokens, so a rotated
 * refresh token is never used twice. A refused grant (`invalid_grant`: revoked or expired) and an
 * unreachable provider both end in `failed`, the claim released, and the session reads with
 * `error: "RefreshTokenError"`.
 *
 * @example
 * ```ts
 * const actor = createActor(tokenRefreshMachine, { input: { skew: 60 } }).start()
 * actor.send({ type: "tokens.loaded", tokens: { access_token: "a", refresh_token: "r", expires_at: 100 }, now: 90 })
 * actor.getSnapshot().value // { refreshing: "claiming" }
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2 (refresh token rotation)
 */
export const tokenRefreshMachine = flowMachine(setup({
  types: {
    context: {} as TokenRefreshContext,
    events: {} as TokenRefreshEvent,
    input: {} as TokenRefreshInput,
    meta: {} as FlowMeta<TokenRefreshEffect>,
  },
  actions: {
    recordLoaded: assign(({ event }) => (event.type === "tokens.loaded" ? { tokens: event.tokens, now: event.now } : {})),
    recordJoined: assign(({ event }) => (event.type === "claim.joined" || event.type === "winner.done" ? { refreshed: resultTokens(event.result), joined: true } : {})),
    recordJoinFailure: assign(({ event }) => (event.type === "claim.joined" || event.type === "winner.done" ? { failure: resultFailure(event.result), joined: true } : {})),
    recordNoRefreshToken: assign({ failure: "no-refresh-token" as const }),
    recordGone: assign({ failure: "unavailable" as const }),
    recordClaimFailure: assign(({ event }) => (event.type === "claim.failed" ? { failure: "unavailable" as const, error: event.error } : {})),
    countRetry: assign(({ context }) => ({ retries: context.retries - 1 })),
    /** The new tokens; a provider that does not rotate sends no refresh token, and the old one stays valid. */
    recordGranted: assign(({ context, event }) =>
      event.type === "grant.answered" ? { refreshed: { ...event.tokens, refresh_token: event.tokens.refresh_token ?? context.tokens?.refresh_token } } : {},
    ),
    recordRevoked: assign(({ event }) => (event.type === "grant.failed" ? { failure: "revoked" as const, error: event.error } : {})),
    recordUnavailable: assign(({ event }) => (event.type === "grant.failed" ? { failure: "unavailable" as const, error: event.error } : {})),
    recordNotPersisted: assign(({ event }) => (event.type === "persist.failed" ? { failure: "not-persisted" as const, error: event.error } : {})),
  },
  guards: {
    /** The access token outlives the skew: nothing to do. */
    stillFresh: ({ context }) => tokensFresh(context.tokens, context.now, context.skew),
    /** Expired, or about to, and nothing to refresh it with. */
    noRefreshToken: ({ context }) => !context.tokens?.refresh_token,
    /** The refresh another request did gave tokens (not a failure). */
    joinedTokens: ({ event }) => (event.type === "claim.joined" || event.type === "winner.done") && resultTokens(event.result) !== undefined,
    /** The claim vanished without a result (its holder crashed or timed out) and a retry is left. */
    canRetry: ({ context }) => context.retries > 0,
    /**
     * The provider refused the refresh token itself: an OAuth error response (as oauth4webapi's
     * `ResponseBodyError` carries it) with `error: "invalid_grant"`: revoked, expired or reused.
     * Anything else (a network error, a 5xx, a malformed answer) is the provider being unavailable.
     */
    grantRevoked: ({ event }) => event.type === "grant.failed" && typeof event.error === "object" && event.error !== null && (event.error as { error?: unknown }).error === "invalid_grant",
  },
}).createMachine)({
  id: "token-refresh",
  context: ({ input }) => ({ skew: input.skew, retries: input.retries ?? 1 }),
  initial: "loadingTokens",
  states: {
    loadingTokens: {
      meta: { effect: "loadTokens" },
      on: {
        "tokens.loaded": { target: "checkingExpiry", actions: "recordLoaded" },
        "tokens.missing": "absent",
      },
    },
    checkingExpiry: {
      always: [
        { guard: "stillFresh", target: "fresh" },
        { guard: "noRefreshToken", target: "failed", actions: "recordNoRefreshToken" },
        { target: "refreshing" },
      ],
    },
    refreshing: {
      initial: "claiming",
      states: {
        claiming: {
          meta: { effect: "claim" },
          on: {
            "claim.won": "claimed",
            "claim.joined": [
              { guard: "joinedTokens", target: "#token-refresh.joined", actions: "recordJoined" },
              { target: "#token-refresh.failed", actions: "recordJoinFailure" },
            ],
            "claim.busy": "awaitingWinner",
            // The store or the database could not say who refreshes: never risk using the refresh token twice.
            "claim.failed": { target: "#token-refresh.failed", actions: "recordClaimFailure" },
          },
        },
        awaitingWinner: {
          meta: { effect: "awaitWinner" },
          on: {
            "winner.done": [
              { guard: "joinedTokens", target: "#token-refresh.joined", actions: "recordJoined" },
              { target: "#token-refresh.failed", actions: "recordJoinFailure" },
            ],
            "winner.gone": [
              { guard: "canRetry", target: "claiming", actions: "countRetry" },
              { target: "#token-refresh.failed", actions: "recordGone" },
            ],
          },
        },
        claimed: {
          meta: { effect: "requestGrant" },
          on: {
            "grant.answered": { target: "granted", actions: "recordGranted" },
            "grant.failed": [
              { guard: "grantRevoked", target: "releasing", actions: "recordRevoked" },
              { target: "releasing", actions: "recordUnavailable" },
            ],
          },
        },
        granted: {
          meta: { effect: "persist" },
          on: {
            "persist.done": "#token-refresh.persisted",
            "persist.failed": { target: "#token-refresh.failed", actions: "recordNotPersisted" },
          },
        },
        releasing: {
          meta: { effect: "release" },
          on: { "release.done": "#token-refresh.failed" },
        },
      },
    },
    fresh: { type: "final" },
    joined: { type: "final" },
    persisted: { type: "final" },
    failed: { type: "final" },
    absent: { type: "final" },
  },
})
