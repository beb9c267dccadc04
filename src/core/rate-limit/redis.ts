/**
 * A rate-limit store in Redis, shared by every instance that uses the same Redis: each count is
 * one Lua script (one round trip, atomic), so two instances never admit the same slot.
 *
 * @module
 */
import type { RateLimitCount, RateLimitCounter, RateLimitStore } from "./store.js"

/**
 * The part of a Redis client a {@link redisStore} uses: `EVALSHA` and `EVAL`, as ioredis spells
 * them (`client.evalsha(sha, numKeys, ...keysAndArgs)`).
 *
 * @example
 * ```ts
 * import { Redis } from "ioredis"
 * const client: RedisScriptClient = new Redis("redis://127.0.0.1:6379")
 * ```
 */
export interface RedisScriptClient {
  evalsha(sha: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>
}

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /**
   * Prefix of the keys. On Redis Cluster, put a hash tag in it (`"{authflow:rl}:"`): one count
   * touches several keys, which must share a slot.
   *
   * @default "authflow:rl:"
   */
  prefix?: string
}

/** Options of {@link redisStore} when it opens its own connection (with ioredis, an optional peer). */
export interface RedisUrlOptions extends RedisStoreOptions {
  /** `redis://` or `rediss://` URL of the server. */
  url: string
}

/** A {@link RateLimitStore} in Redis; `close()` ends a connection the store opened itself. */
export interface RedisRateLimitStore extends RateLimitStore {
  close(): Promise<void>
}

// ARGV holds each key's window length and max (-1: none). First every key is read: when any is
// at its max, the hit is refused and writes nothing (no key is created, no count goes up; only a
// key left without an expiry is repaired). Otherwise each key is INCRed and the first hit of a
// window sets its expiry.
const hitScript = `local out = {}
local counts = {}
local refused = false
for i = 1, #KEYS do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  local max = tonumber(ARGV[i * 2])
  if max >= 0 and counts[i] >= max then refused = true end
end
for i = 1, #KEYS do
  local window = tonumber(ARGV[i * 2 - 1])
  local count = counts[i] + 1
  if not refused then
    count = redis.call('INCR', KEYS[i])
    if count == 1 then redis.call('PEXPIRE', KEYS[i], window) end
  end
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl == -1 then redis.call('PEXPIRE', KEYS[i], window) end
  if ttl < 0 then ttl = window end
  out[#out + 1] = count
  out[#out + 1] = ttl
end
return out`

// A refund never creates a key nor goes below zero, and keeps the window's expiry.
const refundScript = `for i = 1, #KEYS do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  if count > 0 then redis.call('DECR', KEYS[i]) end
end
return 0`

async function sha1Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-1", new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/** Runs a script by its SHA-1 (the usual case: one round trip), loading it with EVAL when the server does not know it yet. */
function scriptRunner(script: string) {
  let sha: Promise<string> | undefined
  return async (client: RedisScriptClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> => {
    const digest = await (sha ??= sha1Hex(script))
    try {
      return await client.evalsha(digest, keys.length, ...keys, ...args)
    } catch (error) {
      if (!String((error as Error)?.message ?? error).includes("NOSCRIPT")) throw error
      return client.eval(script, keys.length, ...keys, ...args)
    }
  }
}

const runHit = scriptRunner(hitScript)
const runRefund = scriptRunner(refundScript)

function isScriptClient(value: unknown): value is RedisScriptClient {
  return typeof value === "object" && value !== null && typeof (value as RedisScriptClient).evalsha === "function" && typeof (value as RedisScriptClient).eval === "function"
}

/**
 * A rate-limit store in Redis, for several instances: they share every budget. A count is one
 * `EVALSHA` of a Lua script that increments each key and sets its window's expiry (atomic, one
 * round trip), or, when any key is at its `max`, refuses the hit and writes nothing; a refund
 * never goes below zero. Redis keeps every key until its window expires as long as its
 * `maxmemory-policy` is `noeviction` (its default): with an evicting policy, a full Redis may drop
 * a window that locks someone out, so keep the rate-limit keys on a Redis that does not evict. Give it an ioredis client (or anything with its
 * `evalsha`/`eval` signatures), or `{ url }` to let it open one with `ioredis` (an optional peer
 * dependency: install it). Redis errors reject, and the limiter fails open or closed as
 * `rateLimit.onStoreError` says.
 *
 * @example
 * ```ts
 * import { redisStore } from "authflow/rate-limit"
 * const config = { ...authConfig, rateLimit: { store: redisStore({ url: process.env.REDIS_URL! }) } }
 * // or with a client you already have:
 * const store = redisStore(new Redis(process.env.REDIS_URL!), { prefix: "myapp:rl:" })
 * ```
 * @see https://redis.io/docs/latest/develop/interact/programmability/eval-intro/
 */
export function redisStore(client: RedisScriptClient | RedisUrlOptions, options: RedisStoreOptions = {}): RedisRateLimitStore {
  const given = isScriptClient(client) ? client : undefined
  const urlOptions = given ? undefined : (client as RedisUrlOptions)
  if (!given && (typeof urlOptions?.url !== "string" || !/^rediss?:\/\//.test(urlOptions.url))) {
    throw new TypeError('redisStore: give an ioredis client or { url: "redis://host:6379" }.')
  }
  const prefix = options.prefix ?? urlOptions?.prefix ?? "authflow:rl:"
  let opened: Promise<RedisScriptClient & { quit(): Promise<unknown> }> | undefined
  const connection = async (): Promise<RedisScriptClient> => {
    if (given) return given
    opened ??= import("ioredis").then(({ Redis }) => new Redis(urlOptions!.url, { maxRetriesPerRequest: 1, enableOfflineQueue: true }))
    return opened
  }
  return {
    async hit(counters: readonly RateLimitCounter[]): Promise<RateLimitCount[]> {
      const now = Date.now()
      const args = counters.flatMap((counter) => [Math.ceil(counter.windowMs), counter.max === undefined || counter.max === Infinity ? -1 : counter.max])
      const reply = (await runHit(await connection(), counters.map((counter) => prefix + counter.key), args)) as number[]
      if (!Array.isArray(reply) || reply.length !== counters.length * 2) throw new Error(`redisStore: unexpected reply ${JSON.stringify(reply)}`)
      return counters.map((_, i) => ({ count: Number(reply[i * 2]), resetAt: now + Number(reply[i * 2 + 1]) }))
    },
    async refund(keys: readonly string[]): Promise<void> {
      if (keys.length) await runRefund(await connection(), keys.map((key) => prefix + key), [])
    },
    async close() {
      if (opened) await (await opened).quit()
    },
  }
}
