/** The services some tests need: where they are, and probes giving the reason one cannot be used, or null. */
import { Redis } from "ioredis"
import { createConnection } from "mysql2/promise"
import pg from "pg"
import { afterAll } from "vitest"

/** True when `CI` is set: tests needing a service then fail instead of skipping. */
export const ci = !["", "0", "false"].includes((process.env.CI ?? "").toLowerCase())

/** The reason an error gives: its message, else its name. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error)
}

/** Where the tests find PostgreSQL: 127.0.0.1:5432, user postgres, database test. */
export const postgresServer = { host: "127.0.0.1", port: 5432, user: "postgres", database: "test" }

/** Connects to PostgreSQL at {@link postgresServer} once (3 s timeout); the reason when it cannot be used. */
export async function postgresProbe(): Promise<string | null> {
  const client = new pg.Client({ ...postgresServer, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query("select 1")
    return null
  } catch (error) {
    return reasonOf(error)
  } finally {
    await client.end().catch(() => {})
  }
}

/** Runs `body` with a client connected to {@link postgresServer} (outside the test schemas), then closes it. */
export async function withPostgres<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(postgresServer)
  await client.connect()
  try {
    return await body(client)
  } finally {
    await client.end()
  }
}

/** Where the tests find MariaDB (or MySQL): 127.0.0.1:3306, user root, no password; no database chosen. */
export const mariadbServer = { host: "127.0.0.1", port: 3306, user: "root", password: "" }

/** Connects to MariaDB at {@link mariadbServer}, database test, once (3 s timeout); the reason when it cannot be used. */
export async function mariadbProbe(): Promise<string | null> {
  try {
    const connection = await createConnection({ ...mariadbServer, database: "test", connectTimeout: 3000 })
    await connection.query("select 1")
    await connection.end()
    return null
  } catch (error) {
    return reasonOf(error)
  }
}

/** Where the tests find Redis: 127.0.0.1:6379. */
export const redisServer = { host: "127.0.0.1", port: 6379 }

/** A client connected to Redis at {@link redisServer} that gives up on a command after one retry; the caller disconnects it. */
export function redisClient(): Redis {
  return new Redis({ ...redisServer, maxRetriesPerRequest: 1 })
}

/** Connects to Redis at {@link redisServer} once; the reason when it cannot be used. */
export async function redisProbe(): Promise<string | null> {
  const client = new Redis({ ...redisServer, lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null })
  try {
    await client.connect()
    await client.ping()
    return null
  } catch (error) {
    return reasonOf(error)
  } finally {
    client.disconnect()
  }
}

/** What a test needing a service does about it: skip it, or (CI set) fail it, when the service did not answer. */
export interface ServiceGate {
  /** True when the service did not answer and CI is not set: the tests are skipped (`describe.skipIf(gate.skip)`). */
  readonly skip: boolean
  /** Throws when the service did not answer: CI is set, so the test fails instead of being skipped. */
  require(): void
}

/**
 * The gate of the tests needing a service whose probe answered `unreachable` (null: it answered);
 * `skipTitle` says which service and how to start it. When they are skipped it says why, once.
 *
 * @example
 * ```ts
 * const redis = serviceGate(await redisProbe(), "Redis not reachable at 127.0.0.1:6379: start it to run these tests")
 * describe.skipIf(redis.skip)("…", () => it("…", () => { redis.require(); … }))
 * ```
 */
export function serviceGate(unreachable: string | null, skipTitle: string): ServiceGate {
  if (unreachable && !ci) console.warn(`${skipTitle} (probe error: ${unreachable})`)
  return {
    skip: unreachable !== null && !ci,
    require() {
      if (unreachable) throw new Error(`${skipTitle}. CI is set, so this fails instead of being skipped. Probe error: ${unreachable}`)
    },
  }
}

/** Opens Redis clients for one suite (each call of the function returned, one more) and disconnects them all after it. */
export function redisClients(): () => Redis {
  const clients: Redis[] = []
  afterAll(() => void clients.forEach((redis) => redis.disconnect()))
  return () => {
    const redis = redisClient()
    clients.push(redis)
    return redis
  }
}
