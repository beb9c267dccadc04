/**
 * Access-token refresh on the session read: the effects the refresh machine names, for the JWT
 * strategy (the tokens ride in the session JWT; concurrent refreshes meet in the refresh store) and
 * the database strategy (the tokens live in the account row; concurrent refreshes meet on a
 * compare-and-set of its refresh token), and one in-flight map per configuration so that
 * concurrent reads in one process share one run.
 *
 * @module
 */
import * as o from "oauth4webapi"
import { RefreshTokenError } from "../core/errors.js"
import { emitEvent } from "../core/events.js"
import { authorizationServer } from "../core/oauth/discovery.js"
import { clientAuthentication, clientOf } from "../core/oauth/client.js"
import { httpOptions } from "../core/oauth/endpoints.js"
import { openResult, refreshKey, refreshStoreOf, sealResult, type RefreshStore } from "../core/refresh-store.js"
import { randomHex } from "../core/crypto.js"
import { refreshEnabled } from "../core/refresh-options.js"
import { tokenRefreshMachine, tokensFresh, type ProviderTokens, type RefreshFailure, type RefreshResult, type TokenRefreshEvent } from "../machines/token-refresh.js"
import { runFlow, type FlowEffects } from "../machines/run-flow.js"
import { outcomeOf, type FlowOutcomes } from "./flow-outcomes.js"
import type { OAuthProviderConfig, TokenEndpointConfig } from "../providers/oauth.js"
import type { Adapter, AdapterAccount } from "../adapters.js"
import type { AuthConfig, LoggerInstance, RefreshOptions } from "../types.js"

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

// Concurrent reads in one process join one run. One map per configuration: two `Auth()`
// configurations behave as two instances would.
const inFlightByConfig = new WeakMap<object, Map<string, Promise<RefreshResult>>>()

function inFlightOf(config: object): Map<string, Promise<RefreshResult>> {
  let map = inFlightByConfig.get(config)
  if (!map) inFlightByConfig.set(config, (map = new Map()))
  return map
}

const nowSeconds = () => Math.floor(Date.now() / 1000)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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

/** The effects that differ between the strategies; claim joining, the grant and the run are shared. */
interface StrategyEffects {
  /** The in-flight key of this refresh. */
  key: string
  loadTokens(): Promise<TokenRefreshEvent>
  /** Claims the refresh across instances (after this process's in-flight map said no run is going on). */
  claimShared(tokens: ProviderTokens): Promise<TokenRefreshEvent>
  awaitWinner(tokens: ProviderTokens): Promise<TokenRefreshEvent>
  /** The refresh token to send: the one claimed. */
  heldRefreshToken(tokens: ProviderTokens): string
  persist(old: ProviderTokens, refreshed: ProviderTokens): Promise<TokenRefreshEvent>
  release(old: ProviderTokens, failure: RefreshFailure): Promise<TokenRefreshEvent>
}

/** Who the refresh is for, for events and logs. */
interface RefreshSubject {
  config: AuthConfig
  logger: LoggerInstance
  provider: OAuthProviderConfig
  policy: RefreshPolicy
  userId?: string
  providerAccountId?: string
}

