import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sql, type Kysely } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { KyselyAdapter, createSqliteDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { describeAdapterConformance, migratedTables, sessionRowOf } from "./conformance.js"

const tables = ["sessions", "accounts", "authenticators", "verification_tokens", "users"] as const

async function emptyTables(db: Kysely<AuthflowDatabase>): Promise<void> {
  for (const table of tables) await db.deleteFrom(table).execute()
}

describeAdapterConformance("SQLite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "authflow-sqlite-"))
  const db = createSqliteDatabase(join(dir, "auth.sqlite"))
  await migrateToLatest(db)
  return {
    adapter: KyselyAdapter(db),
    storedSession: sessionRowOf(db),
    reset: () => emptyTables(db),
    close: async () => {
      await db.destroy()
      rmSync(dir, { recursive: true, force: true })
    },
  }
})

describe("SQLite database and migrations", () => {
  let dir: string
  let db: Kysely<AuthflowDatabase>

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authflow-sqlite-"))
    db = createSqliteDatabase(join(dir, "auth.sqlite"))
    await migrateToLatest(db)
  })
  afterAll(async () => {
    await db.destroy()
    rmSync(dir, { recursive: true, force: true })
  })

  it("migrateToLatest applies the initial migration once, then nothing (idempotent)", async () => {
    const fresh = createSqliteDatabase(join(dir, "fresh.sqlite"))
    try {
      const first = await migrateToLatest(fresh)
      expect(first.map((m) => [m.migrationName, m.status])).toEqual([["0001_initial", "Success"]])
      expect(await migrateToLatest(fresh)).toEqual([])
      const names = (await fresh.introspection.getTables()).map((t) => t.name).sort()
      expect(names).toEqual(migratedTables)
      const recorded = await sql<{ name: string }>`select name from authflow_migration`.execute(fresh)
      expect(recorded.rows).toEqual([{ name: "0001_initial" }])
    } finally {
      await fresh.destroy()
    }
  })

  it("leaves Kysely's default migration table to the application", async () => {
    const names = (await db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name)
    expect(names).not.toContain("kysely_migration")
  })

  it("opens the file with foreign keys on and write-ahead logging", async () => {
    const foreignKeys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db)
    expect(foreignKeys.rows[0]?.foreign_keys).toBe(1)
    expect(journal.rows[0]?.journal_mode).toBe("wal")
  })

  it("stores moments as ISO-8601 text in UTC and booleans as 0/1", async () => {
    const adapter = KyselyAdapter(db)
    await adapter.createUser({ id: "u-raw", email: "raw@example.test", emailVerified: new Date("2026-01-02T03:04:05.006Z") })
    await adapter.createAuthenticator({
      userId: "u-raw",
      providerAccountId: "c-raw",
      credentialID: "c-raw",
      credentialPublicKey: "key",
      counter: 1,
      credentialBackedUp: true,
      credentialDeviceType: "multiDevice",
    })
    const user = await db.selectFrom("users").selectAll().where("id", "=", "u-raw").executeTakeFirstOrThrow()
    const authenticator = await db.selectFrom("authenticators").selectAll().where("credential_id", "=", "c-raw").executeTakeFirstOrThrow()
    expect(user.email_verified).toBe("2026-01-02T03:04:05.006Z")
    expect(authenticator.credential_backed_up).toBe(1)
  })

  it("cascades a raw DELETE of a user to its rows through the foreign keys", async () => {
    const adapter = KyselyAdapter(db)
    await adapter.createUser({ id: "u-fk", email: "fk@example.test", emailVerified: null })
    await adapter.createSession({ sessionToken: "s-fk", userId: "u-fk", expires: new Date() })
    await adapter.linkAccount({ userId: "u-fk", type: "oauth", provider: "github", providerAccountId: "fk" })
    await db.deleteFrom("users").where("id", "=", "u-fk").execute()
    const sessions = await db.selectFrom("sessions").select("id").where("user_id", "=", "u-fk").execute()
    const accounts = await db.selectFrom("accounts").select("id").where("user_id", "=", "u-fk").execute()
    expect(sessions).toEqual([])
    expect(accounts).toEqual([])
  })

  it("indexes every foreign key column", async () => {
    const indexes = await sql<{ name: string; tbl_name: string }>`select name, tbl_name from sqlite_master where type = 'index' and name like '%user_id%' order by name`.execute(db)
    expect(indexes.rows.map((row) => row.tbl_name)).toEqual(["accounts", "authenticators", "sessions"])
  })
})
