/** Probes of the services some tests need: the reason one cannot be used, or null. */
import { Redis } from "ioredis"

/** True when `CI` is set: tests needing a service then fail instead of skipping. */
export const ci = !["", "0", "false"].includes((process.env.CI ?? "").toLowerCase())

/** Connects to Redis at 127.0.0.1:6379 once; the reason when it cannot be used. */
export async function redisProbe(): Promise<string | null> {
  const client = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null })
  try {
    await client.connect()
    await client.ping()
    return null
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error)
  } finally {
    client.disconnect()
  }
}
