/**
 * The replay and refresh stores the package's entry exports. Each constructor checks its arguments
 * and returns at once; the store's code (`replay-store.ts`, `refresh-store.ts`) loads with the
 * first call of one of its methods, which all return promises. Only the flows the router loads
 * when their route is first hit use these stores (OAuth, WebAuthn, second factors, back-channel
 * logout, the token refresh), and a bundler that splits code loads, with the entry, every module
 * the entry reaches, used or not (esbuild does: evanw/esbuild#1892): so the entry reaches these
 * constructors, not the stores.
 *
 * @module
 */
import type { Adapter } from "../adapters.js"
import type { LoggerInstance } from "../base-types.js"
import { onFirstUse } from "./on-first-use.js"
import { verificationTokenMethods } from "./replay-adapter.js"
import type { RedisSetClient, ReplayStore } from "./replay-store.js"
import type { RedisRefreshClient, RefreshStore } from "./refresh-store.js"
export { isUniqueViolation } from "./replay-adapter.js"

const replayStores = /* @__PURE__ */ onFirstUse(() => import("./replay-store.js"))
const refreshStores = /* @__PURE__ */ onFirstUse(() => import("./refresh-store.js"))

/** A replay store made on the first call of one of its methods. */
function replayStoreMadeOnFirstUse(make: (stores: typeof import("./replay-store.js")) => ReplayStore, claims: boolean): ReplayStore {
  const store = onFirstUse(async () => make(await replayStores()))
  const lazy: ReplayStore = { markUsed: async (key, expiresAt) => (await store()).markUsed(key, expiresAt) }
  if (!claims) return lazy
  lazy.issue = async (key, expiresAt) => (await store()).issue!(key, expiresAt)
  lazy.claim = async (key) => (await store()).claim!(key)
  return lazy
}

/** A refresh store made on the first call of one of its methods. */
function refreshStoreMadeOnFirstUse(make: (stores: typeof import("./refresh-store.js")) => RefreshStore): RefreshStore {
  const store = onFirstUse(async () => make(await refreshStores()))
  return {
    claim: async (key, expiresAt) => (await store()).claim(key, expiresAt),
    publish: async (key, result, expiresAt) => (await store()).publish(key, result, expiresAt),
    read: async (key) => (await store()).read(key),
  }
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
  return replayStoreMadeOnFirstUse((stores) => stores.memoryReplayStore(), false)
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
  return replayStoreMadeOnFirstUse((stores) => stores.redisReplayStore(client, options), false)
}

/**
 * A {@link ReplayStore} in the adapter's database, shared by every instance that uses that database.
 *
 * A sealed flow is claimed with an operation that has exactly one winner on every adapter the
 * contract allows: `issue` inserts a row in the verification-token table when the flow is sealed
 * (`identifier` `"authflow:flow"`, `token` the SHA-256 of the flow's key, `expires` the flow's
 * expiry), and `claim` takes it with `useVerificationToken`, which the contract makes
 * delete-and-return: of any number of resumptions, on any instance, one gets the row. Whether the
 * adapter's insert refuses or overwrites a duplicate does not matter.
 *
 * `markUsed` (a key with no issue step: a logout token's `jti`) needs an insert that refuses a
 * duplicate. The first call checks that once, with a probe row inserted twice: a unique-key
 * violation (see {@link isUniqueViolation}) on the second insert means the table refuses
 * duplicates, and a duplicate then means "used already". An adapter whose insert overwrites
 * (a `Map`, DynamoDB `PutItem`, Redis `SET`, MongoDB without a unique index) cannot say that: the
 * store then logs the `replay-store-per-process` warning once and remembers such keys in this
 * process's memory (exactly once per process; pass `replayStore: redisReplayStore(client)` to share
 * them between instances).
 *
 * Any other error rejects with an `AdapterError` saying so, and the flow is then refused and the
 * error logged (fail closed). Rows this process wrote are deleted (`useVerificationToken`) five
 * minutes after they expire, a few at a time, as later rows are written; rows of a process that
 * stopped stay until purged (`DELETE FROM verification_tokens WHERE expires < now()`).
 *
 * @param adapter - An adapter with `createVerificationToken` (and `useVerificationToken`, for `issue`/`claim` and the cleanup).
 * @param options.logger - Where failed cleanups (`debug`) and the `replay-store-per-process` warning (`warn`) go. @default none
 * @param options.timeout - Milliseconds an adapter call may take before it fails. @default 10000
 *
 * @example
 * ```ts
 * import { adapterReplayStore } from "authflow"
 * const adapter = KyselyAdapter(db)
 * const config = { ...authConfig, adapter, replayStore: adapterReplayStore(adapter) }
 * ```
 */
export function adapterReplayStore(adapter: Adapter, options: { logger?: Partial<Pick<LoggerInstance, "debug" | "warn">>; timeout?: number } = {}): ReplayStore {
  const methods = verificationTokenMethods(adapter)
  return replayStoreMadeOnFirstUse((stores) => stores.adapterReplayStore(adapter, options, methods), methods.useToken !== undefined)
}

/**
 * An in-memory {@link RefreshStore}: refreshes meet within this process. Expired entries are swept
 * as new ones arrive.
 *
 * @example
 * ```ts
 * Auth(request, { ...config, refresh: { store: memoryRefreshStore() } })
 * ```
 */
export function memoryRefreshStore(): RefreshStore {
  return refreshStoreMadeOnFirstUse((stores) => stores.memoryRefreshStore())
}

/**
 * A {@link RefreshStore} in Redis, shared by every instance using the same Redis: one atomic
 * `SET … NX` claims a refresh, so of two instances reading the same session exactly one sends the
 * refresh grant, and the other reads the sealed result. Redis errors reject: the refresh then fails
 * (`RefreshTokenError`) rather than risk using a rotated refresh token twice.
 *
 * @param client - An ioredis client (the one given to `redisReplayStore` will do), or anything with its `set`/`get` signatures.
 * @param options.prefix - Prefix of the keys. @default "authflow:refresh:"
 *
 * @example
 * ```ts
 * import { Redis } from "ioredis"
 * import { redisRefreshStore, redisReplayStore } from "authflow"
 *
 * const redis = new Redis(process.env.REDIS_URL!)
 * const config = { ...authConfig, replayStore: redisReplayStore(redis), refresh: { store: redisRefreshStore(redis) } }
 * ```
 * @see https://redis.io/docs/latest/commands/set/
 */
export function redisRefreshStore(client: RedisRefreshClient, options: { prefix?: string } = {}): RefreshStore {
  return refreshStoreMadeOnFirstUse((stores) => stores.redisRefreshStore(client, options))
}
