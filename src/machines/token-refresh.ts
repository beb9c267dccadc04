import { and, assign, setup } from "xstate"
import { parseRowClaim } from "../core/row-claim.js"
import type { FlowMeta } from "./run-flow.js"
import { flowMachine } from "./flow-machine.js"
import type { ProviderTokens, RefreshFailure, RefreshResult } from "../core/refresh-store.js"
export type { ProviderTokens, RefreshFailure, RefreshResult } from "../core/refresh-store.js"

/**
 * How concurrent refreshes of one refresh token are told apart across instances: through the
 * refresh store (`"store"`, JWT sessions: the tokens ride in each browser's cookie), or through
 * the account row itself (`"row"`, database sessions: its refresh token is swapped,
 * compare-and-set, for a claim marker).
 */
export type RefreshLock = "store" | "row"

/**
 * Events of the refresh flow, each the outcome of the effect its state names, as the world
 * answered it: the account row as read (`at`: when, epoch ms), whether another refresh runs in this
 * process, what the refresh store or the row said to a claim, what the token endpoint answered,
 * whether the new tokens were stored. The machine's guards decide what each answer means.
 */
export type TokenRefreshEvent =
  | { type: "run.entered" }
  | { type: "run.running" }
  | { type: "run.settled"; result: RefreshResult }
  | { type: "claim.won" }
  | { type: "claim.busy" }
  | { type: "claim.done"; result?: RefreshResult }
  | { type: "claim.failed"; error: unknown }
  | { type: "backOff.found"; failure: RefreshFailure }
  | { type: "backOff.none" }
  | { type: "claim.swapped"; claimToken: string }
  | { type: "claim.lost" }
  | { type: "row.read"; tokens: ProviderTokens; at: number }
  | { type: "row.missing" }
  | { type: "row.failed"; error: unknown }
  | { type: "winner.busy"; at: number }
  | { type: "winner.done"; result?: RefreshResult }
  | { type: "winner.gone"; at: number }
  | { type: "grant.answered"; tokens: ProviderTokens }
  | { type: "grant.failed"; error: unknown }
  | { type: "persist.done" }
  | { type: "persist.lost" }
  | { type: "persist.failed"; error: unknown }
  | { type: "release.done" }

/** Effects the refresh machine names, in the order a refresh that wins its claim meets them. */
export type TokenRefreshEffect =
  | "readRow"
  | "enterRun"
  | "awaitRun"
  | "claimInStore"
  | "readRecentFailure"
  | "swapClaim"
  | "awaitWinner"
  | "requestGrant"
  | "persist"
  | "release"

/** What the refresh machine is started with: the tokens as the session holds them, when they were read, and how refreshes meet. */
export interface TokenRefreshInput {
  /** Seconds before `expires_at` at which the access token is refreshed. */
  skew: number
  /** The tokens the session JWT holds for the provider, or the account row as listed; none when the session holds none. */
  tokens?: ProviderTokens | undefined
  /** When the tokens were read, epoch ms. */
  at: number
  /** How concurrent refreshes meet. @default "store" */
  lock?: RefreshLock
  /** Milliseconds a claim is held before the requests waiting for it give up. @default 30000 */
  claimMs?: number
  /** Claims to try after the one holding the refresh vanished without a result. @default 1 */
  retries?: number
}

/**
 * Context of a refresh flow. The tokens (and the row's claim marker, which carries a refresh
 * token) sit under names the inspector redacts; the flow is never persisted.
 */
export interface TokenRefreshContext {
  skew: number
  retries: number
  lock: RefreshLock
  claimMs: number
  /** The tokens as stored when the flow read them. */
  tokens?: ProviderTokens
  /** When `tokens` were read, epoch ms. */
  at: number
  /** The tokens are the listing's: the row is read again before it is refreshed. */
  reread: boolean
  /** The row lock: the claim marker this flow swapped into the row. */
  claimToken?: string
  /** The row lock: the claim found in the row had outlived its holder, and is taken over. */
  takeOver?: boolean
  /** When this flow started waiting for the refresh another request holds, epoch ms. */
  waitingSince?: number
  /** The tokens to use from now on: refreshed here, or by the request whose refresh this flow joined. */
  refreshed?: ProviderTokens
  failure?: RefreshFailure
  error?: unknown
}

