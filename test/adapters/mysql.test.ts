import { randomUUID } from "node:crypto"
import { createConnection } from "mysql2/promise"
import { sql, type Kysely } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { KyselyAdapter, createMysqlDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { allMigrations, describeAdapterConformance, describeOnDatabase, expectMigratesForwardFromFirstRelease, migratedTables, sessionRowOf } from "./conformance.js"
import { mariadbProbe, mariadbServer } from "../services.js"

const unreachable = await mariadbProbe()

/** A database of its own for each run: runs in parallel never see each other's rows. */
async function isolatedDatabase(): Promise<{ db: Kysely<AuthflowDatabase>; name: string; drop(): Promise<void> }> {
  const name = `authflow_test_${randomUUID().replaceAll("-", "").slice(0, 20)}`
  const admin = await createConnection(mariadbServer)
  await admin.query(`create database ${name}`)
  await admin.end()
  const db = createMysqlDatabase({ ...mariadbServer, database: name, connectionLimit: 20 })
  return {
    db,
    name,
    async drop() {
      await db.destroy()
      const admin = await createConnection(mariadbServer)
      await admin.query(`drop database if exists ${name}`)
      await admin.end()
    },
  }
}

const skipTitle = "MariaDB/MySQL not reachable at 127.0.0.1:3306 (user root, no password): start it (start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd) to run these tests"

describeOnDatabase("MariaDB at 127.0.0.1:3306", unreachable, skipTitle, () => {
  describeAdapterConformance("MariaDB", async () => {
    const { db, drop } = await isolatedDatabase()
    await migrateToLatest(db)
    return {
      adapter: KyselyAdapter(db),
      storedSession: sessionRowOf(db),
      reset: async () => {
        for (const table of ["sessions", "accounts", "authenticators", "factors", "backup_codes", "verification_tokens", "users"] as const) await db.deleteFrom(table).execute()
      },
      close: drop,
    }
  })

  describe("MariaDB database and migrations", () => {
    let isolated: Awaited<ReturnType<typeof isolatedDatabase>>
    let db: Kysely<AuthflowDatabase>

    beforeAll(async () => {
      isolated = await isolatedDatabase()
      db = isolated.db
    })
    afterAll(async () => {
      await isolated?.drop()
    })

    it("migrateToLatest applies each migration once, then nothing (idempotent)", async () => {
      const first = await migrateToLatest(db)
      expect(first.map((m) => [m.migrationName, m.status])).toEqual(allMigrations)
      expect(await migrateToLatest(db)).toEqual([])
      const tables = await sql<{ name: string }>`
        select table_name as name from information_schema.tables where table_schema = ${isolated.name} order by table_name`.execute(db)
      expect(tables.rows.map((row) => row.name)).toEqual(migratedTables)
    })

    it("migrates a database of the first release forward to the second factor's tables", async () => {
      await expectMigratesForwardFromFirstRelease(await isolatedDatabase())
    })

    it("uses InnoDB with a binary collation: tokens and credential IDs are case-sensitive", async () => {
      const tables = await sql<{ name: string; engine: string; collation: string }>`
        select table_name as name, engine, table_collation as collation from information_schema.tables
        where table_schema = ${isolated.name} and table_name not like 'authflow_migration%' order by table_name`.execute(db)
      expect(tables.rows.map((t) => `${t.name} ${t.engine} ${t.collation}`)).toEqual([
        "accounts InnoDB utf8mb4_bin",
        "authenticators InnoDB utf8mb4_bin",
        "backup_codes InnoDB utf8mb4_bin",
        "factors InnoDB utf8mb4_bin",
        "sessions InnoDB utf8mb4_bin",
        "users InnoDB utf8mb4_bin",
        "verification_tokens InnoDB utf8mb4_bin",
      ])
      const adapter = KyselyAdapter(db)
      const user = await adapter.createUser({ id: "u-case", email: "case@example.test", emailVerified: null })
      await adapter.createSession({ sessionToken: "Token-AbC", userId: user.id, expires: new Date(Date.now() + 60_000) })
      expect(await adapter.getSessionAndUser("token-abc")).toBeNull()
      await adapter.createVerificationToken({ identifier: "case@example.test", token: "AbC", expires: new Date(Date.now() + 60_000) })
      expect(await adapter.useVerificationToken({ identifier: "case@example.test", token: "abc" })).toBeNull()
      expect(await adapter.useVerificationToken({ identifier: "case@example.test", token: "AbC" })).not.toBeNull()
    })

    it("declares cascading foreign keys as table constraints (MySQL ignores them on columns)", async () => {
      const keys = await sql<{ name: string; rule: string }>`
        select table_name as name, delete_rule as rule from information_schema.referential_constraints
        where constraint_schema = ${isolated.name} order by table_name`.execute(db)
      expect(keys.rows.map((k) => `${k.name} ${k.rule}`)).toEqual(["accounts CASCADE", "authenticators CASCADE", "backup_codes CASCADE", "factors CASCADE", "sessions CASCADE"])
      const adapter = KyselyAdapter(db)
      await adapter.createUser({ id: "u-fk", email: "fk@example.test", emailVerified: null })
      await adapter.createSession({ sessionToken: "s-fk", userId: "u-fk", expires: new Date() })
      await adapter.createFactor({ id: "f-fk", userId: "u-fk", type: "totp", name: "Phone", secret: "sealed", algorithm: "SHA-1", digits: 6, period: 30, lastUsedStep: null, createdAt: new Date() })
      await adapter.replaceBackupCodes("u-fk", ["h1", "h2"])
      await db.deleteFrom("users").where("id", "=", "u-fk").execute()
      expect(await db.selectFrom("sessions").select("id").where("user_id", "=", "u-fk").execute()).toEqual([])
      expect(await db.selectFrom("factors").select("id").where("user_id", "=", "u-fk").execute()).toEqual([])
      expect(await db.selectFrom("backup_codes").select("code_hash").where("user_id", "=", "u-fk").execute()).toEqual([])
    })

    it("reads the same instant back whatever the server's session time zone", async () => {
      const adapter = KyselyAdapter(db)
      const expires = new Date("2026-06-30T23:59:59.999Z")
      await adapter.createUser({ id: "u-tz", email: "tz@example.test", emailVerified: null })
      await adapter.createSession({ sessionToken: "s-tz", userId: "u-tz", expires })
      const other = createMysqlDatabase({ ...mariadbServer, database: isolated.name, connectionLimit: 1 })
      try {
        await sql`set time_zone = '+13:00'`.execute(other)
        expect((await KyselyAdapter(other).getSessionAndUser("s-tz"))?.session.expires.toISOString()).toBe(expires.toISOString())
      } finally {
        await other.destroy()
      }
    })

    it("stores a credential ID of 768 characters", async () => {
      const adapter = KyselyAdapter(db)
      await adapter.createUser({ id: "u-long", email: "long@example.test", emailVerified: null })
      const credentialID = "A".repeat(768)
      await adapter.createAuthenticator({
        userId: "u-long",
        providerAccountId: credentialID,
        credentialID,
        credentialPublicKey: "key",
        counter: 4_294_967_295,
        credentialBackedUp: true,
        credentialDeviceType: "multiDevice",
      })
      expect(await adapter.getAuthenticator(credentialID)).toMatchObject({ counter: 4_294_967_295, credentialBackedUp: true })
    })
  })
})
