/**
 * A second factor across instances: two `Auth()` instances, each with its own connection pool to
 * one PostgreSQL database and one Redis (the rate limiter and the replay store), refuse a TOTP code
 * on one that the other accepted, a backup code used on the other, and a waiting flow cookie the
 * other resumed.
 */
import { randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { KyselyAdapter, createPostgresDatabase, migrateToLatest } from "../../src/adapters/kysely/index.js"
import { redisReplayStore } from "../../src/index.js"
import { redisStore } from "../../src/rate-limit.js"
import { base32Encode, hashBackupCode, newTotpSecret, sealFactorSecret } from "../../src/core/second-factor/index.js"
import { softwareTotp } from "../../src/testing/index.js"
import { postgresProbe, postgresServer, redisClient, redisProbe, serviceGate, withPostgres } from "../services.js"
import Credentials from "../../src/providers/credentials.js"
import { ada, CookieJar, csrfTokenFor, send } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

const unreachable = (await postgresProbe()) ?? (await redisProbe())
const service = serviceGate(unreachable, "second factor across instances: PostgreSQL (127.0.0.1:5432) or Redis (127.0.0.1:6379) not reachable: start them (see CONTRIBUTING.md's Tests section) to run this test")

describe.skipIf(service.skip)("second factor on two instances sharing PostgreSQL and Redis", () => {
  const schema = `authflow_2fa_${randomUUID().replaceAll("-", "")}`
  const secret = "second-factor-instances-secret-32-chars"
  const redis = redisClient()
  const pools: ReturnType<typeof createPostgresDatabase>[] = []
  afterAll(async () => {
    await Promise.all(pools.map((db) => db.destroy()))
    await withPostgres((client) => client.query(`drop schema if exists ${schema} cascade`)).catch(() => {})
    redis.disconnect()
  })

  function instance(): AuthConfig {
    const db = createPostgresDatabase({ ...postgresServer, options: `-c search_path=${schema}` })
    pools.push(db)
    const prefix = `authflow-test:${schema}:`
    return {
      secret,
      trustHost: true,
      adapter: KyselyAdapter(db),
      session: { strategy: "jwt" },
      providers: [],
      secondFactor: true,
      rateLimit: { store: redisStore(redis, { prefix: `${prefix}limit:` }) },
      replayStore: redisReplayStore(redis, { prefix: `${prefix}replay:` }),
    }
  }

  async function signInWithPassword(config: AuthConfig, jar: CookieJar) {
    const csrfToken = await csrfTokenFor(config, jar)
    return send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: "lovelace", callbackUrl: "https://app.test/" } })
  }

  async function submit(config: AuthConfig, jar: CookieJar, form: Record<string, string>) {
    const csrfToken = await csrfTokenFor(config, jar)
    return send(config, jar, "/second-factor", { form: { csrfToken, ...form } })
  }

  it("accepts each code, backup code and waiting flow once, whichever instance sees it first", async () => {
    service.require()
    await withPostgres((client) => client.query(`create schema ${schema}`))
    const a = instance()
    const b = instance()
    await migrateToLatest(pools[0]!)
    const adapter = a.adapter!
    const user = await adapter.createUser!({ id: "", name: ada.name, email: ada.email, emailVerified: null })
    const authorizes = (config: AuthConfig): AuthConfig => ({
      ...config,
      providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: ({ username, password }) => (username === "ada" && password === "lovelace" ? user : null) })],
    })
    const [first, second] = [authorizes(a), authorizes(b)]
    const totpSecret = newTotpSecret()
    await adapter.createFactor!({ id: randomUUID(), userId: user.id, type: "totp", name: "Phone", secret: await sealFactorSecret(totpSecret, secret), algorithm: "SHA-1", digits: 6, period: 30, lastUsedStep: null, createdAt: new Date() })
    await adapter.replaceBackupCodes!(user.id, [await hashBackupCode("abcde-fghjk", secret), await hashBackupCode("mnpqr-stuvw", secret)])
    const code = await softwareTotp(base32Encode(totpSecret)).code()

    const onA = new CookieJar()
    const onB = new CookieJar()
    await signInWithPassword(first, onA)
    await signInWithPassword(second, onB)
    expect((await submit(first, onA, { method: "totp", code })).headers.get("location")).toBe("https://app.test/")
    expect(new URL((await submit(second, onB, { method: "totp", code })).headers.get("location")!).searchParams.get("reason")).toBe("replayed-code")

    expect((await submit(second, onB, { method: "backup", code: "abcde-fghjk" })).headers.get("location")).toBe("https://app.test/")
    const third = new CookieJar()
    await signInWithPassword(first, third)
    expect(new URL((await submit(first, third, { method: "backup", code: "abcde-fghjk" })).headers.get("location")!).searchParams.get("reason")).toBe("unknown-backup-code")

    // One waiting flow, sent to both instances: the second resume is a replay.
    const waiting = new CookieJar()
    await signInWithPassword(first, waiting)
    const copy = new CookieJar()
    for (const [name, value] of waiting.cookies) copy.cookies.set(name, value)
    await submit(first, waiting, { method: "totp", code: "000000" })
    expect((await submit(second, copy, { method: "backup", code: "mnpqr-stuvw" })).headers.get("location")).toBe("https://app.test/auth/signin?error=SecondFactorRefused")
    expect(await adapter.countBackupCodes!(user.id)).toBe(1)
  })
})
