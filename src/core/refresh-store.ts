/**
 * Where concurrent refreshes of one refresh token meet: the request that claims a refresh token
 * sends the refresh grant and publishes what it got; every other request holding the same refresh
 * token reads that instead of using it again. In memory for one process; in Redis for several
 * instances (JWT sessions: each browser carries its tokens in its cookie, so only a shared store
 * can tell two instances that a refresh token was already used).
 *
 * Results are sealed (AES-256-GCM, WebCrypto) with a key derived from the refresh token they replace: the
 * store only ever holds ciphertext that nobody without that refresh token can open (the keys and
 * the sealing are in `refresh-result.ts`, which only the token refresh loads).
 *
 * @module
 */

/**
 * The provider tokens a refresh works on: what the account row, or the session JWT's
 * `authflow:tokens` claim, holds for one provider. `expires_at` is in epoch seconds.
 */
export interface ProviderTokens {
  access_token?: string
  refresh_token?: string
  expires_at?: number
  token_type?: string
  scope?: string
  id_token?: string
}

/** Why a refresh failed: the grant was refused (`revoked`), the provider or the store could not be reached, there was no refresh token, or the new tokens could not be stored. */
export type RefreshFailure = "revoked" | "unavailable" | "no-refresh-token" | "not-persisted"

/** What a refresh done elsewhere (another request, another instance) ended with. */
export type RefreshResult = { tokens: ProviderTokens } | { failure: RefreshFailure }

/**
 * What a claim found: this caller holds the refresh now, another one does, or its result is
 * already there (sealed, see {@link openResult}).
 *
 * @example
 * ```ts
 * const claim: RefreshClaim = await store.claim(refreshKey(refreshToken), Date.now() + 30_000)
 * if (claim.state === "done") await openResult(refreshToken, claim.result)
 * ```
 */
export type RefreshClaim = { state: "won" } | { state: "busy" } | { state: "done"; result: string }

/**
 * A store of refresh claims and results, keyed by a hash of the refresh token.
 *
 * @example
 * ```ts
 * const store: RefreshStore = memoryRefreshStore()
 * await store.claim("k", Date.now() + 30_000) // { state: "won" }
 * await store.claim("k", Date.now() + 30_000) // { state: "busy" }
 * await store.publish("k", "sealed result", Date.now() + 300_000)
 * await store.read("k") // { state: "done", result: "sealed result" }
 * ```
 */
export interface RefreshStore {
  /** Claims `key` until `expiresAt` (epoch ms) unless it is claimed or has a result. */
  claim(key: string, expiresAt: number): Promise<RefreshClaim>
  /** Replaces the claim by the result, kept until `expiresAt` (epoch ms). */
  publish(key: string, result: string, expiresAt: number): Promise<void>
  /** The claim's state now; `undefined` once it vanished without a result. */
  read(key: string): Promise<RefreshClaim | undefined>
}

const pending = ""

/** The in-memory store behind the entry's `memoryRefreshStore` (`stores.ts`, where it is documented), and the default. */
export function memoryRefreshStore(): RefreshStore {
  const entries = new Map<string, { value: string; until: number }>()
  let sweepAt = 1024
  const live = (key: string) => {
    const entry = entries.get(key)
    if (entry && entry.until > Date.now()) return entry
    if (entry) entries.delete(key)
    return undefined
  }
  const asClaim = (value: string): RefreshClaim => (value === pending ? { state: "busy" } : { state: "done", result: value })
  return {
    async claim(key, expiresAt) {
      const entry = live(key)
      if (entry) return asClaim(entry.value)
      entries.set(key, { value: pending, until: expiresAt })
      if (entries.size >= sweepAt) {
        const now = Date.now()
        for (const [name, { until }] of entries) if (until <= now) entries.delete(name)
        sweepAt = Math.max(1024, entries.size * 2)
      }
      return { state: "won" }
    },
    async publish(key, result, expiresAt) {
      entries.set(key, { value: result, until: expiresAt })
    },
    async read(key) {
      const entry = live(key)
      return entry && asClaim(entry.value)
    },
  }
}

/**
 * The part of a Redis client a {@link redisRefreshStore} uses, as ioredis spells it: `SET key value
 * PXAT ms [NX]` and `GET key`. The client of `redisReplayStore` fits as it is.
 *
 * @example
 * ```ts
 * import { Redis } from "ioredis"
 * const client: RedisRefreshClient = new Redis("redis://127.0.0.1:6379")
 * ```
 */
export interface RedisRefreshClient {
  set(key: string, value: string, expiry: "PXAT", at: number, mode: "NX"): Promise<string | null>
  set(key: string, value: string, expiry: "PXAT", at: number): Promise<string | null>
  get(key: string): Promise<string | null>
}

/** The Redis store behind the entry's `redisRefreshStore` (`stores.ts`, where it is documented). */
export function redisRefreshStore(client: RedisRefreshClient, options: { prefix?: string } = {}): RefreshStore {
  const prefix = options.prefix ?? "authflow:refresh:"
  const asClaim = (value: string): RefreshClaim => (value === pending ? { state: "busy" } : { state: "done", result: value })
  return {
    async claim(key, expiresAt) {
      if ((await client.set(prefix + key, pending, "PXAT", Math.ceil(expiresAt), "NX")) === "OK") return { state: "won" }
      const value = await client.get(prefix + key)
      // Gone between the two commands: its holder published nothing and it expired; claim again next time.
      return value === null ? { state: "busy" } : asClaim(value)
    },
    async publish(key, result, expiresAt) {
      await client.set(prefix + key, result, "PXAT", Math.ceil(expiresAt))
    },
    async read(key) {
      const value = await client.get(prefix + key)
      return value === null ? undefined : asClaim(value)
    },
  }
}

let processStore: RefreshStore | undefined

/**
 * The store a configuration uses: its `refresh.store`, else one in-memory store for the process.
 *
 * @example
 * ```ts
 * const store = refreshStoreOf(config.refresh)
 * ```
 */
export function refreshStoreOf(options: { store?: RefreshStore } | undefined): RefreshStore {
  return options?.store ?? (processStore ??= memoryRefreshStore())
}
