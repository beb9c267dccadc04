/**
 * Where back-channel logouts are remembered until every session they end has been read: "the
 * sessions of user U signed in before T are over". In memory for one process; in Redis for several
 * instances.
 *
 * @module
 */

/**
 * Remembers revocations: for a key (`user:<id>`, `sub:<provider>:<subject>`, `sid:<provider>:<sid>`),
 * the moment (epoch milliseconds) before which sessions signed in are ended.
 *
 * @example
 * ```ts
 * const store: RevocationStore = memoryRevocationStore()
 * await store.revoke("user:42", Date.now(), Date.now() + 30 * 86_400_000)
 * await store.revokedAt(["user:42"]) // the moment
 * ```
 */
export interface RevocationStore {
  /** Ends sessions under `key` signed in before `at`; remembered until `expiresAt` (epoch milliseconds). */
  revoke(key: string, at: number, expiresAt: number): Promise<void>
  /** The latest revocation moment of any of `keys`, or undefined. */
  revokedAt(keys: string[]): Promise<number | undefined>
}

/**
 * An in-memory {@link RevocationStore}: a back-channel logout received by this process ends the
 * sessions this process reads.
 *
 * @example
 * ```ts
 * Auth(request, { ...config, revocationStore: memoryRevocationStore() })
 * ```
 */
export function memoryRevocationStore(): RevocationStore {
  const entries = new Map<string, { at: number; until: number }>()
  return {
    async revoke(key, at, expiresAt) {
      const now = Date.now()
      for (const [name, entry] of entries) if (entry.until <= now) entries.delete(name)
      const previous = entries.get(key)
      entries.set(key, { at: Math.max(at, previous?.at ?? 0), until: Math.max(expiresAt, previous?.until ?? 0) })
    },
    async revokedAt(keys) {
      let latest: number | undefined
      const now = Date.now()
      for (const key of keys) {
        const entry = entries.get(key)
        if (entry && entry.until > now && (latest === undefined || entry.at > latest)) latest = entry.at
      }
      return latest
    },
  }
}

/**
 * The part of a Redis client a {@link redisRevocationStore} uses, as ioredis spells it.
 *
 * @example
 * ```ts
 * import Redis from "ioredis"
 * const client: RedisRevocationClient = new Redis("redis://127.0.0.1:6379")
 * ```
 */
export interface RedisRevocationClient {
  set(key: string, value: string, expiry: "PXAT", at: number): Promise<unknown>
  mget(...keys: string[]): Promise<(string | null)[]>
}

/**
 * A {@link RevocationStore} in Redis, shared by every instance that uses the same Redis: a
 * back-channel logout received by one instance ends the sessions every instance reads. One `MGET`
 * per session read when back-channel logout is enabled. Redis errors reject: the session read then
 * fails closed (reads as signed out) and the error is logged.
 *
 * @param options.prefix - Prefix of the keys. @default "authflow:revoked:"
 * @example
 * ```ts
 * import Redis from "ioredis"
 * import { redisRevocationStore } from "authflow"
 * Auth(request, { ...config, revocationStore: redisRevocationStore(new Redis(process.env.REDIS_URL!)) })
 * ```
 */
export function redisRevocationStore(client: RedisRevocationClient, options: { prefix?: string } = {}): RevocationStore {
  const prefix = options.prefix ?? "authflow:revoked:"
  return {
    async revoke(key, at, expiresAt) {
      const [current] = await client.mget(prefix + key)
      await client.set(prefix + key, String(Math.max(at, Number(current ?? 0))), "PXAT", Math.ceil(expiresAt))
    },
    async revokedAt(keys) {
      if (!keys.length) return undefined
      const values = (await client.mget(...keys.map((key) => prefix + key))).filter((value): value is string => value !== null).map(Number)
      return values.length ? Math.max(...values) : undefined
    },
  }
}

let processStore: RevocationStore | undefined

/**
 * The store a configuration uses: its `revocationStore`, else one in-memory store for the process.
 *
 * @example
 * ```ts
 * await revocationStoreOf(config).revokedAt([`user:${userId}`])
 * ```
 */
export function revocationStoreOf(config: { revocationStore?: RevocationStore }): RevocationStore {
  return config.revocationStore ?? (processStore ??= memoryRevocationStore())
}

/**
 * The revocation keys a session answers to: its user, and its subject and session at the provider
 * when known.
 *
 * @example
 * ```ts
 * revocationKeys("42", { signedInAt, provider: "op", subject: "ada", sid: "abc" }) // ["user:42", "sub:op:ada", "sid:op:abc"]
 * ```
 */
export function revocationKeys(userId: string | undefined, meta: { provider?: string; subject?: string; sid?: string } | undefined): string[] {
  const keys: string[] = []
  if (userId) keys.push(`user:${userId}`)
  if (meta?.provider && meta.subject) keys.push(`sub:${meta.provider}:${meta.subject}`)
  if (meta?.provider && meta.sid) keys.push(`sid:${meta.provider}:${meta.sid}`)
  return keys
}
