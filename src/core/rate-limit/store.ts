/**
 * Where the rate limiter counts: fixed windows of hits per key. In memory for one process
 * (bounded, expiring); `redisStore` (`authflow/rate-limit`) for several instances.
 *
 * @module
 */

/** One counter to add a hit to: its key and the length of its window. */
export interface RateLimitCounter {
  key: string
  /** Length of the window in milliseconds, starting at the key's first hit. */
  windowMs: number
}

/** A counter after a hit: how many hits its window holds now, and when the window ends. */
export interface RateLimitCount {
  count: number
  /** Epoch milliseconds at which the window ends and the count restarts from 0. */
  resetAt: number
}

/**
 * Counts hits in fixed windows. `hit` adds one hit to each counter atomically (two requests never
 * read the same count) and answers the counts in the same order; the limiter's guards compare
 * them with the limits. `refund` takes one hit back (a credentials attempt that succeeded).
 * A store that cannot answer rejects: the limiter then fails open or closed (`rateLimit.onStoreError`).
 *
 * @example
 * ```ts
 * const store: RateLimitStore = memoryStore()
 * const [ip] = await store.hit([{ key: "ip:credentials:203.0.113.7", windowMs: 900_000 }])
 * ip.count // 1
 * ```
 */
export interface RateLimitStore {
  hit(counters: readonly RateLimitCounter[]): Promise<RateLimitCount[]>
  refund(keys: readonly string[]): Promise<void>
}

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /**
   * How many keys are kept at most. Expired keys are swept first; past the bound the oldest
   * windows are dropped (their counts restart), so memory stays bounded under a flood of addresses.
   *
   * @default 50000
   */
  maxKeys?: number
}

/**
 * A {@link RateLimitStore} in this process's memory: counts are exact and atomic (a hit is one
 * synchronous step), bounded by `maxKeys`, and each window expires on its own. Instances do not
 * share it: give several instances `redisStore`.
 *
 * @example
 * ```ts
 * import { memoryStore } from "authflow/rate-limit"
 * Auth(request, { ...config, rateLimit: { store: memoryStore({ maxKeys: 10_000 }) } })
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): RateLimitStore {
  const maxKeys = options.maxKeys ?? 50_000
  if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new TypeError(`memoryStore: maxKeys must be a positive integer, got ${String(options.maxKeys)}.`)
  const windows = new Map<string, RateLimitCount>()
  const sweep = (now: number) => {
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key)
    // Map order is insertion order: the oldest windows go first.
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break
      windows.delete(key)
    }
  }
  return {
    async hit(counters) {
      const now = Date.now()
      return counters.map(({ key, windowMs }) => {
        let window = windows.get(key)
        if (!window || window.resetAt <= now) {
          if (window) windows.delete(key)
          if (windows.size >= maxKeys) sweep(now)
          window = { count: 0, resetAt: now + windowMs }
          windows.set(key, window)
        }
        window.count += 1
        return { count: window.count, resetAt: window.resetAt }
      })
    },
    async refund(keys) {
      const now = Date.now()
      for (const key of keys) {
        const window = windows.get(key)
        if (window && window.resetAt > now && window.count > 0) window.count -= 1
      }
    },
  }
}
