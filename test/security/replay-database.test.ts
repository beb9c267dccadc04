/**
 * A flow is used once across instances that share only the secret and the database: with an
 * adapter and no `replayStore`, each flow (an OAuth sign-in, a WebAuthn challenge) inserts a row in
 * the verification-token table when it is sealed, and resuming it takes that row back with
 * `useVerificationToken` (delete-and-return): one resumption gets it.
 *
 * Each "instance" here is its own `Auth()` configuration with its own database connection and its
 * own replay state in memory; only the database file (SQLite) or schema (PostgreSQL) is shared.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import type { Kysely } from "kysely"
import { KyselyAdapter, createPostgresDatabase, createSqliteDatabase, migrateToLatest, type AuthflowDatabase } from "../../src/adapters/kysely/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { Adapter } from "../../src/adapters.js"
import { FlowCookieRefused } from "../../src/actions/flow-cookie.js"
import { REPLAY_TOKEN_IDENTIFIER, adapterReplayStore } from "../../src/core/replay-store.js"
import { isUniqueViolation } from "../../src/core/replay-adapter.js"
import { sha256Hex } from "../../src/core/crypto.js"
import type { AuthError } from "../../src/core/errors.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, send } from "../helpers.js"
import { getOptions, passkeyConfig, postCallback, register, sessionOf } from "../support/passkey-flow.js"
import { SoftCredential } from "../../src/testing/authenticator.js"
import { consent, oauthApp, refusedWith, sessionUserOf, startSignIn } from "../support/oauth-harness.js"
import { ci, postgresProbe, postgresServer, reasonOf, withPostgres } from "../services.js"

const schema = `authflow_replay_${randomUUID().replaceAll("-", "")}`

/** Creates this run's schema once PostgreSQL answers; the reason when it cannot be used. */
async function createSchema(): Promise<string | null> {
  const unreachable = await postgresProbe()
  if (unreachable) return unreachable
  try {
    await withPostgres((client) => client.query(`create schema ${schema}`))
    return null
  } catch (error) {
    return reasonOf(error)
  }
}

const dir = mkdtempSync(join(tmpdir(), "authflow-replay-"))
const sqliteFile = join(dir, "auth.sqlite")
const postgresUnreachable = await createSchema()
const postgresSkip = "PostgreSQL not reachable at 127.0.0.1:5432: start it (see CONTRIBUTING.md's Tests section) to run the shared-database replay tests on PostgreSQL"
if (postgresUnreachable && !ci) console.warn(`${postgresSkip} (probe error: ${postgresUnreachable})`)

const opened: Kysely<AuthflowDatabase>[] = []
/** A new connection to the shared database, as another server instance would open. */
function connect(kind: "SQLite" | "PostgreSQL"): Kysely<AuthflowDatabase> {
  if (kind === "PostgreSQL" && postgresUnreachable) throw new Error(`${postgresSkip}. CI is set, so this fails instead of being skipped. Probe error: ${postgresUnreachable}`)
  const db = kind === "SQLite" ? createSqliteDatabase(sqliteFile) : createPostgresDatabase({ ...postgresServer, options: `-c search_path=${schema}` })
  opened.push(db)
  return db
}

afterAll(async () => {
  for (const db of opened) await db.destroy()
  rmSync(dir, { recursive: true, force: true })
  if (!postgresUnreachable) await withPostgres((client) => client.query(`drop schema if exists ${schema} cascade`))
})

const errorUrl = (type: string) => `${origin}/auth/error?error=${type}`
const checkOf = (errors: Error[]) => ((errors.at(-1) as AuthError | undefined)?.cause as { check?: string } | undefined)?.check
const copyOf = (jar: CookieJar) => {
  const copy = new CookieJar()
  for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
  return copy
}