async function runRefresh(subject: RefreshSubject, strategy: StrategyEffects): Promise<RefreshOutcome | undefined> {
  const { config, provider, policy } = subject
  const inFlight = inFlightOf(config)
  let settle: ((result: RefreshResult) => void) | undefined
  const effects: FlowEffects<typeof tokenRefreshMachine> = {
    loadTokens: () => strategy.loadTokens(),
    claim: async ({ tokens }) => {
      if (!settle) {
        const running = inFlight.get(strategy.key)
        if (running) return { type: "claim.joined", result: await running }
        inFlight.set(strategy.key, new Promise<RefreshResult>((resolve) => (settle = resolve)))
      }
      try {
        return await strategy.claimShared(tokens!)
      } catch (error) {
        return { type: "claim.failed", error }
      }
    },
    awaitWinner: async ({ tokens }) => {
      try {
        return await strategy.awaitWinner(tokens!)
      } catch {
        return { type: "winner.gone" }
      }
    },
    requestGrant: async ({ tokens }) => {
      try {
        return { type: "grant.answered", tokens: await refreshGrant(provider, strategy.heldRefreshToken(tokens!)) }
      } catch (error) {
        return { type: "grant.failed", error }
      }
    },
    persist: async ({ tokens, refreshed }) => {
      try {
        return await strategy.persist(tokens!, refreshed!)
      } catch (error) {
        return { type: "persist.failed", error }
      }
    },
    release: async ({ tokens, failure }) => {
      try {
        return await strategy.release(tokens!, failure!)
      } catch {
        return { type: "release.done" }
      }
    },
  }
  const id = provider.id
  const outcomes: FlowOutcomes<typeof tokenRefreshMachine, RefreshOutcome | undefined> = {
    fresh: ({ tokens }) => ({ provider: id, tokens: tokens!, refreshed: false }),
    joined: ({ refreshed }) => ({ provider: id, tokens: refreshed!, refreshed: true }),
    persisted: ({ refreshed }) => ({ provider: id, tokens: refreshed!, refreshed: true }),
    failed: ({ failure, error }) => ({ provider: id, failure: failure ?? "unavailable", ...(error !== undefined && { error }) }),
    absent: () => undefined,
  }
  let outcome: RefreshOutcome | undefined
  let own = false
  try {
    const flow = await runFlow(tokenRefreshMachine, effects, { input: { skew: policy.skew }, inspect: config.inspect })
    // Only the flow that sent the grant (or failed on its own) tells the app: one event per refresh, not per read.
    own = flow.value !== "fresh" && flow.value !== "absent" && !flow.context.joined
    outcome = outcomeOf(flow, outcomes)
  } catch (error) {
    own = true
    outcome = { provider: id, failure: "unavailable", error }
  } finally {
    if (settle) {
      inFlight.delete(strategy.key)
      settle(outcome && "tokens" in outcome ? { tokens: outcome.tokens } : { failure: outcome && "failure" in outcome ? outcome.failure : "unavailable" })
    }
  }
  if (own && outcome) await announce(subject, outcome)
  return outcome
}

/**
 * Fresh tokens need no flow: with nobody inspecting, the machine's own freshness rule
 * ({@link tokensFresh}, its `stillFresh` guard) is applied without running it, so a session read
 * pays nothing for tokens that are fresh. With an inspector the flow runs, so it shows every read.
 */
