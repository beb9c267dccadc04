/**
 * Auth.js's own adapter packages plugged into authflow as an Auth.js user would plug them in:
 * `@auth/kysely-adapter` on PostgreSQL and `@auth/drizzle-adapter` on SQLite, each with the tables
 * its documentation asks for, through email sign-in, OAuth account linking and database sessions.
 */
import { randomUUID } from "node:crypto"
import Database from "better-sqlite3"
import pg from "pg"
import { Kysely, PostgresDialect, sql } from "kysely"
import { KyselyAdapter as AuthjsKyselyAdapter } from "@auth/kysely-adapter"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { afterAll, describe, expect, it } from "vitest"
import { CookieJar, csrfTokenFor, send } from "../helpers.js"
import { opProvider, standInOP } from "../support/oauth-stand-in.js"
import { consent, sessionUserOf, startSignIn } from "../support/oauth-harness.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig, Provider } from "../../src/types.js"
import { ci, postgresProbe, postgresServer, withPostgres } from "../services.js"

/** What a deployment with one of Auth.js's adapters sees: its config, its mail and its tables. */
interface Deployment {
  adapter: Adapter
  count(table: "users" | "accounts" | "sessions" | "tokens"): Promise<number>
  close(): Promise<void>
}

/** Runs the user's journey against `deploy()`'s adapter. */
function describeJourney(name: string, deploy: () => Promise<Deployment>) {
  describe(`${name} with authflow`, () => {
    let deployment: Deployment
    const mail: { identifier: string; url: string }[] = []
    const op = standInOP()
    let config: AuthConfig
    afterAll(async () => deployment?.close())

    const emailProvider = {
      id: "email",
      name: "Email",
      type: "email",
      sendVerificationRequest: ({ identifier, url }: { identifier: string; url: string }) => void mail.push({ identifier, url }),
    } as unknown as Provider

    it("signs a user in by email into a database session", async () => {
      deployment = await deploy()
      config = {
        secret: "authjs-adapters-secret",
        trustHost: true,
        adapter: deployment.adapter,
        session: { strategy: "database" },
        providers: [emailProvider, opProvider(op)],
        logger: { error() {}, warn() {}, debug() {} }, // the used link's refusal is expected
      }
      const jar = new CookieJar()
      const csrfToken = await csrfTokenFor(config, jar)
      const requested = await send(config, jar, "/signin/email", { form: { csrfToken, email: "ada@example.test" } })
      expect(requested.status).toBe(302)
      expect(await deployment.count("tokens")).toBe(1)
      const link = mail.at(-1)!
      expect(link.identifier).toBe("ada@example.test")
      const followed = await send(config, jar, link.url)
      expect(followed.status).toBe(302)
      expect(followed.headers.get("location")).not.toMatch(/error=/)
      expect(await sessionUserOf(config, jar)).toMatchObject({ email: "ada@example.test" })
      expect(await deployment.count("users")).toBe(1)
      expect(await deployment.count("sessions")).toBe(1)
      expect(await deployment.count("tokens")).toBe(0)
      // the link is used up
      const again = await send(config, new CookieJar(), link.url)
      expect(again.headers.get("location")).toMatch(/error=Verification/)
    })

    it("links an OAuth account to the signed-in user, and that account signs the same user in later", async () => {
      const jar = new CookieJar()
      const csrfToken = await csrfTokenFor(config, jar)
      await send(config, jar, "/signin/email", { form: { csrfToken, email: "ada@example.test" } })
      await send(config, jar, mail.at(-1)!.url)
      const userBefore = await sessionUserOf(config, jar)
      expect(userBefore?.email).toBe("ada@example.test")

      const authorization = await startSignIn(config, jar)
      const linked = await send(config, jar, consent(op, authorization))
      expect(linked.status).toBe(302)
      expect(linked.headers.get("location")).not.toMatch(/error=/)
      expect(await deployment.count("accounts")).toBe(1)
      expect(await deployment.count("users")).toBe(1)

      const elsewhere = new CookieJar()
      const again = await startSignIn(config, elsewhere)
      const signedIn = await send(config, elsewhere, consent(op, again))
      expect(signedIn.headers.get("location")).not.toMatch(/error=/)
      expect(await sessionUserOf(config, elsewhere)).toMatchObject({ email: "ada@example.test" })
      expect(await deployment.count("users")).toBe(1)
    })

    it("signs out by deleting the database session", async () => {
      const jar = new CookieJar()
      const csrfToken = await csrfTokenFor(config, jar)
      await send(config, jar, "/signin/email", { form: { csrfToken, email: "grace@example.test" } })
      await send(config, jar, mail.at(-1)!.url)
      const sessions = await deployment.count("sessions")
      expect(await sessionUserOf(config, jar)).toMatchObject({ email: "grace@example.test" })
      const signedOut = await send(config, jar, "/signout", { form: { csrfToken: await csrfTokenFor(config, jar) } })
      expect(signedOut.status).toBe(302)
      expect(await deployment.count("sessions")).toBe(sessions - 1)
      expect(await sessionUserOf(config, jar)).toBeNull()
    })
  })
}

