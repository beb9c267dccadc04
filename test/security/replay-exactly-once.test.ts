/**
 * A flow is resumed once on every adapter the contract allows, whether its insert refuses a
 * duplicate or overwrites it: for each adapter kind, two instances (two `Auth()` configurations
 * sharing only the secret and the database) receive 20 concurrent resumptions of one OAuth flow,
 * each with a fresh code, and 20 concurrent posts of one synced passkey's answer; exactly one
 * signs in. A logout token's `jti` received twice ends no session signed in after the first.
 */
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createConnection } from "mysql2/promise"
import { afterAll, describe, expect, it } from "vitest"
import type { Kysely } from "kysely"
import { KyselyAdapter, createMysqlDatabase, createPostgresDatabase, createSqliteDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { memoryRevocationStore } from "../../src/core/revocation-store.js"
import { resolveLogger } from "../../src/core/logger.js"
import type { Adapter, VerificationToken } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, origin, recordingLogger, send } from "../helpers.js"
import { opProvider } from "../support/oauth-stand-in.js"
import { getOptions, passkeyConfig, postCallback, register } from "../support/passkey-flow.js"
import { SoftCredential } from "../../src/testing/authenticator.js"
import { consent, oauthApp, sessionCookie, sessionUserOf, startSignIn } from "../support/oauth-harness.js"
import { ci, mariadbProbe, mariadbServer, postgresProbe, postgresServer, withPostgres } from "../services.js"

/**
 * A `Map`-backed adapter whose `createVerificationToken` overwrites a row with the same key, as
 * DynamoDB's `PutItem`, Redis `SET` or MongoDB without a unique index do; `useVerificationToken`
 * deletes and returns, as the contract asks. Everything else is the memory adapter's.
 */
function overwritingAdapter(): Adapter {
  const rows = new Map<string, VerificationToken>()
  const key = (identifier: string, token: string) => JSON.stringify([identifier, token])
  return Object.assign(Object.create(null) as object, MemoryAdapter(), {
    async createVerificationToken(row: VerificationToken) {
      rows.set(key(row.identifier, row.token), { ...row })
      return { ...row }
    },
    async useVerificationToken({ identifier, token }: { identifier: string; token: string }) {
      const found = rows.get(key(identifier, token))
      if (!found) return null
      rows.delete(key(identifier, token))
      return found
    },
  }) as Adapter
}

const dir = mkdtempSync(join(tmpdir(), "authflow-exactly-once-"))
const postgresSchema = `authflow_once_${randomUUID().replaceAll("-", "")}`
const mariadbName = `authflow_once_${randomUUID().replaceAll("-", "").slice(0, 20)}`
const postgresUnreachable = await postgresProbe()
const mariadbUnreachable = await mariadbProbe()
if (!postgresUnreachable) await withPostgres((client) => client.query(`create schema ${postgresSchema}`))
if (!mariadbUnreachable) {
  const admin = await createConnection(mariadbServer)
  await admin.query(`create database ${mariadbName}`)
  await admin.end()
}
const opened: Kysely<AuthflowDatabase>[] = []
afterAll(async () => {
  for (const db of opened) await db.destroy()
  rmSync(dir, { recursive: true, force: true })
  if (!postgresUnreachable) await withPostgres((client) => client.query(`drop schema if exists ${postgresSchema} cascade`))
  if (!mariadbUnreachable) {
    const admin = await createConnection(mariadbServer)
    await admin.query(`drop database if exists ${mariadbName}`)
    await admin.end()
  }
})

/** Two adapters over one database, as two server instances would open it. */
type Kind = { name: string; unreachable: string | null; adapters(): Promise<[Adapter, Adapter]> }
const kysely = (open: () => Kysely<AuthflowDatabase>) => async (): Promise<[Adapter, Adapter]> => {
  const [one, two] = [open(), open()]
  opened.push(one, two)
  await migrateToLatest(one)
  return [KyselyAdapter(one), KyselyAdapter(two)]
}
const shared = (make: () => Adapter) => async (): Promise<[Adapter, Adapter]> => {
  const adapter = make()
  return [adapter, adapter]
}
const kinds: Kind[] = [
  { name: "overwriting Map adapter", unreachable: null, adapters: shared(overwritingAdapter) },
  { name: "unique-key memory adapter", unreachable: null, adapters: shared(MemoryAdapter) },
  { name: "Kysely on SQLite", unreachable: null, adapters: kysely(() => createSqliteDatabase(join(dir, "auth.sqlite"))) },
  { name: "Kysely on PostgreSQL", unreachable: postgresUnreachable, adapters: kysely(() => createPostgresDatabase({ ...postgresServer, options: `-c search_path=${postgresSchema}` })) },
  { name: "Kysely on MariaDB", unreachable: mariadbUnreachable, adapters: kysely(() => createMysqlDatabase({ ...mariadbServer, database: mariadbName, connectionLimit: 20 })) },
]

const copyOf = (jar: CookieJar) => {
  const copy = new CookieJar()
  for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
  return copy
}