describe.each([
  ["SQLite", false],
  ["PostgreSQL", postgresUnreachable !== null && !ci],
] as const)("two instances sharing only the secret and a %s database", (kind, skip) => {
  /** Two instances: two connections, two adapters, two configurations, no shared memory. */
  async function instances() {
    const [one, two] = [connect(kind), connect(kind)]
    await migrateToLatest(one)
    return { dbs: [one, two] as const, adapters: [KyselyAdapter(one), KyselyAdapter(two)] as const }
  }

  it.skipIf(skip)("a replayed WebAuthn authentication response is refused on the second instance", async () => {
    const { adapters } = await instances()
    const [one, two] = adapters.map((adapter) => passkeyConfig({ adapter: adapter as never }))
    const synced = new SoftCredential("app.test", false) // no signature counter: only the replay store can catch the replay
    await register(one!, new CookieJar(), `replay-${randomUUID()}@example.test`, {}, synced)
    const jar = new CookieJar()
    const { body } = await getOptions(one!, jar, { action: "authenticate" })
    const answer = synced.authenticate(body.options, origin)
    const saved = copyOf(jar)
    expect((await postCallback(one!, jar, "authenticate", answer)).headers.get("location")).toBe(`${origin}/dashboard`)

    const response = await postCallback(two!, saved, "authenticate", answer)
    expect(response.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect(checkOf(two!.errors)).toBe("challengeReplayed")
    expect(await sessionOf(two!, saved)).toBeNull()
    expect(one!.errors).toEqual([])
  })

  it.skipIf(skip)("a replayed OAuth callback is refused on the second instance; the flow's row, a hash of its key, is written at sign-in and taken at the callback", async () => {
    const { dbs, adapters } = await instances()
    const op = oauthApp().op
    const first = oauthApp({ adapter: adapters[0] }, op)
    const second = oauthApp({ adapter: adapters[1] }, op)
    const browser = new CookieJar()
    const replayRows = async () => dbs[1].selectFrom("verification_tokens").selectAll().where("identifier", "=", REPLAY_TOKEN_IDENTIFIER).execute()
    const before = await replayRows()
    const authorizationUrl = await startSignIn(second.config, browser) // started on the second, finished on the first
    const replay = copyOf(browser)
    const added = (await replayRows()).filter((row) => !before.some((old) => old.token === row.token))
    expect(added).toHaveLength(1)
    expect(added[0]!.token).toMatch(/^[0-9a-f]{64}$/)
    const expires = new Date(added[0]!.expires).getTime()
    expect(expires).toBeGreaterThan(Date.now() + 14 * 60_000)
    expect(expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1000)
    await send(first.config, browser, consent(op, authorizationUrl, `first-${kind.toLowerCase()}`))
    expect(await sessionUserOf(first.config, browser)).toMatchObject({ email: `first-${kind.toLowerCase()}@example.test` })
    expect((await replayRows()).some((row) => row.token === added[0]!.token)).toBe(false)

    const cause = refusedWith(await send(second.config, replay, consent(op, authorizationUrl, `second-${kind}`)), second.errors)
    expect(cause).toBeInstanceOf(FlowCookieRefused)
    expect((cause as FlowCookieRefused).reason).toBe("replayed")
    expect(await adapters[1].getUserByAccount!({ provider: "op", providerAccountId: `second-${kind}` })).toBeNull()
  })

  it.skipIf(skip)("only a unique-key violation means replayed: the driver's duplicate error is recognized, a missing table is not", async () => {
    const { adapters } = await instances()
    const row = { identifier: REPLAY_TOKEN_IDENTIFIER, token: sha256Hex(randomUUID()), expires: new Date(Date.now() + 60_000) }
    await adapters[0].createVerificationToken!(row)
    const duplicate = await Promise.resolve(adapters[1].createVerificationToken!(row)).then(() => null, (error: unknown) => error)
    expect(isUniqueViolation(duplicate)).toBe(true)
    const unmigrated = kind === "SQLite" ? createSqliteDatabase(":memory:") : null
    if (unmigrated) {
      opened.push(unmigrated)
      const missing = await Promise.resolve(KyselyAdapter(unmigrated).createVerificationToken!(row)).then(() => null, (error: unknown) => error)
      expect(missing).toBeInstanceOf(Error)
      expect(isUniqueViolation(missing)).toBe(false)
    }
  })
})

/** The memory adapter, whose `useVerificationToken` fails as a database that is down once `goDown()` is called. */
function claimFailsLater() {
  const memory = MemoryAdapter()
  let down = false
  const flaky = Object.assign(Object.create(null) as object, memory, {
    async useVerificationToken(params: { identifier: string; token: string }) {
      if (down) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })
      return memory.useVerificationToken(params)
    },
  }) as Adapter
  return { memory, flaky, goDown: () => void (down = true) }
}

