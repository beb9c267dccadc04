/**
 * Access-token refresh against a real `oidc-provider` with refresh-token rotation on (a reused
 * refresh token makes it revoke the whole grant, so a double use would show) and short access-token
 * lifetimes. Refresh grants are counted at the provider, from its own `grant.success` and
 * `grant.error` events. The instances of the cross-instance tests are separate `Auth()`
 * configurations (separate in-flight maps) sharing only PostgreSQL or Redis.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getAccessToken, redisRefreshStore } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { KyselyAdapter, createPostgresDatabase, migrateToLatest } from "../../src/adapters/kysely/index.js"
import { decode } from "../../src/core/jwt/index.js"
import { tokensClaim } from "../../src/actions/token-refresh.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig, RefreshOptions, Session } from "../../src/types.js"
import type { ProviderTokens } from "../../src/machines/token-refresh.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { loginAtProvider, startOidcProvider, type RunningProvider } from "../../demo/oidc-provider.js"
import { postgresProbe, postgresServer, redisClients, redisProbe, serviceGate, withPostgres } from "../services.js"

const secret = "token-refresh-e2e-secret-0123456789"
const sessionCookie = cookieNames.https.sessionToken
/** Access tokens live this long at the provider: 30 s, except the short-lived ones a test signs in with. */
let accessTokenSeconds = 30
/** The refresh skew of every test app. */
const skew = 1
/** A skew beyond any access token's lifetime: every token counts as due. */
const due = 3600

let op: RunningProvider
const grants = { refreshSucceeded: 0, refreshFailed: 0 }

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: [`${origin}/auth/callback/op`],
      },
    ],
    configuration: {
      ttl: { AccessToken: () => accessTokenSeconds, IdToken: 600, RefreshToken: 3600, Grant: 3600, Session: 3600, Interaction: 600 },
      issueRefreshToken: () => true,
      rotateRefreshToken: () => true,
    },
  })
  const isRefresh = (ctx: { oidc: { params?: Record<string, unknown> } }) => ctx.oidc.params?.grant_type === "refresh_token"
  op.provider.on("grant.success", (ctx) => void (isRefresh(ctx) && grants.refreshSucceeded++))
  op.provider.on("grant.error", (ctx) => void (isRefresh(ctx) && grants.refreshFailed++))
})

afterAll(async () => {
  await op?.close()
})

const grantsSoFar = () => ({ ...grants })
const grantsSince = (before: typeof grants) => ({ succeeded: grants.refreshSucceeded - before.refreshSucceeded, failed: grants.refreshFailed - before.refreshFailed })

interface App {
  config: AuthConfig & { refresh: RefreshOptions }
  errors: Error[]
  refreshed: unknown[]
  failures: { reason: string; provider: string }[]
}

function app(more: Partial<AuthConfig> & { refresh?: RefreshOptions } = {}): App {
  const { logger, errors } = recordingLogger()
  const refreshed: unknown[] = []
  const failures: { reason: string; provider: string }[] = []
  const config = {
    secret,
    trustHost: true,
    logger,
    providers: [{ id: "op", name: "OP", type: "oidc", issuer: op.issuer, clientId: "app", clientSecret: "app-secret" }],
    events: { tokenRefreshed: (message: unknown) => void refreshed.push(message), tokenRefreshFailed: (message: { reason: string; provider: string }) => void failures.push(message) },
    ...more,
    refresh: { skew, ...(more.refresh as RefreshOptions | undefined) },
  } as unknown as App["config"]
  return { config, errors, refreshed, failures }
}

/** Signs in through the provider's login and returns the browser. */
async function signIn(config: AuthConfig, login = "alice"): Promise<CookieJar> {
  const jar = new CookieJar()
  const csrfToken = await csrfTokenFor(config, jar)
  const start = await send(config, jar, "/signin/op", { form: { csrfToken, callbackUrl: "/home" } })
  expect(start.status).toBe(302)
  const back = await loginAtProvider(start.headers.get("location")!, login)
  const callback = await send(config, jar, back.href)
  expect(callback.headers.get("location")).toBe(`${origin}/home`)
  return jar
}

