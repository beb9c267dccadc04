import { randomUUID } from "node:crypto"
import { sql, type Kysely } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { KyselyAdapter, createPostgresDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { allMigrations, describeAdapterConformance, describeOnDatabase, expectMigratesForwardFromFirstRelease, migratedTables, sessionRowOf } from "./conformance.js"
import { postgresProbe, postgresServer, withPostgres } from "../services.js"

const unreachable = await postgresProbe()

/** A schema of its own for each database of this run: runs in parallel never see each other's rows. */
async function isolatedDatabase(): Promise<{ db: Kysely<AuthflowDatabase>; schema: string; drop(): Promise<void> }> {
  const schema = `authflow_test_${randomUUID().replaceAll("-", "")}`
  await withPostgres((client) => client.query(`create schema ${schema}`))
  const db = createPostgresDatabase({ ...postgresServer, options: `-c search_path=${schema}` })
  return {
    db,
    schema,
    async drop() {
      await db.destroy()
      await withPostgres((client) => client.query(`drop schema if exists ${schema} cascade`))
    },
  }
}

const skipTitle = "PostgreSQL not reachable at 127.0.0.1:5432: start it (pg_ctlcluster 15 main start) to run these tests"

describeOnDatabase("PostgreSQL at 127.0.0.1:5432", unreachable, skipTitle, () => {
  describeAdapterConformance("PostgreSQL", async () => {
    const { db, drop } = await isolatedDatabase()
    await migrateToLatest(db)
    return {
      adapter: KyselyAdapter(db),
      storedSession: sessionRowOf(db),
      reset: async () => {
        await sql`truncate users, accounts, sessions, verification_tokens, authenticators, factors, backup_codes`.execute(db)
      },
      close: drop,
    }
  })

  describe("PostgreSQL database and migrations", () => {
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
      const tables = await sql<{ table_name: string }>`
        select table_name from information_schema.tables where table_schema = ${isolated.schema} order by table_name`.execute(db)
      expect(tables.rows.map((row) => row.table_name)).toEqual(migratedTables)
    })

    it("migrates a schema while another schema of the same database has authflow's tables", async () => {
      expect(await migrateToLatest(db)).toEqual([]) // this one is migrated already
      const other = await isolatedDatabase()
      try {
        expect((await migrateToLatest(other.db)).map((m) => m.status)).toEqual(["Success", "Success"])
        await KyselyAdapter(other.db).createUser({ id: "u-other", email: "other@example.test", emailVerified: null })
        expect(await KyselyAdapter(db).getUser("u-other")).toBeNull()
      } finally {
        await other.drop()
      }
    })

    it("two concurrent migrateToLatest runs apply the migrations once", async () => {
      const other = await isolatedDatabase()
      try {
        const runs = await Promise.all([migrateToLatest(other.db), migrateToLatest(other.db)])
        expect(runs.map((results) => results.length).sort()).toEqual([0, allMigrations.length])
      } finally {
        await other.drop()
      }
    })

    it("stores moments as timestamptz, booleans as boolean and counters as bigint", async () => {
      const columns = await sql<{ table_name: string; column_name: string; data_type: string }>`
        select table_name, column_name, data_type from information_schema.columns
        where table_schema = ${isolated.schema}
          and column_name in ('email_verified', 'expires', 'expires_at', 'counter', 'credential_backed_up', 'created_at', 'last_used_step', 'digits', 'period')
        order by table_name, column_name`.execute(db)
      expect(columns.rows.map((c) => `${c.table_name}.${c.column_name}: ${c.data_type}`)).toEqual([
        "accounts.expires_at: bigint",
        "authenticators.counter: bigint",
        "authenticators.credential_backed_up: boolean",
        "factors.created_at: timestamp with time zone",
        "factors.digits: integer",
        "factors.last_used_step: bigint",
        "factors.period: integer",
        "sessions.expires: timestamp with time zone",
        "users.email_verified: timestamp with time zone",
        "verification_tokens.expires: timestamp with time zone",
      ])
    })

    it("declares the unique constraints, cascading foreign keys and foreign-key indexes", async () => {
      const constraints = await sql<{ table_name: string; constraint_type: string; delete_rule: string | null }>`
        select tc.table_name, tc.constraint_type, rc.delete_rule
        from information_schema.table_constraints tc
        left join information_schema.referential_constraints rc
          on rc.constraint_name = tc.constraint_name and rc.constraint_schema = tc.constraint_schema
        where tc.table_schema = ${isolated.schema} and tc.constraint_type in ('UNIQUE', 'FOREIGN KEY', 'PRIMARY KEY')
          and tc.table_name not like 'authflow_migration%'
        order by tc.table_name, tc.constraint_type`.execute(db)
      expect(constraints.rows.map((c) => `${c.table_name} ${c.constraint_type}${c.delete_rule ? ` ${c.delete_rule}` : ""}`)).toEqual([
        "accounts FOREIGN KEY CASCADE",
        "accounts PRIMARY KEY",
        "accounts UNIQUE",
        "authenticators FOREIGN KEY CASCADE",
        "authenticators PRIMARY KEY",
        "backup_codes FOREIGN KEY CASCADE",
        "backup_codes PRIMARY KEY",
        "factors FOREIGN KEY CASCADE",
        "factors PRIMARY KEY",
        "sessions FOREIGN KEY CASCADE",
        "sessions PRIMARY KEY",
        "sessions UNIQUE",
        "users PRIMARY KEY",
        "users UNIQUE",
        "verification_tokens PRIMARY KEY",
      ])
      const indexes = await sql<{ indexname: string }>`
        select indexname from pg_indexes where schemaname = ${isolated.schema} and indexname like '%user_id%' order by indexname`.execute(db)
      expect(indexes.rows.map((row) => row.indexname)).toEqual(["accounts_user_id_index", "authenticators_user_id_index", "factors_user_id_index", "sessions_user_id_index"])
    })

    it("migrates a database of the first release forward to the second factor's tables", async () => {
      await expectMigratesForwardFromFirstRelease(await isolatedDatabase())
    })

    it("cascades a raw DELETE of a user to its rows through the foreign keys", async () => {
      const adapter = KyselyAdapter(db)
      await adapter.createUser({ id: "u-fk", email: "fk@example.test", emailVerified: null })
      await adapter.createSession({ sessionToken: "s-fk", userId: "u-fk", expires: new Date() })
      await adapter.createAuthenticator({
        userId: "u-fk",
        providerAccountId: "c-fk",
        credentialID: "c-fk",
        credentialPublicKey: "key",
        counter: 0,
        credentialBackedUp: false,
        credentialDeviceType: "singleDevice",
      })
      await adapter.createFactor({ id: "f-fk", userId: "u-fk", type: "totp", name: "Phone", secret: "sealed", algorithm: "SHA-1", digits: 6, period: 30, lastUsedStep: null, createdAt: new Date() })
      await adapter.replaceBackupCodes("u-fk", ["h1", "h2"])
      await db.deleteFrom("users").where("id", "=", "u-fk").execute()
      expect(await db.selectFrom("sessions").select("id").where("user_id", "=", "u-fk").execute()).toEqual([])
      expect(await db.selectFrom("authenticators").select("credential_id").where("user_id", "=", "u-fk").execute()).toEqual([])
      expect(await db.selectFrom("factors").select("id").where("user_id", "=", "u-fk").execute()).toEqual([])
      expect(await db.selectFrom("backup_codes").select("code_hash").where("user_id", "=", "u-fk").execute()).toEqual([])
    })

    it("reads the same instant back whatever the session time zone", async () => {
      const adapter = KyselyAdapter(db)
      const expires = new Date("2026-06-30T23:59:59.999Z")
      await adapter.createUser({ id: "u-tz", email: "tz@example.test", emailVerified: null })
      await adapter.createSession({ sessionToken: "s-tz", userId: "u-tz", expires })
      const other = createPostgresDatabase({ ...postgresServer, options: `-c search_path=${isolated.schema} -c timezone=Pacific/Kiritimati` })
      try {
        expect((await KyselyAdapter(other).getSessionAndUser("s-tz"))?.session.expires.toISOString()).toBe(expires.toISOString())
      } finally {
        await other.destroy()
      }
    })
  })
})
