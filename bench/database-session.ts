/**
 * GET /session with a database session: authflow against @auth/core on the same adapter and the
 * same database, on SQLite (a file), PostgreSQL (127.0.0.1:5432) and MariaDB (127.0.0.1:3306), in the
 * same process.
 *
 *   node --expose-gc --import tsx bench/database-session.ts
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import { Auth as authflow } from "../src/index.js"
import { Auth as authjs } from "@auth/core"
import { KyselyAdapter, createMysqlDatabase, createPostgresDatabase, createSqliteDatabase, migrateToLatest } from "../src/adapters/kysely/index.js"
import { compare, pairedRatio, row } from "./measure.js"
import type { Kysely } from "kysely"
import type { AuthflowDatabase } from "../src/adapters/kysely/index.js"

const secret = "bench-secret-0123456789abcdef0123456789"
const origin = "https://bench.test"
const cookieName = "__Secure-authjs.session-token"

async function benchDatabase(label: string, db: Kysely<AuthflowDatabase>): Promise<void> {
  await migrateToLatest(db)
  const adapter = KyselyAdapter(db)
  const user = await adapter.createUser!({ id: randomUUID(), name: "Ada Lovelace", email: `ada-${randomUUID()}@example.test`, emailVerified: null })
  const sessionToken = randomUUID()
  await adapter.createSession!({ sessionToken, userId: user.id, expires: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
  const first = await authflow(new Request(`${origin}/auth/csrf`), { secret, trustHost: true, providers: [] })
  const cookie = `${first.headers.getSetCookie().map((h) => h.split(";")[0]).join("; ")}; ${cookieName}=${sessionToken}`
  const request = () => new Request(`${origin}/auth/session`, { headers: { cookie } })
  const authflowConfig = { secret, trustHost: true, providers: [], adapter }
  const authjsConfig = { secret, trustHost: true, providers: [], adapter: adapter as never, basePath: "/auth" }
  for (const [name, run] of [["authflow", () => authflow(request(), authflowConfig)], ["@auth/core", () => authjs(request(), authjsConfig)]] as const) {
    const body = (await (await run()).json()) as { user?: { name?: string } } | null
    if (body?.user?.name !== "Ada Lovelace") throw new Error(`${label}: ${name} did not read the database session: ${JSON.stringify(body)}`)
  }
  const consume = async (response: Response) => {
    await response.text()
    response.headers.getSetCookie()
  }
  const times = await compare(
    [
      { name: "authflow", run: async () => consume(await authflow(request(), authflowConfig)), iterations: 100 },
      { name: "authjs", run: async () => consume(await authjs(request(), authjsConfig)), iterations: 100 },
    ],
    { rounds: 21, warmup: 200 },
  )
  console.log(`\n${label}: GET /session with a database session (getSessionAndUser per read, updateAge 1 day)`)
  console.log(row("authflow", times.median.get("authflow")!))
  console.log(row("@auth/core 0.41.3 (same adapter, same database)", times.median.get("authjs")!))
  console.log(`authflow is ${pairedRatio(times, "authjs", "authflow").toFixed(1)}× faster than @auth/core here`)
}

const directory = mkdtempSync(join(tmpdir(), "authflow-bench-"))
const sqlite = createSqliteDatabase(join(directory, "bench.sqlite"))
await benchDatabase("SQLite (better-sqlite3, file, WAL)", sqlite)
await sqlite.destroy()
rmSync(directory, { recursive: true, force: true })

const schema = `bench_${randomUUID().replace(/-/g, "")}`
const postgres = createPostgresDatabase({ host: "127.0.0.1", port: 5432, user: "postgres", database: "test", options: `-c search_path=${schema}` })
try {
  const { sql } = await import("kysely")
  await sql`create schema ${sql.id(schema)}`.execute(postgres)
  await benchDatabase("PostgreSQL 15 (pg, 127.0.0.1)", postgres)
  await sql`drop schema ${sql.id(schema)} cascade`.execute(postgres)
} catch (error) {
  console.log(`\nPostgreSQL: not measured (${(error as Error).message})`)
} finally {
  await postgres.destroy()
}

const database = `bench_${randomUUID().replace(/-/g, "").slice(0, 20)}`
const mysqlServer = { host: "127.0.0.1", port: 3306, user: "root", password: "" }
const { createConnection } = await import("mysql2/promise")
try {
  const admin = await createConnection(mysqlServer)
  await admin.query(`create database ${database}`)
  await admin.end()
  const mariadb = createMysqlDatabase({ ...mysqlServer, database })
  try {
    await benchDatabase("MariaDB 10.11 (mysql2, 127.0.0.1)", mariadb)
  } finally {
    await mariadb.destroy()
    const cleanup = await createConnection(mysqlServer)
    await cleanup.query(`drop database if exists ${database}`)
    await cleanup.end()
  }
} catch (error) {
  console.log(`\nMariaDB: not measured (${(error as Error).message})`)
}