/**
 * Signs in with an access token that lives 2 s, and waits until it is due (1 s before it
 * expires); tokens issued afterwards live 30 s.
 */
async function signInAndWait(config: AuthConfig, login = "alice"): Promise<CookieJar> {
  accessTokenSeconds = 2
  const signedInAt = Math.floor(Date.now() / 1000)
  const jar = await signIn(config, login).finally(() => (accessTokenSeconds = 30))
  const dueAt = (signedInAt + 2 - skew) * 1000
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt - Date.now()) + 1050))
  return jar
}

/** The provider tokens the JWT session cookie carries. */
async function cookieTokens(jar: CookieJar): Promise<ProviderTokens | undefined> {
  const token = await decode({ token: jar.get(sessionCookie)!, secret, salt: sessionCookie })
  return (token?.[tokensClaim] as Record<string, ProviderTokens> | undefined)?.op
}

async function sessionOf(config: AuthConfig, jar: CookieJar): Promise<Session | null> {
  return (await (await send(config, jar, "/session")).json()) as Session | null
}

/** `count` session reads at once, each from its own copy of `jar` (the same session), spread over `configs`. */
async function concurrentReads(configs: AuthConfig[], jar: CookieJar, count: number): Promise<{ sessions: (Session | null)[]; jars: CookieJar[] }> {
  const jars = Array.from({ length: count }, () => {
    const copy = new CookieJar()
    for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
    return copy
  })
  const sessions = await Promise.all(jars.map((copy, index) => sessionOf(configs[index % configs.length]!, copy)))
  return { sessions, jars }
}

async function revokeGrantOf(refreshToken: string): Promise<void> {
  const stored = await op.provider.RefreshToken.find(refreshToken)
  expect(stored, "the provider knows the refresh token").toBeDefined()
  const grant = await op.provider.Grant.find(stored!.grantId!)
  await grant?.destroy()
  await op.provider.RefreshToken.revokeByGrantId(stored!.grantId!)
}