function skipsFlow(subject: RefreshSubject, tokens: ProviderTokens): boolean {
  return subject.config.inspect === undefined && tokensFresh(tokens, nowSeconds(), subject.policy.skew)
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
 * same refresh token (in this process through the in-flight map, across instances through the
 * refresh store) send one refresh grant; the others get its result.
 *
 * @example
 * ```ts
 * const outcome = await refreshJwtTokens({ config, logger, provider, policy: refreshPolicy(config) }, claim[provider.id])
 * ```
 */
export async function refreshJwtTokens(subject: RefreshSubject, entry: ProviderTokens | undefined): Promise<RefreshOutcome | undefined> {
  const { policy } = subject
  if (entry && skipsFlow(subject, entry)) return { provider: subject.provider.id, tokens: entry, refreshed: false }
  const original = entry?.refresh_token
  const key = original ? refreshKey(original) : `none:${randomHex(8)}`
  const joinedFrom = async (sealed: string): Promise<TokenRefreshEvent> => ({ type: "claim.joined", result: (await openResult(original!, sealed)) ?? { failure: "unavailable" } })
  return runRefresh(subject, {
    key: `jwt:${key}`,
    loadTokens: async () => (entry ? { type: "tokens.loaded", tokens: entry, now: nowSeconds() } : { type: "tokens.missing" }),
    claimShared: async () => {
      const claim = await policy.store.claim(key, Date.now() + policy.claimMs)
      if (claim.state === "won") return { type: "claim.won" }
      if (claim.state === "busy") return { type: "claim.busy" }
      return joinedFrom(claim.result)
    },
    awaitWinner: async () => {
      const deadline = Date.now() + policy.claimMs
      for (let wait = 10; Date.now() < deadline; wait = Math.min(wait * 2, 100)) {
        await sleep(wait)
        const claim = await policy.store.read(key)
        if (!claim) return { type: "winner.gone" }
        if (claim.state === "done") return { type: "winner.done", result: (await openResult(original!, claim.result)) ?? { failure: "unavailable" } }
      }
      return { type: "winner.gone" }
    },
    heldRefreshToken: () => original!,
    persist: async (_old, refreshed) => {
      await policy.store.publish(key, await sealResult(original!, { tokens: refreshed }), Date.now() + policy.resultMs)
      return { type: "persist.done" }
    },
    release: async (_old, failure) => {
      await policy.store.publish(key, await sealResult(original!, { failure }), Date.now() + policy.failureMs)
      return { type: "release.done" }
    },
  })
}

/** The prefix of a refresh token that marks an account row's refresh as claimed: `<prefix><until ms>:<nonce>:<refresh token>`. */
const claimMarker = "authflow-refreshing:"

function parseMarker(value: string | undefined): { until: number; refreshToken: string } | undefined {
  if (!value?.startsWith(claimMarker)) return undefined
  const [until, , ...rest] = value.slice(claimMarker.length).split(":")
  return { until: Number(until), refreshToken: rest.join(":") }
}

const failureKey = (refreshToken: string) => `failed:${refreshKey(refreshToken)}`

function rowTokens(row: AdapterAccount): ProviderTokens {
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
  // The row as listed is fresh: nothing to load again.
  const listed = rowTokens(account as AdapterAccount)
  if (skipsFlow(subject, listed)) return { provider: subject.provider.id, tokens: listed, refreshed: false }
  const update = adapter.updateAccountTokens
  if (!adapter.getAccount || !update) {
    throw new TypeError("Token refresh with database sessions needs the adapter methods getAccount and updateAccountTokens (authflow's MemoryAdapter and KyselyAdapter have them)")
  }
  const getAccount = adapter.getAccount.bind(adapter)
  const compareAndSet = update.bind(adapter)
  let marker: string | undefined
  let held: string | undefined
  const read = async () => {
    const row = await getAccount(account.providerAccountId, account.provider)
    return row ? rowTokens(row) : undefined
  }
  const newMarker = (refreshToken: string) => `${claimMarker}${Date.now() + policy.claimMs}:${randomHex(8)}:${refreshToken}`
  /** What another request left in the row: its tokens when it refreshed, or a failure when it put the old ones back. */
  const resultOf = (now: ProviderTokens, loaded: ProviderTokens): RefreshResult =>
    now.access_token !== loaded.access_token || now.expires_at !== loaded.expires_at ? { tokens: now } : { failure: "unavailable" }
  return runRefresh(subject, {
    key: `db:${JSON.stringify([account.provider, account.providerAccountId])}`,
    loadTokens: async () => {
      const tokens = await read()
      return tokens ? { type: "tokens.loaded", tokens, now: nowSeconds() } : { type: "tokens.missing" }
    },
    claimShared: async (loaded) => {
      const current = loaded.refresh_token!
      const claimed = parseMarker(current)
      if (claimed && claimed.until > Date.now()) return { type: "claim.busy" }
      // A refresh of this token that just failed (here, or on an instance sharing the store) is not tried again at once.
      const recent = await policy.store.read(failureKey(claimed ? claimed.refreshToken : current))
      if (recent?.state === "done") return { type: "claim.joined", result: (await openResult(claimed ? claimed.refreshToken : current, recent.result)) ?? { failure: "unavailable" } }
      // A marker whose holder outlived its claim is taken over, with the refresh token it carries.
      held = claimed ? claimed.refreshToken : current
      marker = newMarker(held)
      if (await compareAndSet(account, current, { refresh_token: marker })) return { type: "claim.won" }
      const now = await read()
      if (!now) return { type: "claim.failed", error: new Error("The account was unlinked during the refresh") }
      if (parseMarker(now.refresh_token)) return { type: "claim.busy" }
      return { type: "claim.joined", result: resultOf(now, loaded) }
    },
    awaitWinner: async (loaded) => {
      const deadline = Date.now() + policy.claimMs
      for (let wait = 10; Date.now() < deadline; wait = Math.min(wait * 2, 100)) {
        await sleep(wait)
        const now = await read()
        if (!now) return { type: "winner.gone" }
        const claimed = parseMarker(now.refresh_token)
        if (!claimed) return { type: "winner.done", result: resultOf(now, loaded) }
        if (claimed.until <= Date.now()) return { type: "winner.gone" }
      }
      return { type: "winner.gone" }
    },
    heldRefreshToken: () => held!,
    persist: async (_old, refreshed) => {
      const stored = { ...refreshed } as Parameters<typeof compareAndSet>[2]
      return (await compareAndSet(account, marker!, stored))
        ? { type: "persist.done" }
        : { type: "persist.failed", error: new Error("The account row's refresh claim was taken over before the new tokens were stored") }
    },
    release: async (_old, failure) => {
      await compareAndSet(account, marker!, { refresh_token: held! })
      await policy.store.publish(failureKey(held!), await sealResult(held!, { failure }), Date.now() + policy.failureMs)
      return { type: "release.done" }
    },
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
