/**
 * Access-token refresh on the session read: the effects the refresh machine names, for the JWT
 * strategy (the tokens ride in the session JWT; concurrent refreshes meet in the refresh store) and
 * the database strategy (the tokens live in the account row; concurrent refreshes meet on a
 * compare-and-set of its refresh token), and the runs of one configuration, so that concurrent
 * reads in one process share one run. The effects report what the store, the row and the provider
 * answered; the machine (src/machines/token-refresh.ts) decides what it means.
 *
 * @module
 */
import * as o from "oauth4webapi"
import { RefreshTokenError } from "../core/errors.js"
import { emitEvent } from "../core/events.js"
import { authorizationServer } from "../core/oauth/discovery.js"
import { clientAuthentication, clientOf } from "../core/oauth/client.js"
import { httpOptions } from "../core/oauth/endpoints.js"
import { refreshStoreOf, type RefreshStore } from "../core/refresh-store.js"
import { openResult, refreshKey, sealResult } from "../core/refresh-result.js"
import { randomHex } from "../core/crypto.js"
import { refreshEnabled } from "../core/refresh-options.js"
import { claimedRefreshToken, rowClaimMarker } from "../core/row-claim.js"
import { tokenRefreshContext, tokenRefreshMachine, type ProviderTokens, type RefreshFailure, type RefreshLock, type RefreshResult, type TokenRefreshContext, type TokenRefreshEvent, type TokenRefreshInput } from "../machines/token-refresh.js"
import { finalAtStart } from "../machines/eventless.js"
import { runFlow, type FlowEffects } from "../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import type { OAuthProviderConfig, TokenEndpointConfig } from "../providers/oauth.js"
import type { Adapter, AdapterAccount } from "../adapters.js"
import type { AuthConfig, LoggerInstance, RefreshOptions } from "../types.js"
import type { SnapshotFrom } from "xstate"

export { refreshEnabled }
export { keptTokens, takeTokensClaim, tokensClaim, type TokensClaim } from "../core/tokens-claim.js"

/** What a refresh gave for one provider: the tokens to use (`refreshed` when they are new), or why there are none. */
export type RefreshOutcome =
  | { provider: string; tokens: ProviderTokens; refreshed: boolean }
  | { provider: string; failure: RefreshFailure; error?: unknown }

/** The refresh settings of a configuration, defaults applied. */
export interface RefreshPolicy {
  skew: number
  store: RefreshStore
  /** Milliseconds a claim is held before other requests give up waiting for it. */
  claimMs: number
  /** Milliseconds a refresh result stays readable by requests still holding the old refresh token. */
  resultMs: number
  /** Milliseconds a failure is kept, so a burst of reads does not ask a failing provider again and again. */
  failureMs: number
}

const defaults = { skew: 60, claimTimeout: 30, resultLifetime: 300, failureLifetime: 5 }

/**
 * The refresh settings of a configuration with their defaults.
 *
 * @example
 * ```ts
 * refreshPolicy({ refresh: { skew: 120 } }).skew // 120
 * ```
 */
export function refreshPolicy(config: Pick<AuthConfig, "refresh">): RefreshPolicy {
  const options: RefreshOptions = typeof config.refresh === "object" && config.refresh !== null ? config.refresh : {}
  return {
    skew: options.skew ?? defaults.skew,
    store: refreshStoreOf(options),
    claimMs: (options.claimTimeout ?? defaults.claimTimeout) * 1000,
    resultMs: (options.resultLifetime ?? defaults.resultLifetime) * 1000,
    failureMs: defaults.failureLifetime * 1000,
  }
}

/** One refresh per process: the run going on for each key, per configuration (two `Auth()` configurations behave as two instances would). */
const runsByConfig = new WeakMap<object, Map<string, Promise<RefreshResult>>>()

function runsOf(config: object): Map<string, Promise<RefreshResult>> {
  let runs = runsByConfig.get(config)
  if (!runs) runsByConfig.set(config, (runs = new Map()))
  return runs
}

/**
 * This flow's place among the process's runs of one refresh: it leads the run of its key when
 * none is going on (entering is a test-and-set: nothing is awaited between the test and the set),
 * or holds the run going on, to wait for it.
 */
