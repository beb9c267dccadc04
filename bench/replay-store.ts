/**
 * What marking a resumed flow used costs, per store: in memory, in the adapter's verification-token
 * table (memory adapter, SQLite file, PostgreSQL), in Redis; and what the default with an adapter
 * (`adapterReplayStore`) adds to a whole passkey sign-in through `Auth()` (GET /webauthn-options,
 * POST /callback) on a SQLite database, against the same sign-in with an in-memory store, in the
 * same run. PostgreSQL and Redis are left out when unreachable.
 *
 *   node --expose-gc --import tsx bench/replay-store.ts
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import pg from "pg"
import { Redis } from "ioredis"
import { KyselyAdapter, createPostgresDatabase, createSqliteDatabase, migrateToLatest } from "../src/adapters/kysely/index.js"
import { MemoryAdapter } from "../src/adapters/memory.js"
import { adapterReplayStore, memoryReplayStore, redisReplayStore, type ReplayStore } from "../src/core/replay-store.js"
import { authenticate, passkeyConfig, register } from "../test/support/passkey-flow.js"
import { CookieJar } from "../test/helpers.js"
import { SoftCredential } from "../src/testing/authenticator.js"
import { compare, pairedRatio, row, type Contender } from "./measure.js"

const dir = mkdtempSync(join(tmpdir(), "authflow-bench-replay-"))
const sqlite = createSqliteDatabase(join(dir, "auth.sqlite"))
await migrateToLatest(sqlite)

const server = { host: "127.0.0.1", port: 5432, user: "postgres", database: "test" }
const schema = `authflow_bench_replay_${randomUUID().replaceAll("-", "")}`
let postgres: ReturnType<typeof createPostgresDatabase> | undefined
try {
  const admin = new pg.Client({ ...server, connectionTimeoutMillis: 2000 })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  await admin.end()
  postgres = createPostgresDatabase({ ...server, options: `-c search_path=${schema}` })
  await migrateToLatest(postgres)
} catch (error) {
  console.log(`PostgreSQL left out: ${String(error)}`)
}
let redis: Redis | undefined
try {
  redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  await redis.connect()
} catch (error) {
  console.log(`Redis left out: ${String(error)}`)
  redis = undefined
}

const stores: [string, ReplayStore][] = [
  ["memoryReplayStore()", memoryReplayStore()],
  ["adapterReplayStore(MemoryAdapter())", adapterReplayStore(MemoryAdapter())],
  ["adapterReplayStore(Kysely SQLite file, WAL)", adapterReplayStore(KyselyAdapter(sqlite))],
  ...(postgres ? [["adapterReplayStore(Kysely PostgreSQL, loopback)", adapterReplayStore(KyselyAdapter(postgres))] as [string, ReplayStore]] : []),
  ...(redis ? [["redisReplayStore(ioredis, loopback)", redisReplayStore(redis, { prefix: `authflow:bench:${randomUUID()}:` })] as [string, ReplayStore]] : []),
]
let counter = 0
const markOnce: Contender[] = stores.map(([name, store]) => ({ name, iterations: 200, run: () => store.markUsed(`bench:${++counter}`, Date.now() + 15 * 60_000) }))

// A whole passkey sign-in on SQLite, with the default store (the adapter's table) and with memory.
const adapter = KyselyAdapter(sqlite)
const withDefault = passkeyConfig({ adapter: adapter as never })
const withMemory = passkeyConfig({ adapter: adapter as never, replayStore: memoryReplayStore() })
const credential = new SoftCredential("app.test")
await register(withDefault, new CookieJar(), `bench-${randomUUID()}@example.test`, {}, credential)
const signIn = (config: typeof withDefault) => async () => {
  const { response } = await authenticate(config, new CookieJar(), credential)
  if (response.headers.get("location") !== "https://app.test/dashboard") throw new Error(`sign-in failed: ${JSON.stringify(config.errors.at(-1))}`)
}
const sessions: Contender[] = [
  { name: "passkey sign-in, default store (SQLite table)", iterations: 20, run: signIn(withDefault) },
  { name: "passkey sign-in, memoryReplayStore()", iterations: 20, run: signIn(withMemory) },
]

const marks = await compare(markOnce, { rounds: 11, warmup: 50 })
const flows = await compare(sessions, { rounds: 11, warmup: 10 })
console.log("markUsed, one resumed flow (median of 11 rounds):")
for (const [name] of stores) console.log(row(name, marks.median.get(name)!))
console.log("\nA passkey sign-in through Auth() (GET /webauthn-options + POST /callback), SQLite, database sessions:")
for (const { name } of sessions) console.log(row(name, flows.median.get(name)!))
const ratio = pairedRatio(flows, sessions[0]!.name, sessions[1]!.name)
console.log(`\ndefault (adapter table) / memory store, same round: ${ratio.toFixed(3)}×  (+${(flows.median.get(sessions[0]!.name)! - flows.median.get(sessions[1]!.name)!).toFixed(0)} µs per sign-in)`)

await sqlite.destroy()
rmSync(dir, { recursive: true, force: true })
if (postgres) {
  await postgres.destroy()
  const admin = new pg.Client(server)
  await admin.connect()
  await admin.query(`drop schema if exists ${schema} cascade`)
  await admin.end()
}
redis?.disconnect()
