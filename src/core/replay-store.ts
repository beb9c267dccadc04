/**
 * Stores that remember what has been used once: a resumed flow, so that a replayed flow cookie is
 * refused. In memory for one process; in the adapter's database or in Redis for several instances.
 *
 * @module
 */
import type { Adapter } from "../adapters.js"
import { AdapterError, AdapterTimeout } from "./errors.js"
import { DEFAULT_ADAPTER_TIMEOUT, withinTimeout } from "./adapter-calls.js"
import { randomHex, sha256Hex } from "./crypto.js"
import type { LoggerInstance } from "../base-types.js"
import { asError } from "./as-error.js"
import { isUniqueViolation, verificationTokenMethods } from "./replay-adapter.js"

/**
 * Remembers keys as used until they expire.
 *
 * `markUsed` alone must be exactly-once: of any number of calls for one key, concurrent or not, on
 * any instance sharing the store, one answers `true`. A store that cannot promise that for a key
 * it has never seen (a database whose insert overwrites) can still promise it for a key it was
 * told about first: it then has `issue` and `claim`, and a sealed flow uses them (the flow is
 * issued when it is sealed and claimed when it resumes).
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
  /**
   * Records `key` as issued and not yet used, until `expiresAt` (epoch milliseconds). Optional:
   * only with {@link ReplayStore.claim}.
   *
   * @default none: flows are claimed with `markUsed`
   */
  issue?(key: string, expiresAt: number): Promise<void>
  /**
   * Claims a key recorded by {@link ReplayStore.issue}: `true` for exactly one call, `false` for
   * every other one and for a key never issued. Optional: only with `issue`.
   *
   * @default none: flows are claimed with `markUsed`
   */
  claim?(key: string): Promise<boolean>
}

/** The in-memory store behind the entry's `memoryReplayStore` (`stores.ts`, where it is documented), and the default. */
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

/** The Redis store behind the entry's `redisReplayStore` (`stores.ts`, where it is documented). */
export function redisReplayStore(client: RedisSetClient, options: { prefix?: string } = {}): ReplayStore {
  const prefix = options.prefix ?? "authflow:used:"
  return {
    async markUsed(key, expiresAt) {
      return (await client.set(prefix + key, "1", "PXAT", Math.ceil(expiresAt), "NX")) === "OK"
    },
  }
}

/**
 * The `identifier` of the verification-token rows that {@link adapterReplayStore} writes.
 *
 * @example
 * ```ts
 * await db.deleteFrom("verification_tokens").where("identifier", "=", REPLAY_TOKEN_IDENTIFIER).where("expires", "<", new Date().toISOString()).execute()
 * ```
 */
export const REPLAY_TOKEN_IDENTIFIER = "authflow:flow"

/** How long after a flow's expiry its row is kept: room for clocks of instances that disagree. */
const CLEANUP_MARGIN_MS = 5 * 60_000

/**
 * The store in the adapter's database behind the entry's `adapterReplayStore` (`stores.ts`, where
 * its behaviour is documented), and the default of a configuration whose adapter has
 * `createVerificationToken`. `methods`: the adapter's, as read where the store was made.
 */