/**
 * The refresh flow's initial context, from its input (the machine's `context` factory).
 *
 * @example
 * ```ts
 * tokenRefreshContext({ skew: 60, tokens, at: Date.now() }).lock // "store"
 * ```
 */
export function tokenRefreshContext(input: TokenRefreshInput): TokenRefreshContext {
  const lock = input.lock ?? "store"
  return {
    skew: input.skew,
    retries: input.retries ?? 1,
    lock,
    claimMs: input.claimMs ?? 30_000,
    ...(input.tokens && { tokens: input.tokens }),
    at: input.at,
    reread: lock === "row",
  }
}

type ResultEvent = Extract<TokenRefreshEvent, { type: "run.settled" | "claim.done" | "winner.done" }>
const carriesResult = (event: TokenRefreshEvent): event is ResultEvent => event.type === "run.settled" || event.type === "claim.done" || event.type === "winner.done"
const resultTokens = (event: ResultEvent) => (event.result && "tokens" in event.result ? event.result.tokens : undefined)
const resultFailure = (event: ResultEvent) => (event.result && "failure" in event.result ? event.result.failure : "unavailable")

/** What another request's refresh gave, joined or found: its tokens, or its failure. */
const joinedResult = [
  { guard: "joinedTokens", target: "#token-refresh.joined", actions: "recordJoined" },
  { target: "#token-refresh.joinedFailure", actions: "recordJoinFailure" },
] as const

/** The store or the row could not say who refreshes: never risk using the refresh token twice. */
const claimFailed = { target: "#token-refresh.failed", actions: "recordClaimFailure" } as const