describe("token refresh, JWT sessions, one instance", () => {
  it("keeps the provider tokens in the session JWT's namespaced claim, not in what callbacks and clients see", async () => {
    const seen: Record<string, unknown>[] = []
    const { config } = app({ callbacks: { jwt: ({ token }) => (seen.push({ ...token }), token) } })
    const jar = await signIn(config)
    const tokens = await cookieTokens(jar)
    expect(tokens).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: "bearer" })
    expect(tokens!.expires_at! - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(accessTokenSeconds)
    expect(tokens).not.toHaveProperty("id_token")
    const session = await sessionOf(config, jar)
    expect(session).toMatchObject({ user: { email: "alice@example.test" } })
    expect(session).not.toHaveProperty("error")
    expect(JSON.stringify(session)).not.toContain(tokens!.refresh_token!)
    expect(seen.every((token) => !(tokensClaim in token))).toBe(true)
  })

  it("20 concurrent session reads of a due token send exactly 1 refresh grant; all 20 get the rotated tokens", async () => {
    const { config, errors, refreshed } = app()
    const fresh = grantsSoFar()
    const jar = await signInAndWait(config)
    const before = await cookieTokens(jar)
    expect(grantsSince(fresh).succeeded, "no refresh before the token is due").toBe(0)

    const start = grantsSoFar()
    const { sessions, jars } = await concurrentReads([config], jar, 20)
    expect(grantsSince(start)).toEqual({ succeeded: 1, failed: 0 })
    expect(sessions.every((session) => session?.user?.email === "alice@example.test" && session.error === undefined)).toBe(true)
    const after = await Promise.all(jars.map(cookieTokens))
    const rotated = after[0]!
    expect(rotated.refresh_token).not.toBe(before!.refresh_token)
    expect(rotated.access_token).not.toBe(before!.access_token)
    expect(after.every((tokens) => tokens?.refresh_token === rotated.refresh_token && tokens?.access_token === rotated.access_token)).toBe(true)
    expect(refreshed).toHaveLength(1)
    expect(errors).toEqual([])

    // A late read still carrying the old cookie joins the published result: the old refresh token is not used again.
    const straggler = grantsSoFar()
    const late = new CookieJar()
    for (const [name, value] of jar.cookies) late.cookies.set(name, value)
    expect((await sessionOf(config, late))?.error).toBeUndefined()
    expect(grantsSince(straggler)).toEqual({ succeeded: 0, failed: 0 })
    expect((await cookieTokens(late))?.refresh_token).toBe(rotated.refresh_token)

    // Fresh tokens are not refreshed; once due, the rotated refresh token is the one the provider honours.
    const unchanged = grantsSoFar()
    await sessionOf(config, jars[0]!)
    expect(grantsSince(unchanged).succeeded).toBe(0)
    config.refresh.skew = due
    const next = grantsSoFar()
    const browser = jars[0]!
    expect((await sessionOf(config, browser))?.error).toBeUndefined()
    expect(grantsSince(next)).toEqual({ succeeded: 1, failed: 0 })
    expect((await cookieTokens(browser))?.refresh_token).not.toBe(rotated.refresh_token)
  })

  it("a revoked grant: the user stays signed in with error RefreshTokenError, and tokenRefreshFailed fires once", async () => {
    const { config, errors, failures } = app()
    const jar = await signIn(config)
    await revokeGrantOf((await cookieTokens(jar))!.refresh_token!)
    config.refresh.skew = due
    const start = grantsSoFar()
    const { sessions } = await concurrentReads([config], jar, 5)
    expect(grantsSince(start)).toEqual({ succeeded: 0, failed: 1 })
    for (const session of sessions) expect(session).toMatchObject({ user: { email: "alice@example.test" }, error: "RefreshTokenError" })
    expect(failures).toEqual([expect.objectContaining({ provider: "op", reason: "revoked" })])
    expect(errors.map((error) => (error as { type?: string }).type)).toEqual(["RefreshTokenError"])
  })

  it("the provider down: the user stays signed in with RefreshTokenError (reason unavailable), and the old tokens are kept", async () => {
    const down = await startOidcProvider({
      clients: [{ client_id: "app", client_secret: "app-secret", grant_types: ["authorization_code", "refresh_token"], redirect_uris: [`${origin}/auth/callback/op`] }],
      configuration: { ttl: { AccessToken: 30, IdToken: 600, RefreshToken: 3600, Grant: 3600, Session: 3600, Interaction: 600 }, issueRefreshToken: () => true, rotateRefreshToken: () => true },
    })
    const { config, failures } = app({ providers: [{ id: "op", name: "OP", type: "oidc", issuer: down.issuer, clientId: "app", clientSecret: "app-secret" }] } as never)
    const jar = await signIn(config)
    const before = await cookieTokens(jar)
    await down.close()
    config.refresh.skew = due
    const session = await sessionOf(config, jar)
    expect(session).toMatchObject({ user: { email: "alice@example.test" }, error: "RefreshTokenError" })
    expect(failures).toEqual([expect.objectContaining({ provider: "op", reason: "unavailable" })])
    expect(await cookieTokens(jar)).toEqual(before)
  })

  it("getAccessToken gives the current access token, and a refreshed one with the cookie to set when due", async () => {
    const { config } = app()
    const jar = await signIn(config)
    const request = () => new Request(`${origin}/api/repos`, { headers: { cookie: jar.header() } })
    const current = await getAccessToken(request(), config, "op")
    expect(current).toMatchObject({ provider: "op", accessToken: (await cookieTokens(jar))!.access_token, tokenType: "bearer", setCookie: [] })

    config.refresh.skew = due
    const start = grantsSoFar()
    const refreshed = await getAccessToken(request(), config, "op")
    expect(grantsSince(start).succeeded).toBe(1)
    expect(refreshed!.accessToken).not.toBe(current!.accessToken)
    expect(refreshed!.setCookie.some((header) => header.startsWith(`${sessionCookie}=`))).toBe(true)
    // The provider accepts it.
    const userinfo = await fetch(`${op.issuer}/me`, { headers: { Authorization: `Bearer ${refreshed!.accessToken}` } })
    expect(userinfo.status).toBe(200)

    expect(await getAccessToken(new Request(`${origin}/api/repos`), config, "op")).toBeNull()
    await expect(getAccessToken(request(), config, "nope")).rejects.toThrow(/not an OAuth\/OIDC provider with token refresh on/)
  })
})