export function adapterReplayStore(
  adapter: Adapter,
  options: { logger?: Partial<Pick<LoggerInstance, "debug" | "warn">>; timeout?: number } = {},
  { createToken, useToken }: ReturnType<typeof verificationTokenMethods> = verificationTokenMethods(adapter),
): ReplayStore {
  const timeout = options.timeout ?? DEFAULT_ADAPTER_TIMEOUT
  const debug = options.logger?.debug ?? (() => {})
  const warn = options.logger?.warn ?? (() => {})
  const written: { token: string; deleteAfter: number }[] = []
  function cleanUp(now: number): void {
    if (!useToken) return
    // Expiries are nearly in insertion order (one fixed lifetime): look at the oldest few only.
    for (let swept = 0; swept < 8 && written.length > 0 && written[0]!.deleteAfter <= now; swept++) {
      const { token } = written.shift()!
      Promise.resolve()
        .then(() => useToken.call(adapter, { identifier: REPLAY_TOKEN_IDENTIFIER, token }))
        .catch((error: unknown) => {
          debug("replay_store_cleanup_failed", { error: String(error) })
        })
    }
  }
  function failure(what: string, error: unknown): AdapterError {
    // The caller refuses the flow and logs this (OAuth: as the cause of OAuthCallbackError).
    return new AdapterError(`The replay store could not ${what} in the adapter's verification-token table, so the flow is refused: check that the database is reachable and migrated`, {
      cause: { err: asError(error) },
    })
  }
  /** Inserts a row: `"duplicate"` when the table refused it as one; any other failure rejects (an `AdapterError` saying it could not `what`). */
  async function insert(token: string, expiresAt: number, what: string): Promise<"inserted" | "duplicate"> {
    try {
      await withinTimeout(Promise.resolve(createToken!.call(adapter, { identifier: REPLAY_TOKEN_IDENTIFIER, token, expires: new Date(Math.ceil(expiresAt)) })), timeout, "createVerificationToken")
      return "inserted"
    } catch (error) {
      if (isUniqueViolation(error)) return "duplicate"
      if (error instanceof AdapterTimeout) throw error
      throw failure(what, error)
    }
  }
  function remember(token: string, expiresAt: number): void {
    written.push({ token, deleteAfter: expiresAt + CLEANUP_MARGIN_MS })
    cleanUp(Date.now())
  }

  /** Whether a second insert of one row fails with a unique-key violation: asked once, by a probe row. */
  let refusesDuplicates: Promise<boolean> | undefined
  async function probe(): Promise<boolean> {
    const token = sha256Hex(`probe:${randomHex(16)}`)
    const expiresAt = Date.now() + 60_000
    await insert(token, expiresAt, "record a used key")
    let refused: boolean
    try {
      refused = (await insert(token, expiresAt, "record a used key")) === "duplicate"
    } finally {
      // The probe row goes at once.
      if (useToken) written.unshift({ token, deleteAfter: 0 })
      cleanUp(Date.now())
    }
    if (!refused) warn("replay-store-per-process")
    return refused
  }
  const perProcess = memoryReplayStore()

  const store: ReplayStore = {
    async markUsed(key, expiresAt) {
      const pending = (refusesDuplicates ??= probe())
      let unique: boolean
      try {
        unique = await pending
      } catch (error) {
        // A database that did not answer is asked again next time.
        if (refusesDuplicates === pending) refusesDuplicates = undefined
        throw error
      }
      if (!unique) return perProcess.markUsed(key, expiresAt)
      const token = sha256Hex(key)
      if ((await insert(token, expiresAt, "record a resumed flow")) === "duplicate") return false
      remember(token, expiresAt)
      return true
    },
  }
  if (!useToken) return store
  store.issue = async (key, expiresAt) => {
    const token = sha256Hex(key)
    // A new flow's key is random: a duplicate is not possible, and would be claimed once all the same.
    await insert(token, expiresAt, "record a new flow")
    remember(token, expiresAt)
  }
  store.claim = async (key) => {
    let row: unknown
    try {
      row = await withinTimeout(Promise.resolve(useToken.call(adapter, { identifier: REPLAY_TOKEN_IDENTIFIER, token: sha256Hex(key) })), timeout, "useVerificationToken")
    } catch (error) {
      if (error instanceof AdapterTimeout) throw error
      throw failure("claim a resumed flow", error)
    }
    return row !== null && row !== undefined
  }
  return store
}

let processStore: ReplayStore | undefined
const adapterStores = new WeakMap<Adapter, ReplayStore>()

/**
 * The store a configuration uses: its `replayStore`; else, when it has an adapter with
 * `createVerificationToken`, {@link adapterReplayStore} (one per adapter), so that a replay is
 * refused across every instance sharing the database; else one in-memory store for the process.
 *
 * @example
 * ```ts
 * await replayStoreOf(config, logger).markUsed(flowId, expiresAt)
 * ```
 */
export function replayStoreOf(config: { replayStore?: ReplayStore; adapter?: Adapter; adapterTimeout?: number }, logger?: Partial<Pick<LoggerInstance, "debug" | "warn">>): ReplayStore {
  if (config.replayStore) return config.replayStore
  const adapter = config.adapter
  if (!adapter?.createVerificationToken) return (processStore ??= memoryReplayStore())
  let store = adapterStores.get(adapter)
  if (!store) {
    store = adapterReplayStore(adapter, { ...(logger && { logger }), ...(config.adapterTimeout !== undefined && { timeout: config.adapterTimeout }) })
    adapterStores.set(adapter, store)
  }
  return store
}
