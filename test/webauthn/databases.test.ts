import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { KyselyAdapter, createPostgresDatabase, createSqliteDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { CookieJar, authenticate, origin, passkeyConfig, register, sessionOf } from "./flow.js"
import type { Kysely } from "kysely"
import { postgresServer, withPostgres } from "../services.js"

async function postgres(): Promise<{ db: Kysely<AuthflowDatabase>; drop(): Promise<void> } | null> {
  const schema = `authflow_webauthn_${randomUUID().replaceAll("-", "")}`
  const admin = new pg.Client({ ...postgresServer, connectionTimeoutMillis: 3000 })
  try {
    await admin.connect()
    await admin.query(`create schema ${schema}`)
  } catch {
    await admin.end().catch(() => {})
    return null
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
const pgDb = await postgres()
afterAll(async () => {
  await sqlite.destroy()
  rmSync(dir, { recursive: true, force: true })
  await pgDb?.drop()
})

const databases = [["SQLite", sqlite], ["PostgreSQL", pgDb?.db]] as const

describe.each(databases)("passkeys on %s (Kysely adapter)", (_, db) => {
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
