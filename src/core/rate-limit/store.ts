/**
 * Where the rate limiter counts: fixed windows of hits per key. In memory for one process
 * (bounded, expiring); `redisStore` (`authflow/rate-limit`) for several instances.
 *
 * @module
 */

/** One counter to add a hit to: its key, the length of its window, and the budget it is checked against. */
export interface RateLimitCounter {
  key: string
  /** Length of the window in milliseconds, starting at the key's first hit. */
  windowMs: number
  /**
   * The most hits the window admits. A hit that would take any of its counters past its `max` is
   * refused as a whole: it writes nothing (no window is created, no count goes up).
   *
   * @default Infinity (never refused)
   */
  max?: number
  /**
   * Where a bounded store counts this key when it is full and cannot make a window for it: a
   * window shared by every key of the same budget (`id:credentials:overflow`), so that a full
   * store never evicts a window before it expires.
   *
   * @default "overflow" (one window for every counter that names none)
   */
  overflowKey?: string
}

/** A counter after a hit: how many hits its window holds with this one, and when the window ends. */
export interface RateLimitCount {
  /** The hits of the window, this one included; above the counter's `max` when the hit was refused (then nothing was written). */
  count: number
  /** Epoch milliseconds at which the window ends and the count restarts from 0. */
  resetAt: number
  /** The key the hit was counted under when it is not the counter's own (the overflow window of a full store): the key to refund. */
  countedAs?: string
}

/**
 * Counts hits in fixed windows. `hit` adds one hit to each counter atomically (two requests never
 * read the same count) and answers the counts in the same order; a hit that would take any
 * counter past its `max` writes nothing and answers the counts it would have made, so the
 * limiter's guards, comparing them with the limits, refuse it. `refund` takes one hit back (a
 * credentials attempt that succeeded). A store that cannot answer rejects: the limiter then fails
 * open or closed (`rateLimit.onStoreError`).
 *
 * @example
 * ```ts
 * const store: RateLimitStore = memoryStore()
 * const [ip] = await store.hit([{ key: "ip:credentials:203.0.113.7", windowMs: 900_000, max: 30 }])
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
   * How many windows are kept at most. Expired windows are swept to make room; a window that has
   * not expired is never dropped (dropping one would give its hits back). When the store is full
   * of live windows, a new key is counted in its budget's shared overflow window
   * ({@link RateLimitCounter.overflowKey}): under a flood of fresh identifiers or addresses, new
   * ones share one budget until windows expire, and memory stays bounded (at most `maxKeys`
   * windows, plus one overflow window per budget).
   *
   * @default 50000
   */
  maxKeys?: number
}

/**
 * A {@link RateLimitStore} in this process's memory: counts are exact and atomic (a hit is one
 * synchronous step), bounded by `maxKeys`, and each window expires on its own. A refused hit
 * writes nothing, and a full store evicts no live window: new keys then share an overflow window
 * per budget. Instances do not share it: give several instances `redisStore`.
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
  // Overflow windows live apart, outside the bound: one per budget.
  const overflow = new Map<string, RateLimitCount>()
  // No window expires before this: a full store sweeps only once something can have expired.
  let nextExpiry = Infinity
  const sweep = (now: number) => {
    if (now < nextExpiry) return
    nextExpiry = Infinity
    for (const [key, window] of windows) {
      if (window.resetAt <= now) windows.delete(key)
      else if (window.resetAt < nextExpiry) nextExpiry = window.resetAt
    }
    for (const [key, window] of overflow) if (window.resetAt <= now) overflow.delete(key)
  }
  const live = (map: Map<string, RateLimitCount>, key: string, now: number) => {
    const window = map.get(key)
    if (window && window.resetAt <= now) {
      map.delete(key)
      return undefined
    }
    return window
  }
  return {
    async hit(counters) {
      const now = Date.now()
      // Where each counter is counted: its live window, a window to create, or its budget's overflow window.
      let free = maxKeys - windows.size
      const plan = counters.map((counter) => {
        const own = live(windows, counter.key, now)
        if (own) return { counter, window: own, map: windows, key: counter.key }
        if (free <= 0) {
          sweep(now)
          free = maxKeys - windows.size
        }
        if (free > 0) {
          free -= 1
          return { counter, window: undefined, map: windows, key: counter.key }
        }
        const key = counter.overflowKey ?? "overflow"
        return { counter, window: live(overflow, key, now), map: overflow, key, overflowed: true }
      })
      const refused = plan.some(({ counter, window }) => (window?.count ?? 0) >= (counter.max ?? Infinity))
      return plan.map(({ counter, window, map, key, overflowed }) => {
        const counted = overflowed ? { countedAs: key } : {}
        if (refused) return { count: (window?.count ?? 0) + 1, resetAt: window?.resetAt ?? now + counter.windowMs, ...counted }
        let target = window
        if (!target) {
          target = { count: 0, resetAt: now + counter.windowMs }
          map.set(key, target)
          if (map === windows && target.resetAt < nextExpiry) nextExpiry = target.resetAt
        }
        target.count += 1
        return { count: target.count, resetAt: target.resetAt, ...counted }
      })
    },
    async refund(keys) {
      const now = Date.now()
      for (const key of keys) {
        const window = live(windows, key, now) ?? live(overflow, key, now)
        if (window && window.count > 0) window.count -= 1
      }
    },
  }
}