describe("token refresh, database sessions (memory adapter)", () => {
  it("20 concurrent reads send 1 refresh grant, and the rotation is persisted in the account row", async () => {
    const adapter = MemoryAdapter()
    const { config, errors } = app({ adapter, session: { strategy: "database" } })
    const jar = await signInAndWait(config)
    const user = (await adapter.getUserByEmail("alice@example.test"))!
    const [before] = await adapter.listAccountsByUserId(user.id)
    expect(before).toMatchObject({ provider: "op", refresh_token: expect.any(String), expires_at: expect.any(Number) })

    const start = grantsSoFar()
    const { sessions } = await concurrentReads([config], jar, 20)
    expect(grantsSince(start)).toEqual({ succeeded: 1, failed: 0 })
    expect(sessions.every((session) => session?.user?.email === "alice@example.test" && session.error === undefined)).toBe(true)
    const [after] = await adapter.listAccountsByUserId(user.id)
    expect(after!.refresh_token).not.toBe(before!.refresh_token)
    expect(after!.access_token).not.toBe(before!.access_token)
    expect(after!.refresh_token).not.toMatch(/^authflow-refreshing:/)
    expect(errors).toEqual([])

    const token = await getAccessToken(new Request(`${origin}/x`, { headers: { cookie: jar.header() } }), config, "op")
    expect(token?.accessToken).toBe(after!.access_token)
  })

  it("a revoked grant: RefreshTokenError, the old tokens put back, the user still signed in", async () => {
    const adapter = MemoryAdapter()
    const { config, failures } = app({ adapter, session: { strategy: "database" } })
    const jar = await signIn(config)
    const user = (await adapter.getUserByEmail("alice@example.test"))!
    const [before] = await adapter.listAccountsByUserId(user.id)
    await revokeGrantOf(before!.refresh_token!)
    config.refresh.skew = due
    const start = grantsSoFar()
    const { sessions } = await concurrentReads([config], jar, 5)
    expect(grantsSince(start)).toEqual({ succeeded: 0, failed: 1 })
    for (const session of sessions) expect(session).toMatchObject({ user: { email: "alice@example.test" }, error: "RefreshTokenError" })
    expect(failures).toEqual([expect.objectContaining({ reason: "revoked", providerAccountId: "alice" })])
    const [after] = await adapter.listAccountsByUserId(user.id)
    expect(after!.refresh_token).toBe(before!.refresh_token)

    // Signing in again replaces the revoked tokens in the row, and the session reads clean.
    const again = await signIn(config)
    const [renewed] = await adapter.listAccountsByUserId(user.id)
    expect(renewed!.refresh_token).not.toBe(before!.refresh_token)
    expect(await sessionOf(config, again)).not.toHaveProperty("error")
  })
})

// Two instances: separate configurations (separate in-flight maps), sharing only PostgreSQL or Redis.

const pgUnreachable = await postgresProbe()
const postgres = serviceGate(pgUnreachable, "PostgreSQL not reachable at 127.0.0.1:5432: start it to run the two-instance database-session refresh test")
const redis = serviceGate(await redisProbe(), "Redis not reachable at 127.0.0.1:6379: start it to run the two-instance JWT refresh test")