describe.each(kinds)("$name, two instances", ({ name, unreachable, adapters }) => {
  const skip = unreachable !== null && !ci
  if (skip) console.warn(`${name}: not reachable (${unreachable}); start it (see CONTRIBUTING.md's Tests section) to run these tests`)

  for (const strategy of ["jwt", "database"] as const) {
    it.skipIf(skip)(`20 concurrent resumptions of one OAuth flow, each with a fresh code, admit exactly 1 (${strategy} sessions)`, async () => {
      const [one, two] = await adapters()
      const op = oauthApp().op
      const apps = [oauthApp({ adapter: one, session: { strategy } }, op), oauthApp({ adapter: two, session: { strategy } }, op)]
      const browser = new CookieJar()
      const authorizationUrl = await startSignIn(apps[0]!.config, browser)
      const jars = await Promise.all(
        Array.from({ length: 20 }, async (_, index) => {
          const jar = copyOf(browser)
          await send(apps[index % 2]!.config, jar, consent(op, authorizationUrl, `racer-${strategy}-${index}`))
          return jar
        }),
      )
      const admitted = jars.filter((jar) => jar.cookies.has(sessionCookie)).length
      console.log(`[exactly-once] ${name}, OAuth (${strategy} sessions): ${admitted} of 20 concurrent resumptions admitted`)
      expect(admitted).toBe(1)
      const reasons = apps.flatMap((app) => app.errors).map((error) => ((error.cause as { err?: { reason?: string } } | undefined)?.err?.reason))
      expect(reasons).toEqual(Array(19).fill("replayed"))
    })
  }

  it.skipIf(skip)("20 concurrent posts of one synced passkey's answer admit exactly 1", async () => {
    const [one, two] = await adapters()
    const configs = [passkeyConfig({ adapter: one as never }), passkeyConfig({ adapter: two as never })]
    const synced = new SoftCredential("app.test", false) // no signature counter: only the replay check can refuse a replay
    await register(configs[0]!, new CookieJar(), `once-${randomUUID()}@example.test`, {}, synced)
    const jar = new CookieJar()
    const { body } = await getOptions(configs[1]!, jar, { action: "authenticate" })
    const answer = synced.authenticate(body.options, origin)
    const locations = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => (await postCallback(configs[index % 2]!, copyOf(jar), "authenticate", answer)).headers.get("location")),
    )
    const admitted = locations.filter((location) => location === `${origin}/dashboard`).length
    console.log(`[exactly-once] ${name}, passkey: ${admitted} of 20 concurrent posts admitted`)
    expect(admitted).toBe(1)
    expect(configs.flatMap((config) => config.errors.map((error) => (error.cause as { check?: string } | undefined)?.check))).toEqual(Array(19).fill("challengeReplayed"))
  })
})

describe("a logout token received twice, with an adapter whose insert overwrites", () => {
  const op = oauthApp().op
  const adapter = overwritingAdapter()
  const revocationStore = memoryRevocationStore()
  /** An instance: its own adapter object (so its own process memory) over the shared rows. */
  const instance = (session: AuthConfig["session"] = { strategy: "database" }) => {
    const recorder = recordingLogger()
    const config: AuthConfig = {
      secret: "exactly-once-secret",
      trustHost: true,
      providers: [opProvider(op, { backchannelLogout: true })],
      adapter: Object.assign(Object.create(null) as object, adapter) as Adapter,
      revocationStore,
      session,
      logger: recorder.logger,
    }
    return { config, ...recorder }
  }
  const signIn = async (config: AuthConfig) => {
    const jar = new CookieJar()
    await send(config, jar, consent(op, await startSignIn(config, jar)))
    expect(await sessionUserOf(config, jar)).toMatchObject({ name: "Ada Lovelace" })
    return jar
  }
  const post = (config: AuthConfig, token: string) => send(config, new CookieJar(), "/backchannel-logout/op", { form: { logout_token: token } })
  /** Past the second the token was issued in: a session signed in now is newer than the token. */
  const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100 - (Date.now() % 1000)))

  it("on the same instance the second is refused as replayed, and the instance said once that its jti store is per process", async () => {
    const a = instance()
    const before = await signIn(a.config)
    const token = await op.logoutToken()
    expect((await post(a.config, token)).status).toBe(200)
    expect(await sessionUserOf(a.config, before)).toBeNull()
    await nextSecond()
    const after = await signIn(a.config)
    const again = await post(a.config, token)
    expect(again.status).toBe(400)
    expect(await again.json()).toEqual({ error: "invalid_request", error_description: "replayed" })
    expect(await sessionUserOf(a.config, after)).toMatchObject({ name: "Ada Lovelace" })
    expect(a.warnings).toEqual(["replay-store-per-process"])
  })

  // With database sessions, a token accepted again on another instance deletes the user's rows again
  // (deleteUserSessions has no time bound): the warning says to share the jti store (Redis).
  it("on another instance, whose memory never saw the jti, it is accepted but ends no JWT session signed in after the token was issued", async () => {
    const [a, b] = [instance({ strategy: "jwt" }), instance({ strategy: "jwt" })]
    const before = await signIn(a.config)
    const token = await op.logoutToken()
    expect((await post(a.config, token)).status).toBe(200)
    expect(await sessionUserOf(b.config, before)).toBeNull()
    await nextSecond()
    const after = await signIn(a.config)
    expect((await post(b.config, token)).status).toBe(200)
    expect(await sessionUserOf(a.config, after)).toMatchObject({ name: "Ada Lovelace" })
    expect(await sessionUserOf(b.config, before)).toBeNull()
  })
})

describe("the built-in logger's replay-store-per-process warning", () => {
  it("is one line that says what is per process and how to share it", () => {
    const printed: unknown[][] = []
    const original = console.warn
    console.warn = (...args: unknown[]) => void printed.push(args)
    try {
      resolveLogger({}).warn("replay-store-per-process")
    } finally {
      console.warn = original
    }
    expect(printed).toHaveLength(1)
    const line = printed[0]!.map(String).join(" ")
    expect(line).not.toContain("\n")
    expect(line).toMatch(/\[replay-store-per-process\].* overwrites a duplicate, so a logout token's jti is remembered in this process only: pass replayStore: redisReplayStore\(client\)/)
  })
})