/** @auth/kysely-adapter's PostgreSQL tables, as its documentation creates them. */
async function createAuthjsKyselyTables(db: Kysely<any>) {
  await sql`create table "User" (id uuid primary key default gen_random_uuid(), name text, email text unique not null, "emailVerified" timestamptz, image text)`.execute(db)
  await sql`create table "Account" (id uuid primary key default gen_random_uuid(), "userId" uuid not null references "User"(id) on delete cascade,
    type text not null, provider text not null, "providerAccountId" text not null, refresh_token text, access_token text, expires_at bigint,
    token_type text, scope text, id_token text, session_state text)`.execute(db)
  await sql`create table "Session" (id uuid primary key default gen_random_uuid(), "userId" uuid not null references "User"(id) on delete cascade,
    "sessionToken" text not null unique, expires timestamptz not null)`.execute(db)
  await sql`create table "VerificationToken" (identifier text not null, token text not null unique, expires timestamptz not null)`.execute(db)
}

const postgresDown = await postgresProbe()
const skipTitle = "@auth/kysely-adapter on PostgreSQL: PostgreSQL not reachable at 127.0.0.1:5432, start it (pg_ctlcluster 15 main start) to run these tests"
if (postgresDown && ci) {
  it("PostgreSQL is reachable (required when CI is set)", () => {
    throw new Error(`${skipTitle}. Probe error: ${postgresDown}`)
  })
} else if (postgresDown) {
  describe.skip(skipTitle, () => it("runs the journey", () => {}))
} else {
  describeJourney("@auth/kysely-adapter on PostgreSQL", async () => {
    const schema = `authjs_kysely_${randomUUID().replaceAll("-", "")}`
    await withPostgres((client) => client.query(`create schema ${schema}`))
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...postgresServer, options: `-c search_path=${schema}` }) }) })
    await createAuthjsKyselyTables(db)
    const tables = { users: "User", accounts: "Account", sessions: "Session", tokens: "VerificationToken" } as const
    return {
      adapter: AuthjsKyselyAdapter(db) as unknown as Adapter,
      async count(table) {
        const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(tables[table])}`.execute(db)
        return Number(rows[0]!.n)
      },
      async close() {
        await db.destroy()
        await withPostgres((client) => client.query(`drop schema if exists ${schema} cascade`))
      },
    }
  })
}

describeJourney("@auth/drizzle-adapter on SQLite", async () => {
  const sqlite = new Database(":memory:")
  sqlite.pragma("foreign_keys = ON")
  // The tables of the adapter's default SQLite schema (drizzle-kit would generate these).
  sqlite.exec(`
    create table user (id text primary key not null, name text, email text unique, emailVerified integer, image text);
    create table account (userId text not null references user(id) on delete cascade, type text not null, provider text not null,
      providerAccountId text not null, refresh_token text, access_token text, expires_at integer, token_type text, scope text,
      id_token text, session_state text, primary key (provider, providerAccountId));
    create table session (sessionToken text primary key not null, userId text not null references user(id) on delete cascade, expires integer not null);
    create table verificationToken (identifier text not null, token text not null, expires integer not null, primary key (identifier, token));
    create table authenticator (credentialID text not null unique, userId text not null references user(id) on delete cascade,
      providerAccountId text not null, credentialPublicKey text not null, counter integer not null, credentialDeviceType text not null,
      credentialBackedUp integer not null, transports text, primary key (userId, credentialID));
  `)
  const tables = { users: "user", accounts: "account", sessions: "session", tokens: "verificationToken" } as const
  return {
    adapter: DrizzleAdapter(drizzle(sqlite)) as unknown as Adapter,
    async count(table) {
      return (sqlite.prepare(`select count(*) as n from ${tables[table]}`).get() as { n: number }).n
    },
    async close() {
      sqlite.close()
    },
  }
})