/**
 * The access-token refresh, on a session read: keep the tokens while they are fresh
 * (`expires_at` more than `skew` seconds away), else refresh them exactly once however many
 * requests (or instances) read the session at the same time, and say whose refresh it was.
 *
 * In one process, the first read of a due token leads the refresh and the others join it
 * (`awaitingRun`). Across instances, the lead claims the refresh: in the refresh store (a store
 * that answers busy makes it wait for the holder's result; one that has a result gives it), or in
 * the account row, where the machine reads the claim: a live marker means another request holds
 * it, an expired one is taken over with the refresh token it carries, a failure published a moment
 * ago is not tried again at once (back-off), and a lost compare-and-set reads the row again to see
 * who won. The claim's holder sends the refresh grant, so a rotated refresh token is never used
 * twice. A refused grant (`invalid_grant`) and an unreachable provider both end in `failed`, the
 * claim released; `joined` and `joinedFailure` are another request's outcome (this flow neither
 * sent the grant nor failed on its own, and so does not report it).
 *
 * @example
 * ```ts
 * const actor = createActor(tokenRefreshMachine, { input: { skew: 60, tokens: { access_token: "a", refresh_token: "r", expires_at: 100 }, at: 90_000 } }).start()
 * actor.getSnapshot().value // { refreshing: "enteringRun" }
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
    recordLoaded: assign(({ event }) => (event.type === "row.read" ? { tokens: event.tokens, at: event.at, reread: false } : {})),
    recordJoined: assign(({ event }) => (carriesResult(event) ? { refreshed: resultTokens(event) } : {})),
    recordJoinFailure: assign(({ event }) => (carriesResult(event) ? { failure: resultFailure(event) } : {})),
    recordBackOff: assign(({ event }) => (event.type === "backOff.found" ? { failure: event.failure } : {})),
    recordNoRefreshToken: assign({ failure: "no-refresh-token" as const }),
    recordReadFailure: assign(({ event }) => (event.type === "row.failed" ? { failure: "unavailable" as const, error: event.error } : {})),
    recordClaimFailure: assign(({ event }) => (event.type === "claim.failed" ? { failure: "unavailable" as const, error: event.error } : {})),
    recordTakeOver: assign({ takeOver: true }),
    recordClaimToken: assign(({ event }) => (event.type === "claim.swapped" ? { claimToken: event.claimToken } : {})),
    recordRowTokens: assign(({ event }) => (event.type === "row.read" ? { refreshed: event.tokens } : {})),
    /** The row is unclaimed with the tokens it had: the request that held it put them back, its refresh failed. */
    recordPutBack: assign({ failure: "unavailable" as const }),
    recordUnlinked: assign({ failure: "unavailable" as const, error: () => new Error("The account was unlinked during the refresh") }),
    recordWaiting: assign(({ context, event }) => (event.type === "winner.busy" || event.type === "row.read" ? { waitingSince: context.waitingSince ?? event.at } : {})),
    /** A new claim, from where the wait ended. */
    countRetry: assign(({ context, event }) => ({
      retries: context.retries - 1,
      waitingSince: undefined,
      ...((event.type === "winner.busy" || event.type === "winner.gone" || event.type === "row.read") && { at: event.at }),
    })),
    recordGone: assign({ failure: "unavailable" as const }),
    /** The new tokens; a provider that does not rotate sends no refresh token, and the old one stays valid. */
    recordGranted: assign(({ context, event }) =>
      event.type === "grant.answered" ? { refreshed: { ...event.tokens, refresh_token: event.tokens.refresh_token ?? context.tokens?.refresh_token } } : {},
    ),
    recordRevoked: assign(({ event }) => (event.type === "grant.failed" ? { failure: "revoked" as const, error: event.error } : {})),
    recordUnavailable: assign(({ event }) => (event.type === "grant.failed" ? { failure: "unavailable" as const, error: event.error } : {})),
    recordNotPersisted: assign(({ event }) => ({ failure: "not-persisted" as const, ...(event.type === "persist.failed" && { error: event.error }) })),
  },
  guards: {
    /** The session holds no tokens for the provider (or the row is gone). */
    noTokens: ({ context }) => context.tokens === undefined,
    /** The access token outlives the skew: nothing to do. */
    stillFresh: ({ context }) => typeof context.tokens?.expires_at === "number" && context.tokens.expires_at - context.skew > Math.floor(context.at / 1000),
    /** The tokens are the listing's: read the row again, another instance may have refreshed it since. */
    rereadRow: ({ context }) => context.reread,
    /** Expired, or about to, and nothing to refresh it with. */
    noRefreshToken: ({ context }) => !context.tokens?.refresh_token,
    /** Refreshes meet in the account row (database sessions). */
    rowLock: ({ context }) => context.lock === "row",
    /** The refresh another request did gave tokens (not a failure). */
    joinedTokens: ({ event }) => carriesResult(event) && resultTokens(event) !== undefined,
    /** The row as read carries another request's claim, still within its time. */
    rowClaimLive: ({ context }) => (parseRowClaim(context.tokens?.refresh_token)?.until ?? -Infinity) > context.at,
    /** The row as read carries a claim whose holder outlived it (crashed, or timed out). */
    rowClaimStale: ({ context }) => (parseRowClaim(context.tokens?.refresh_token)?.until ?? Infinity) <= context.at,
    /** The row read again carries a claim (another request's, live or not). */
    rowClaimed: ({ event }) => event.type === "row.read" && parseRowClaim(event.tokens.refresh_token) !== undefined,
    /** The row read again carries no claim. */
    rowUnclaimed: ({ event }) => event.type === "row.read" && parseRowClaim(event.tokens.refresh_token) === undefined,
    /** The row read again carries no claim and other tokens than this flow read: another request refreshed them. */
    rowRefreshed: ({ context, event }) =>
      event.type === "row.read" &&
      parseRowClaim(event.tokens.refresh_token) === undefined &&
      (event.tokens.access_token !== context.tokens?.access_token || event.tokens.expires_at !== context.tokens?.expires_at),
    /** The wait is over without a result: the claim it waits for outlived its holder, or the wait took longer than a claim is held. */
    waitOver: ({ context, event }) => {
      if (event.type !== "winner.busy" && event.type !== "row.read") return false
      const claim = event.type === "row.read" ? parseRowClaim(event.tokens.refresh_token) : undefined
      if (claim && claim.until <= event.at) return true
      return context.waitingSince !== undefined && event.at - context.waitingSince >= context.claimMs
    },
    /** A retry of the claim is left. */
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
  context: ({ input }) => tokenRefreshContext(input),
  initial: "checkingExpiry",
  states: {
    checkingExpiry: {
      always: [
        { guard: "noTokens", target: "absent" },
        { guard: "stillFresh", target: "fresh" },
        { guard: "rereadRow", target: "loadingTokens" },
        { guard: "noRefreshToken", target: "failed", actions: "recordNoRefreshToken" },
        { target: "refreshing" },
      ],
    },
    loadingTokens: {
      meta: { effect: "readRow" },
      on: {
        "row.read": { target: "checkingExpiry", actions: "recordLoaded" },
        "row.missing": "absent",
        "row.failed": { target: "failed", actions: "recordReadFailure" },
      },
    },
    refreshing: {
      initial: "enteringRun",
      states: {
        // One refresh per process: the first read of a due token leads it, the others join it.
        enteringRun: {
          meta: { effect: "enterRun" },
          on: { "run.entered": "claiming", "run.running": "awaitingRun" },
        },
        awaitingRun: {
          meta: { effect: "awaitRun" },
          on: {
            "run.settled": joinedResult,
          },
        },
        claiming: {
          always: [{ guard: "rowLock", target: "checkingRowClaim" }, { target: "claimingInStore" }],
        },
        claimingInStore: {
          meta: { effect: "claimInStore" },
          on: {
            "claim.won": "claimed",
            "claim.busy": "awaitingWinner",
            "claim.done": joinedResult,
            "claim.failed": claimFailed,
          },
        },
        checkingRowClaim: {
          always: [
            { guard: "rowClaimLive", target: "awaitingWinner" },
            { guard: "rowClaimStale", target: "checkingBackOff", actions: "recordTakeOver" },
            { target: "checkingBackOff" },
          ],
        },
        // A refresh of this token that failed a moment ago (here, or on an instance sharing the store) is not tried again at once.
        checkingBackOff: {
          meta: { effect: "readRecentFailure" },
          on: {
            "backOff.found": { target: "#token-refresh.joinedFailure", actions: "recordBackOff" },
            "backOff.none": "swappingClaim",
            "claim.failed": claimFailed,
          },
        },
        swappingClaim: {
          meta: { effect: "swapClaim" },
          on: {
            "claim.swapped": { target: "claimed", actions: "recordClaimToken" },
            "claim.lost": "rereadingRow",
            "claim.failed": claimFailed,
          },
        },
        // The row changed since it was read: who changed it?
        rereadingRow: {
          meta: { effect: "readRow" },
          on: {
            "row.read": [
              { guard: "rowClaimed", target: "awaitingWinner" },
              { guard: "rowRefreshed", target: "#token-refresh.joined", actions: "recordRowTokens" },
              { target: "#token-refresh.joinedFailure", actions: "recordPutBack" },
            ],
            "row.missing": { target: "#token-refresh.failed", actions: "recordUnlinked" },
            "row.failed": { target: "#token-refresh.failed", actions: "recordReadFailure" },
          },
        },
        awaitingWinner: {
          meta: { effect: "awaitWinner" },
          on: {
            "winner.busy": [
              { guard: and(["waitOver", "canRetry"]), target: "claiming", actions: "countRetry" },
              { guard: "waitOver", target: "#token-refresh.failed", actions: "recordGone" },
              { actions: "recordWaiting" },
            ],
            "winner.done": joinedResult,
            "winner.gone": [
              { guard: "canRetry", target: "claiming", actions: "countRetry" },
              { target: "#token-refresh.failed", actions: "recordGone" },
            ],
            "row.read": [
              { guard: "rowRefreshed", target: "#token-refresh.joined", actions: "recordRowTokens" },
              { guard: "rowUnclaimed", target: "#token-refresh.joinedFailure", actions: "recordPutBack" },
              { guard: and(["waitOver", "canRetry"]), target: "claiming", actions: "countRetry" },
              { guard: "waitOver", target: "#token-refresh.failed", actions: "recordGone" },
              { actions: "recordWaiting" },
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
            // The row's claim was taken over before the new tokens were stored: they are not written over the other's.
            "persist.lost": { target: "#token-refresh.failed", actions: "recordNotPersisted" },
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
    joinedFailure: { type: "final" },
    persisted: { type: "final" },
    failed: { type: "final" },
    absent: { type: "final" },
  },
})
