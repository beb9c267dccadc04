/**
 * The cost of rate limiting on a request it lets through: the same requests with `rateLimit: false`,
 * with the in-memory store and with Redis (127.0.0.1:6379, skipped when unreachable), timed in
 * interleaved rounds of one run. Two requests: a credentials sign-in that succeeds (two counts, the
 * client address's and the identifier's, then a refund) and a session update (one count).
 *
 *   npm run bench:rate-limit
 */
import { Redis } from "ioredis"
import { Auth, skipCSRFCheck } from "../src/index.js"
import Credentials from "../src/providers/credentials.js"
import { memoryStore, redisStore, withClientAddress, type RateLimitStore } from "../src/rate-limit.js"
import type { AuthConfig, RateLimitOptions } from "../src/types.js"
import { compare, pairedRatio, row, type Contender } from "./measure.js"

const origin = "https://bench.test"
// Budgets no bench reaches: every request is counted and let through.
const roomy = { max: 1_000_000_000, windowSeconds: 3600 }
const limits: RateLimitOptions["limits"] = { credentials: { ip: roomy, identifier: roomy }, session: { ip: roomy } }

function config(rateLimit: AuthConfig["rateLimit"]): AuthConfig {
  return {
    secret: "bench-secret-0123456789abcdef0123456789",
    trustHost: true,
    skipCSRFCheck,
    rateLimit,
    providers: [Credentials({ credentials: { username: {}, password: { type: "password" } }, authorize: (c) => (c.password === "lovelace" ? { id: "ada", name: "Ada" } : null) })],
  }
}

let client = 0
const signIn = (cfg: AuthConfig) => () =>
  Auth(
    withClientAddress(
      new Request(`${origin}/auth/callback/credentials`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "username=ada&password=lovelace&callbackUrl=%2F" }),
      `198.51.${(client >> 8) & 255}.${client++ & 255}`,
    ),
    cfg,
  )
const sessionUpdate = (cfg: AuthConfig) => () =>
  Auth(withClientAddress(new Request(`${origin}/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"data":{}}' }), `203.0.113.${client++ & 255}`), cfg)

async function redisUp(): Promise<Redis | undefined> {
  const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000, retryStrategy: () => null })
  redis.on("error", () => {})
  try {
    await redis.connect()
    await redis.ping()
    return redis
  } catch {
    redis.disconnect()
    return undefined
  }
}

const redis = await redisUp()
const prefix = `authflow:bench:rl:${process.pid}:`
const stores: [string, RateLimitStore | false][] = [
  ["off", false],
  ["memory", memoryStore()],
  ...(redis ? ([["redis", redisStore(redis, { prefix })]] as [string, RateLimitStore][]) : []),
]

// Sanity: every contender answers as the unlimited app does.
for (const [name, store] of stores) {
  const cfg = config(store && { store, limits })
  const signedIn = await signIn(cfg)()
  if (signedIn.headers.get("location") !== `${origin}/`) throw new Error(`${name}: the sign-in was not let through: ${signedIn.status} ${signedIn.headers.get("location")}`)
  const updated = await sessionUpdate(cfg)()
  if (updated.status !== 200) throw new Error(`${name}: the session update was not let through: ${updated.status}`)
}

for (const [label, request] of [["credentials sign-in (POST /callback/credentials), allowed", signIn], ["session update (POST /session), allowed", sessionUpdate]] as const) {
  const contenders: Contender[] = stores.map(([name, store]) => ({ name, run: request(config(store && { store, limits })), iterations: 200 }))
  const times = await compare(contenders, { rounds: 21, warmup: 200 })
  console.log(label)
  for (const [name] of stores) {
    const ratio = name === "off" ? "" : `   ×${pairedRatio(times, name, "off").toFixed(3)} of rateLimit: false (+${(times.median.get(name)! - times.median.get("off")!).toFixed(1)} µs)`
    console.log(row(`  rateLimit ${name === "off" ? "false" : `on, ${name} store`}`, times.median.get(name)!, ratio))
  }
}
if (redis) {
  // What one round trip to this Redis costs here, for reading the Redis rows: a count is one EVALSHA.
  const times = await compare([{ name: "ping", run: () => redis.ping(), iterations: 200 }], { rounds: 21, warmup: 200 })
  console.log(row("one Redis PING round trip (for scale)", times.median.get("ping")!))
} else {
  console.log("Redis not reachable at 127.0.0.1:6379: the Redis store was not measured")
}

if (redis) {
  const keys = await redis.keys(`${prefix}*`)
  if (keys.length) await redis.del(...keys)
  redis.disconnect()
}