class LocalRun {
  #settle: ((result: RefreshResult) => void) | undefined
  #running: Promise<RefreshResult> | undefined

  constructor(
    private readonly runs: Map<string, Promise<RefreshResult>>,
    private readonly key: string,
  ) {}

  enter(): TokenRefreshEvent {
    const running = this.runs.get(this.key)
    if (running) {
      this.#running = running
      return { type: "run.running" }
    }
    this.runs.set(this.key, new Promise<RefreshResult>((resolve) => (this.#settle = resolve)))
    return { type: "run.entered" }
  }

  async wait(): Promise<TokenRefreshEvent> {
    return { type: "run.settled", result: this.#running ? await this.#running : { failure: "unavailable" } }
  }

  /** Ends the run this flow leads (if it leads one): the reads that joined it get its outcome. */
  end(outcome: RefreshOutcome | undefined): void {
    const settle = this.#settle
    if (!settle) return
    this.#settle = undefined
    this.runs.delete(this.key)
    settle(outcome && "tokens" in outcome ? { tokens: outcome.tokens } : { failure: outcome && "failure" in outcome ? outcome.failure : "unavailable" })
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How long to wait before looking at a held claim again: 10 ms, then about as long as the wait so far (doubling), at most 100 ms. */
function pause({ waitingSince }: TokenRefreshContext): number {
  return waitingSince === undefined ? 10 : Math.min(100, Math.max(10, Date.now() - waitingSince))
}

/** The refresh token this flow holds: the one its claim marker carries (row lock), else the one it read. */
function heldRefreshToken({ claimToken, tokens }: TokenRefreshContext): string | undefined {
  return claimToken !== undefined ? claimedRefreshToken(claimToken) : tokens?.refresh_token
}

/**
 * Sends the refresh grant with the provider's client authentication and processes the answer:
 * the new tokens with `expires_at` computed from `expires_in`.
 *
 * @example
 * ```ts
 * const tokens = await refreshGrant(provider, "rt-old") // { access_token, refresh_token?, expires_at, … }
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6
 */
export async function refreshGrant(provider: OAuthProviderConfig, refreshToken: string): Promise<ProviderTokens> {
  const server = await authorizationServer(provider)
  if (!server.token_endpoint) throw new TypeError(`Provider "${provider.id}" has no token endpoint`)
  let response = await o.refreshTokenGrantRequest(server, clientOf(provider), clientAuthentication(provider), refreshToken, httpOptions(provider, new URL(server.token_endpoint)))
  const conform = typeof provider.token === "object" ? (provider.token as TokenEndpointConfig).conform : undefined
  response = (conform && (await conform(response))) || response
  const processed = await o.processRefreshTokenResponse(server, clientOf(provider), response)
  const tokens: ProviderTokens = { access_token: processed.access_token, token_type: processed.token_type }
  if (processed.refresh_token) tokens.refresh_token = processed.refresh_token
  if (processed.scope) tokens.scope = processed.scope
  if (processed.id_token) tokens.id_token = processed.id_token
  if (typeof processed.expires_in === "number") tokens.expires_at = nowSeconds() + processed.expires_in
  return tokens
}

/** The effects of one lock kind (the refresh store, or the account row), and the key of its runs in this process. */
type LockEffects = Omit<FlowEffects<typeof tokenRefreshMachine>, "enterRun" | "awaitRun" | "requestGrant"> & {
  runKey(context: TokenRefreshContext): string
}

/** An effect only the other lock kind's flow reaches: reached here by a machine bug, it reports that it could not do it. */
const otherLock = (lock: RefreshLock, type: "claim.failed" | "row.failed" = "claim.failed") => (): TokenRefreshEvent => ({ type, error: new Error(`The ${lock} lock does not claim this way`) })

/** Who the refresh is for, for events and logs. */
interface RefreshSubject {
  config: AuthConfig
  logger: LoggerInstance
  provider: OAuthProviderConfig
  policy: RefreshPolicy
  userId?: string
  providerAccountId?: string
}

/** How a refresh flow ended: its outcome, and whether it is this flow's to report (one event per grant, not one per joined read). */
interface Settled {
  outcome: RefreshOutcome | undefined
  announce: boolean
}

function outcomesFor(id: string): FlowOutcomes<typeof tokenRefreshMachine, Settled> {
  const tokens = (tokens: ProviderTokens | undefined, refreshed: boolean): RefreshOutcome => (tokens ? { provider: id, tokens, refreshed } : { provider: id, failure: "unavailable" })
  const failure = ({ failure, error }: TokenRefreshContext): RefreshOutcome => ({ provider: id, failure: failure ?? "unavailable", ...(error !== undefined && { error }) })
  return {
    fresh: (context) => ({ outcome: tokens(context.tokens, false), announce: false }),
    absent: () => ({ outcome: undefined, announce: false }),
    joined: (context) => ({ outcome: tokens(context.refreshed, true), announce: false }),
    joinedFailure: (context) => ({ outcome: failure(context), announce: false }),
    persisted: (context) => ({ outcome: tokens(context.refreshed, true), announce: true }),
    failed: (context) => ({ outcome: failure(context), announce: true }),
  }
}

/**
 * Runs the refresh flow. With nobody inspecting, the machine's decision at its start (fresh tokens,
 * no tokens) is taken without an actor ({@link finalAtStart}): a session read with fresh tokens
 * then pays for no flow. Otherwise, and whenever the flow has work to do, the machine runs with
 * the effects of the lock kind, made only then.
 */
async function runRefresh(subject: RefreshSubject, input: TokenRefreshInput, lockEffects: () => LockEffects): Promise<RefreshOutcome | undefined> {
  const { config, provider } = subject
  const outcomes = outcomesFor(provider.id)
  if (config.inspect === undefined) {
    const context = tokenRefreshContext(input)
    const final = finalAtStart(tokenRefreshMachine, context)
    if (final !== undefined) return outcomeOf({ value: final, context } as SnapshotFrom<typeof tokenRefreshMachine>, outcomes).outcome
  }
  const lock = lockEffects()
  let run: LocalRun | undefined
  const effects: FlowEffects<typeof tokenRefreshMachine> = {
    ...lock,
    enterRun: (context) => (run ??= new LocalRun(runsOf(config), lock.runKey(context))).enter(),
    awaitRun: () => (run ? run.wait() : { type: "run.settled", result: { failure: "unavailable" } }),
    requestGrant: async (context) => {
      try {
        const refreshToken = heldRefreshToken(context)
        if (refreshToken === undefined) throw new Error("The refresh holds no refresh token")
        return { type: "grant.answered", tokens: await refreshGrant(provider, refreshToken) }
      } catch (error) {
        return { type: "grant.failed", error }
      }
    },
  }
  let settled: Settled
  try {
    settled = outcomeOf(await runFlow(tokenRefreshMachine, effects, { input, inspect: config.inspect }), outcomes)
  } catch (error) {
    settled = { outcome: { provider: provider.id, failure: "unavailable", error }, announce: true }
  }
  run?.end(settled.outcome)
  if (settled.announce && settled.outcome) await announce(subject, settled.outcome)
  return settled.outcome
}

/** The run that did the refresh (or tried to) tells the app: one event per grant, not one per joined read. */
async function announce(subject: RefreshSubject, outcome: RefreshOutcome): Promise<void> {
  const { config, logger, provider, userId, providerAccountId } = subject
  const who = { provider: provider.id, ...(userId !== undefined && { userId }), ...(providerAccountId !== undefined && { providerAccountId }) }
  if ("tokens" in outcome) {
    await emitEvent(config, logger, "tokenRefreshed", { ...who, ...(outcome.tokens.expires_at !== undefined && { expiresAt: outcome.tokens.expires_at }) })
    return
  }
  const error = new RefreshTokenError(`Refreshing the access token of provider "${provider.id}" failed (${outcome.failure})`, {
    cause: { ...who, reason: outcome.failure, ...(outcome.error instanceof Error && { err: outcome.error }) },
  })
  logger.error(error)
  await emitEvent(config, logger, "tokenRefreshFailed", { ...who, reason: outcome.failure, error })
}

/**
 * Refreshes, when due, the tokens a session JWT holds for one provider. Concurrent calls for the
 * same refresh token (in this process through its runs, across instances through the refresh
 * store) send one refresh grant; the others get its result.
 *
 * @example
 * ```ts
 * const outcome = await refreshJwtTokens({ config, logger, provider, policy: refreshPolicy(config) }, claim[provider.id])
 * ```
 */
export async function refreshJwtTokens(subject: RefreshSubject, entry: ProviderTokens | undefined): Promise<RefreshOutcome | undefined> {
  const { policy } = subject
  const input: TokenRefreshInput = { skew: policy.skew, tokens: entry ?? undefined, at: Date.now(), lock: "store", claimMs: policy.claimMs }
  return runRefresh(subject, input, () => {
    const { store } = policy
    /** The refresh token the session holds: it keys the store's claim and seals its result. */
    const refreshTokenOf = ({ tokens }: TokenRefreshContext): string => {
      if (!tokens?.refresh_token) throw new Error("The session holds no refresh token")
      return tokens.refresh_token
    }
    const opened = async (context: TokenRefreshContext, sealed: string) => openResult(refreshTokenOf(context), sealed)
    return {
      runKey: (context) => `jwt:${refreshKey(refreshTokenOf(context))}`,
      claimInStore: async (context) => {
        try {
          const claim = await store.claim(refreshKey(refreshTokenOf(context)), Date.now() + policy.claimMs)
          if (claim.state === "won") return { type: "claim.won" }
          if (claim.state === "busy") return { type: "claim.busy" }
          const result = await opened(context, claim.result)
          return { type: "claim.done", ...(result && { result }) }
        } catch (error) {
          return { type: "claim.failed", error }
        }
      },
      readRecentFailure: otherLock("store"),
      swapClaim: otherLock("store"),
      readRow: otherLock("store", "row.failed"),
      awaitWinner: async (context) => {
        await sleep(pause(context))
        try {
          const claim = await store.read(refreshKey(refreshTokenOf(context)))
          if (claim?.state === "done") {
            const result = await opened(context, claim.result)
            return { type: "winner.done", ...(result && { result }) }
          }
          return claim ? { type: "winner.busy", at: Date.now() } : { type: "winner.gone", at: Date.now() }
        } catch {
          return { type: "winner.gone", at: Date.now() }
        }
      },
      persist: async (context) => {
        try {
          const refreshToken = refreshTokenOf(context)
          if (!context.refreshed) throw new Error("The refresh has no tokens to store")
          await store.publish(refreshKey(refreshToken), await sealResult(refreshToken, { tokens: context.refreshed }), Date.now() + policy.resultMs)
          return { type: "persist.done" }
        } catch (error) {
          return { type: "persist.failed", error }
        }
      },
      release: async (context) => {
        try {
          const refreshToken = refreshTokenOf(context)
          await store.publish(refreshKey(refreshToken), await sealResult(refreshToken, { failure: context.failure ?? "unavailable" }), Date.now() + policy.failureMs)
        } catch {
          // Nothing published: the claim expires, and the next read claims again.
        }
        return { type: "release.done" }
      },
    }
  })
}

/** Where a failed refresh of a row's refresh token is published for the back-off. */
const failureKey = (refreshToken: string) => `failed:${refreshKey(refreshToken)}`

function rowTokens(row: Partial<AdapterAccount>): ProviderTokens {
  const tokens: ProviderTokens = {}
  for (const field of ["access_token", "refresh_token", "token_type", "scope", "id_token"] as const) {
    if (typeof row[field] === "string") tokens[field] = row[field] as string
  }
  if (typeof row.expires_at === "number") tokens.expires_at = row.expires_at
  return tokens
}

/**
 * Refreshes, when due, the tokens of one account row (database strategy). Across instances the
 * row's refresh token is the lock: the winner swaps it, compare-and-set, for a claim marker that
 * still carries it, sends the grant, then swaps the marker for the new tokens (or back, on failure).
 * Other readers wait for the marker to go and read the winner's tokens from the row.
 *
 * @example
 * ```ts
 * const outcome = await refreshAccountTokens({ config, logger, provider, policy, userId }, adapter, account)
 * ```
 */
export async function refreshAccountTokens(
  subject: RefreshSubject,
  adapter: Adapter,
  account: Pick<AdapterAccount, "provider" | "providerAccountId"> & Partial<AdapterAccount>,
): Promise<RefreshOutcome | undefined> {
  const { policy } = subject
  const input: TokenRefreshInput = { skew: policy.skew, tokens: rowTokens(account), at: Date.now(), lock: "row", claimMs: policy.claimMs }
  return runRefresh(subject, input, () => {
    const { getAccount, updateAccountTokens } = adapter
    if (!getAccount || !updateAccountTokens) {
      throw new TypeError("Token refresh with database sessions needs the adapter methods getAccount and updateAccountTokens (authflow's MemoryAdapter and KyselyAdapter have them)")
    }
    const read = async () => {
      const row = await getAccount.call(adapter, account.providerAccountId, account.provider)
      return row ? rowTokens(row) : undefined
    }
    const compareAndSet = (expected: string, tokens: ProviderTokens) => updateAccountTokens.call(adapter, account, expected, tokens as Parameters<typeof updateAccountTokens>[2])
    /** The refresh token as the row stores it (a refresh token, or a claim marker carrying one). */
    const storedOf = ({ tokens }: TokenRefreshContext): string => {
      if (!tokens?.refresh_token) throw new Error("The account row holds no refresh token")
      return tokens.refresh_token
    }
    return {
      runKey: () => `db:${JSON.stringify([account.provider, account.providerAccountId])}`,
      readRow: async () => {
        try {
          const tokens = await read()
          return tokens ? { type: "row.read", tokens, at: Date.now() } : { type: "row.missing" }
        } catch (error) {
          return { type: "row.failed", error }
        }
      },
      claimInStore: otherLock("row"),
      readRecentFailure: async (context) => {
        try {
          const held = claimedRefreshToken(storedOf(context))
          const recent = await policy.store.read(failureKey(held))
          if (recent?.state !== "done") return { type: "backOff.none" }
          const result = await openResult(held, recent.result)
          return { type: "backOff.found", failure: result && "failure" in result ? result.failure : "unavailable" }
        } catch (error) {
          return { type: "claim.failed", error }
        }
      },
      swapClaim: async (context) => {
        try {
          const stored = storedOf(context)
          const claimToken = rowClaimMarker(claimedRefreshToken(stored), Date.now() + policy.claimMs, randomHex(8))
          return (await compareAndSet(stored, { refresh_token: claimToken })) ? { type: "claim.swapped", claimToken } : { type: "claim.lost" }
        } catch (error) {
          return { type: "claim.failed", error }
        }
      },
      awaitWinner: async (context) => {
        await sleep(pause(context))
        try {
          const tokens = await read()
          return tokens ? { type: "row.read", tokens, at: Date.now() } : { type: "winner.gone", at: Date.now() }
        } catch {
          return { type: "winner.gone", at: Date.now() }
        }
      },
      persist: async ({ claimToken, refreshed }) => {
        try {
          if (claimToken === undefined || !refreshed) throw new Error("The refresh holds no claim, or has no tokens to store")
          return (await compareAndSet(claimToken, { ...refreshed })) ? { type: "persist.done" } : { type: "persist.lost" }
        } catch (error) {
          return { type: "persist.failed", error }
        }
      },
      release: async ({ claimToken, failure }) => {
        if (claimToken === undefined) return { type: "release.done" }
        const held = claimedRefreshToken(claimToken)
        try {
          await compareAndSet(claimToken, { refresh_token: held })
          await policy.store.publish(failureKey(held), await sealResult(held, { failure: failure ?? "unavailable" }), Date.now() + policy.failureMs)
        } catch {
          // The marker expires on its own; the next read takes the claim over.
        }
        return { type: "release.done" }
      },
    }
  })
}

/**
 * Whether an account row's tokens are managed by the refresh: its provider refreshes, and the row
 * has a refresh token and an expiry.
 *
 * @example
 * ```ts
 * const managed = accounts.filter((account) => isManagedAccount(config, providers, account))
 * ```
 */
export function isManagedAccount(config: AuthConfig, providers: readonly { id: string; type: string; refresh?: boolean }[], account: AdapterAccount): boolean {
  const provider = providers.find((candidate) => candidate.id === account.provider)
  return Boolean(provider && refreshEnabled(config, provider) && typeof account.refresh_token === "string" && typeof account.expires_at === "number")
}
