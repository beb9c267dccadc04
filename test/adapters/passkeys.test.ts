import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { KyselyAdapter, createPostgresDatabase, createSqliteDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { authenticate, passkeyConfig, register, sessionOf } from "../support/passkey-flow.js"
import { CookieJar, origin } from "../helpers.js"
import type { Kysely } from "kysely"
import { ci, postgresServer, reasonOf, withPostgres } from "../services.js"

const postgresSkip = "passkeys on PostgreSQL: PostgreSQL not reachable at 127.0.0.1:5432, start it (see CONTRIBUTING.md's Tests section) to run this test"

async function postgres(): Promise<{ db: Kysely<AuthflowDatabase>; drop(): Promise<void> } | { unreachable: string }> {
  const schema = `authflow_webauthn_${randomUUID().replaceAll("-", "")}`
  const admin = new pg.Client({ ...postgresServer, connectionTimeoutMillis: 3000 })
  try {
    await admin.connect()
    await admin.query(`create schema ${schema}`)
  } catch (error) {
    await admin.end().catch(() => {})
    return { unreachable: reasonOf(error) }
  }
  await admin.end()
  const db = createPostgresDatabase({ ...postgresServer, options: `-c search_path=${schema}` })
  return {
    db,
    async drop() {
      await db.destroy()
      await withPostgres((client) => client.query(`drop schema if exists ${schema} cascade`))
    },
  }
}

const dir = mkdtempSync(join(tmpdir(), "authflow-webauthn-"))
const sqlite = createSqliteDatabase(join(dir, "auth.sqlite"))
const postgresSetup = await postgres()
const pgDb = "db" in postgresSetup ? postgresSetup : undefined
if (!pgDb && !ci) console.warn(`${postgresSkip} (probe error: ${"unreachable" in postgresSetup ? postgresSetup.unreachable : ""})`)
afterAll(async () => {
  await sqlite.destroy()
  rmSync(dir, { recursive: true, force: true })
  await pgDb?.drop()
})

const databases = [["SQLite", sqlite], ["PostgreSQL", pgDb?.db]] as const

describe.each(databases)("passkeys on %s (Kysely adapter)", (name, db) => {
  // With CI set, an unreachable PostgreSQL fails this test instead of skipping it.
  if (!db && ci) it("has its database (required when CI is set)", () => {
    throw new Error(`${postgresSkip}. CI is set, so this fails instead of being skipped. Probe error: ${"unreachable" in postgresSetup ? postgresSetup.unreachable : name}`)
  })
  it.skipIf(!db)("registers and signs in with JWT and database sessions; the authenticator row keeps Auth.js's encodings", async () => {
    await migrateToLatest(db!)
    for (const strategy of ["jwt", "database"] as const) {
      const config = passkeyConfig({ adapter: KyselyAdapter(db!), session: { strategy } })
      const email = `${strategy}-${randomUUID()}@example.test`
      const { credential, response } = await register(config, new CookieJar(), email)
      expect(response.headers.get("location")).toBe(`${origin}/dashboard`)
      const credentialID = Buffer.from(credential.id).toString("base64")
      const row = await db!.selectFrom("authenticators").selectAll().where("credential_id", "=", credentialID).executeTakeFirstOrThrow()
      // Standard base64 of the credential ID and of the COSE public key, transports comma-joined.
      expect(Buffer.from(row.credential_public_key, "base64").equals(credential.cosePublicKey())).toBe(true)
      expect(row.transports).toBe("internal,hybrid")
      expect(row.provider_account_id).toBe(credentialID)
      for (let i = 1; i <= 2; i++) {
        const jar = new CookieJar()
        expect((await authenticate(config, jar, credential)).response.headers.get("location")).toBe(`${origin}/dashboard`)
        expect((await sessionOf(config, jar))?.user?.email).toBe(email)
        expect(Number((await db!.selectFrom("authenticators").select("counter").where("credential_id", "=", credentialID).executeTakeFirstOrThrow()).counter)).toBe(i)
      }
      expect(config.errors).toEqual([])
    }
  })
})