describe.skipIf(postgres.skip)("token refresh across two instances sharing PostgreSQL (database sessions)", () => {
  const schema = `authflow_refresh_${randomUUID().replaceAll("-", "")}`
  const databases: ReturnType<typeof createPostgresDatabase>[] = []
  const database = () => {
    const db = createPostgresDatabase({ ...postgresServer, options: `-c search_path=${schema}` })
    databases.push(db)
    return db
  }
  beforeAll(async () => {
    if (pgUnreachable) return
    await withPostgres((client) => client.query(`create schema ${schema}`))
    await migrateToLatest(database())
  })
  afterAll(async () => {
    await Promise.all(databases.map((db) => db.destroy()))
    if (pgUnreachable) return
    await withPostgres((client) => client.query(`drop schema if exists ${schema} cascade`))
  })

  it("20 concurrent reads over two instances: 1 refresh grant, the rotation stored once", async () => {
    postgres.require()
    const instances = [app({ adapter: KyselyAdapter(database()), session: { strategy: "database" } }), app({ adapter: KyselyAdapter(database()), session: { strategy: "database" } })]
    const adapter = instances[0]!.config.adapter as Required<Adapter>
    const jar = await signInAndWait(instances[0]!.config, "pg-user")
    const user = (await adapter.getUserByEmail("pg-user@example.test"))!
    const [before] = await adapter.listAccountsByUserId(user.id)

    const start = grantsSoFar()
    const { sessions } = await concurrentReads(instances.map((instance) => instance.config), jar, 20)
    expect(grantsSince(start)).toEqual({ succeeded: 1, failed: 0 })
    expect(sessions.every((session) => session?.user?.email === "pg-user@example.test" && session.error === undefined)).toBe(true)
    const [after] = await adapter.listAccountsByUserId(user.id)
    expect(after!.refresh_token).not.toBe(before!.refresh_token)
    expect(after!.refresh_token).not.toMatch(/^authflow-refreshing:/)
    expect(instances.flatMap((instance) => instance.refreshed)).toHaveLength(1)
    expect(instances.flatMap((instance) => instance.errors)).toEqual([])
  })
})

describe.skipIf(redis.skip)("token refresh across two instances sharing Redis (JWT sessions)", () => {
  const client = redisClients()

  it("20 concurrent reads over two instances: 1 refresh grant, every read gets the rotated tokens", async () => {
    redis.require()
    const prefix = `authflow:test:refresh:${randomUUID()}:`
    const [one, two] = [client(), client()]
    const instances = [app({ refresh: { store: redisRefreshStore(one, { prefix }) } }), app({ refresh: { store: redisRefreshStore(two, { prefix }) } })]
    const jar = await signInAndWait(instances[0]!.config)
    const before = await cookieTokens(jar)

    const start = grantsSoFar()
    const { sessions, jars } = await concurrentReads(instances.map((instance) => instance.config), jar, 20)
    expect(grantsSince(start)).toEqual({ succeeded: 1, failed: 0 })
    expect(sessions.every((session) => session?.user?.email === "alice@example.test" && session.error === undefined)).toBe(true)
    const after = await Promise.all(jars.map(cookieTokens))
    expect(new Set(after.map((tokens) => tokens?.refresh_token)).size).toBe(1)
    expect(after[0]!.refresh_token).not.toBe(before!.refresh_token)
    expect(instances.flatMap((instance) => instance.refreshed)).toHaveLength(1)
    // What Redis holds is sealed: neither refresh token appears in it.
    const keys = await one.keys(`${prefix}*`)
    expect(keys).toHaveLength(1)
    const stored = (await one.get(keys[0]!))!
    expect(stored).not.toContain(before!.refresh_token!)
    expect(stored).not.toContain(after[0]!.refresh_token!)
  })
})
