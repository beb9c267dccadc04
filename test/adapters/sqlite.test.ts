import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sql, type Kysely } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { KyselyAdapter, createSqliteDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { allMigrations, describeAdapterConformance, expectMigratesForwardFromFirstRelease, migratedTables, sessionRowOf } from "./conformance.js"

const tables = ["sessions", "accounts", "authenticators", "factors", "backup_codes", "verification_tokens", "users"] as const

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

  it("migrateToLatest applies each migration once, then nothing (idempotent)", async () => {
    const fresh = createSqliteDatabase(join(dir, "fresh.sqlite"))
    try {
      const first = await migrateToLatest(fresh)
      expect(first.map((m) => [m.migrationName, m.status])).toEqual(allMigrations)
      expect(await migrateToLatest(fresh)).toEqual([])
      const names = (await fresh.introspection.getTables()).map((t) => t.name).sort()
      expect(names).toEqual(migratedTables)
      const recorded = await sql<{ name: string }>`select name from authflow_migration order by name`.execute(fresh)
      expect(recorded.rows).toEqual([{ name: "0001_initial" }, { name: "0002_second_factor" }])
    } finally {
      await fresh.destroy()
    }
  })

  it("migrates a database of the first release forward to the second factor's tables", async () => {
    const old = createSqliteDatabase(join(dir, "first-release.sqlite"))
    await expectMigratesForwardFromFirstRelease({ db: old, drop: () => old.destroy() })
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
    expect(indexes.rows.map((row) => row.tbl_name)).toEqual(["accounts", "authenticators", "factors", "sessions"])
    // backup_codes: its primary key (user_id, code_hash) starts with the foreign key column.
    const primaryKey = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info('backup_codes') where pk > 0 order by pk`.execute(db)
    expect(primaryKey.rows.map((row) => row.name)).toEqual(["user_id", "code_hash"])
  })

  it("cascades a raw DELETE of a user to its factors and backup codes", async () => {
    const adapter = KyselyAdapter(db)
    await adapter.createUser({ id: "u-2fa", email: "2fa@example.test", emailVerified: null })
    await adapter.createFactor({ id: "f-2fa", userId: "u-2fa", type: "totp", name: "Phone", secret: "sealed", algorithm: "SHA-1", digits: 6, period: 30, lastUsedStep: null, createdAt: new Date() })
    await adapter.replaceBackupCodes("u-2fa", ["h1", "h2"])
    await db.deleteFrom("users").where("id", "=", "u-2fa").execute()
    expect(await db.selectFrom("factors").select("id").where("user_id", "=", "u-2fa").execute()).toEqual([])
    expect(await db.selectFrom("backup_codes").select("code_hash").where("user_id", "=", "u-2fa").execute()).toEqual([])
  })
})