describe("the adapter-backed store, whatever the database", () => {
  it("the memory adapter refuses a duplicate with a unique violation, so it works as a replay store too", async () => {
    const store = adapterReplayStore(MemoryAdapter())
    const expiresAt = Date.now() + 60_000
    expect(await store.markUsed("oauth:abc", expiresAt)).toBe(true)
    expect(await store.markUsed("oauth:abc", expiresAt)).toBe(false)
    expect(await store.markUsed("oauth:abd", expiresAt)).toBe(true)
  })

  it("fails closed: a database that cannot record a new flow refuses the sign-in, and logs why in one line", async () => {
    const unmigrated = createSqliteDatabase(":memory:")
    opened.push(unmigrated)
    const op = oauthApp().op
    const app = oauthApp({ adapter: KyselyAdapter(unmigrated) }, op)
    const browser = new CookieJar()
    const response = await send(app.config, browser, "https://app.test/auth/signin/op", { form: { csrfToken: await csrfTokenFor(app.config, browser) } })
    // A database failure, answered as every adapter failure is: the error page, and one AdapterError logged.
    expect(response.headers.get("location")).toMatch(/\/auth\/error\?error=Configuration/)
    expect(browser.cookies.has(cookieNames.https.flow)).toBe(false)
    expect(app.errors.map((error) => error.name)).toEqual(["AdapterError"])
    const logged = app.errors[0]
    expect(logged?.message).toMatch(/^The replay store could not record a new flow .* so the flow is refused: check that the database is reachable and migrated$/)
    expect(String(((logged as AuthError).cause as { err?: Error }).err?.message)).toMatch(/no such table: verification_tokens/)
  })

  it("fails closed: a database that cannot claim the flow at the callback refuses it, and logs why in one line", async () => {
    const { flaky, goDown } = claimFailsLater()
    const op = oauthApp().op
    const app = oauthApp({ adapter: flaky }, op)
    const browser = new CookieJar()
    const authorizationUrl = await startSignIn(app.config, browser)
    goDown()
    const response = await send(app.config, browser, consent(op, authorizationUrl, "closed"))
    expect(response.headers.get("location")).toMatch(/\/auth\/error\?error=Configuration/)
    expect(browser.cookies.has(cookieNames.https.sessionToken)).toBe(false)
    expect(app.errors.map((error) => error.name)).toEqual(["AdapterError"])
    expect(app.errors[0]?.message).toMatch(/^The replay store could not claim a resumed flow .* so the flow is refused/)
    expect(op.seen.filter((route) => route.endsWith("/token"))).toHaveLength(0)
  })

  it("fails closed for a passkey too: the WebAuthn machine ends in persistFailed, not as a replay, and nobody signs in", async () => {
    const { memory, flaky, goDown } = claimFailsLater()
    const config = passkeyConfig({ adapter: flaky as never })
    const synced = new SoftCredential("app.test", false)
    await memory.createUser({ id: "u-down", email: "down@example.test", emailVerified: null })
    await memory.linkAccount({ userId: "u-down", type: "webauthn", provider: "passkey", providerAccountId: synced.adapterAuthenticator("u-down").providerAccountId })
    await memory.createAuthenticator(synced.adapterAuthenticator("u-down"))
    const jar = new CookieJar()
    const { body } = await getOptions(config, jar, { action: "authenticate" })
    goDown()
    const response = await postCallback(config, jar, "authenticate", synced.authenticate(body.options, origin))
    expect(response.headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`)
    expect(await sessionOf(config, jar)).toBeNull()
    expect(config.errors.map((error) => error.name)).toEqual(["AdapterError"])
    expect(config.errors[0]!.message).toMatch(/^The replay store could not claim a resumed flow/)
  })

  it("a store without createVerificationToken is a configuration error that says how to fix it", () => {
    expect(() => adapterReplayStore({})).toThrow(/needs an adapter with createVerificationToken: add it to the adapter, or pass replayStore: redisReplayStore\(client\)/)
  })

  it("rows this process wrote are deleted once expired, a few at a time, as later flows are marked", async () => {
    const adapter = MemoryAdapter()
    const store = adapterReplayStore(adapter)
    const longAgo = Date.now() - 60 * 60_000
    expect(await store.markUsed("oauth:old", longAgo)).toBe(true)
    expect(await store.markUsed("oauth:new", Date.now() + 60_000)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(await adapter.useVerificationToken({ identifier: REPLAY_TOKEN_IDENTIFIER, token: sha256Hex("oauth:old") })).toBeNull()
    expect(await adapter.useVerificationToken({ identifier: REPLAY_TOKEN_IDENTIFIER, token: sha256Hex("oauth:new") })).not.toBeNull()
  })
})
