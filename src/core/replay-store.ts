/**
 * Stores that remember what has been used once: a resumed flow, so that a replayed flow cookie is
 * refused. In memory for one process; in Redis for several instances.
 *
 * @module
 */

/**
 * Remembers keys as used until they expire.
 *
 * @example
 * ```ts
 * const store: ReplayStore = memoryReplayStore()
 * await store.markUsed("flow-id", Date.now() + 60_000) // true
 * await store.markUsed("flow-id", Date.now() + 60_000) // false: used already
 * ```
 */
export interface ReplayStore {
  /** Marks `key` used until `expiresAt` (epoch milliseconds): `true` the first time, `false` while it is remembered. */
  markUsed(key: string, expiresAt: number): Promise<boolean>
}

/**
 * An in-memory {@link ReplayStore}: a flow is used once in this process. Expired keys are swept as
 * new ones arrive.
 *
 * @example
 * ```ts
 * Auth(request, { ...config, replayStore: memoryReplayStore() })
 * ```
 */
export function memoryReplayStore(): ReplayStore {
  const used = new Map<string, number>()
  let sweepAt = 1024
  return {
    async markUsed(key, expiresAt) {
      const now = Date.now()
      const until = used.get(key)
      if (until !== undefined && until > now) return false
      used.set(key, expiresAt)
      if (used.size >= sweepAt) {
        for (const [name, expiry] of used) if (expiry <= now) used.delete(name)
        sweepAt = Math.max(1024, used.size * 2)
      }
      return true
    },
  }
}

/**
 * The part of a Redis client a {@link redisReplayStore} uses: `SET key value PXAT ms NX`, as
 * ioredis spells it (`client.set(key, value, "PXAT", ms, "NX")`, resolving `"OK"` or `null`).
 *
 * @example
 * ```ts
 * import Redis from "ioredis"
 * const client: RedisSetClient = new Redis("redis://127.0.0.1:6379")
 * ```
 */
export interface RedisSetClient {
  set(key: string, value: string, expiry: "PXAT", at: number, mode: "NX"): Promise<string | null>
}

/**
 * A {@link ReplayStore} in Redis, shared by every instance that uses the same Redis: one atomic
 * `SET … NX` per resumed flow, so of two instances resuming the same flow exactly one wins.
 * Redis errors reject, and the flow is then refused (fail closed).
 *
 * @param client - An ioredis client, or anything with its `set` signature (see {@link RedisSetClient}).
 * @param options.prefix - Prefix of the keys. @default "authflow:used:"
 *
 * @example
 * ```ts
 * import Redis from "ioredis"
 * import { redisReplayStore } from "authflow"
 *
 * const config = { ...authConfig, replayStore: redisReplayStore(new Redis(process.env.REDIS_URL!)) }
 * ```
 * @see https://redis.io/docs/latest/commands/set/
 */
export function redisReplayStore(client: RedisSetClient, options: { prefix?: string } = {}): ReplayStore {
  const prefix = options.prefix ?? "authflow:used:"
  return {
    async markUsed(key, expiresAt) {
      return (await client.set(prefix + key, "1", "PXAT", Math.ceil(expiresAt), "NX")) === "OK"
    },
  }
}

let processStore: ReplayStore | undefined

/**
 * The store a configuration uses: its `replayStore`, else one in-memory store for the process.
 *
 * @example
 * ```ts
 * await replayStoreOf(config).markUsed(flowId, expiresAt)
 * ```
 */
export function replayStoreOf(config: { replayStore?: ReplayStore }): ReplayStore {
  return config.replayStore ?? (processStore ??= memoryReplayStore())
}
