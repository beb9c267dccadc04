/**
 * The refresh stores: a claim is won once until it expires or its result is published, results
 * are sealed with a key only holders of the old refresh token can derive, and the Redis store does
 * the same across clients (20 parallel claims from two clients: one wins).
 */
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import { memoryRefreshStore, redisRefreshStore, type RefreshStore } from "../../src/core/refresh-store.js"
import { openResult, refreshKey, sealResult } from "../../src/core/refresh-result.js"
import { keptTokens, refreshEnabled, refreshPolicy } from "../../src/actions/token-refresh.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, recordingLogger, send } from "../helpers.js"
import { redisClients, redisProbe, serviceGate } from "../services.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What every store must do. */
async function behavesAsAStore(store: RefreshStore): Promise<void> {
  const key = refreshKey(`rt-${randomUUID()}`)
  expect(await store.read(key)).toBeUndefined()
  expect(await store.claim(key, Date.now() + 60_000)).toEqual({ state: "won" })
  expect(await store.claim(key, Date.now() + 60_000)).toEqual({ state: "busy" })
  expect(await store.read(key)).toEqual({ state: "busy" })
  await store.publish(key, "sealed-result", Date.now() + 60_000)
  expect(await store.claim(key, Date.now() + 60_000)).toEqual({ state: "done", result: "sealed-result" })
  expect(await store.read(key)).toEqual({ state: "done", result: "sealed-result" })

  // A claim whose holder never publishes expires, and can be claimed again.
  const abandoned = refreshKey(`rt-${randomUUID()}`)
  expect(await store.claim(abandoned, Date.now() + 80)).toEqual({ state: "won" })
  await sleep(150)
  expect(await store.read(abandoned)).toBeUndefined()
  expect(await store.claim(abandoned, Date.now() + 60_000)).toEqual({ state: "won" })
}

describe("refresh results are sealed", () => {
  it("open only with the refresh token they replace, and not once tampered with", async () => {
    const result = { tokens: { access_token: "at-2", refresh_token: "rt-2", expires_at: 1_900_000_000 } }
    const sealed = await sealResult("rt-1", result)
    expect(sealed).not.toContain("rt-2")
    expect(sealed).not.toContain("at-2")
    expect(await openResult("rt-1", sealed)).toEqual(result)
    expect(await openResult("rt-other", sealed)).toBeUndefined()
    const [iv, body] = sealed.split(".")
    // The second-to-last character always changes (it carries no padding bits).
    const flipped = `${iv}.${body!.slice(0, -2)}${body!.at(-2) === "A" ? "B" : "A"}${body!.slice(-1)}`
    expect(flipped).not.toBe(`${iv}.${body}`)
    expect(await openResult("rt-1", flipped)).toBeUndefined()
    expect(await openResult("rt-1", "not a result")).toBeUndefined()
    expect(await openResult("rt-1", await sealResult("rt-1", { failure: "revoked" }))).toEqual({ failure: "revoked" })
  })

  it("are keyed by a hash of the refresh token, never the token", () => {
    expect(refreshKey("rt-1")).toMatch(/^[0-9a-f]{64}$/)
    expect(refreshKey("rt-1")).not.toBe(refreshKey("rt-2"))
  })
})

describe("the memory refresh store", () => {
  it("claims, publishes and expires", async () => {
    await behavesAsAStore(memoryRefreshStore())
  })

  it("of 20 parallel claims of one key, one wins", async () => {
    const store = memoryRefreshStore()
    const claims = await Promise.all(Array.from({ length: 20 }, () => store.claim("k", Date.now() + 60_000)))
    expect(claims.filter((claim) => claim.state === "won")).toHaveLength(1)
  })
})

describe("refresh options", () => {
  it("is off unless the configuration or the provider turns it on; only OAuth/OIDC providers refresh", () => {
    const oidc = { type: "oidc" }
    expect(refreshEnabled({}, oidc)).toBe(false)
    expect(refreshEnabled({ refresh: true }, oidc)).toBe(true)
    expect(refreshEnabled({ refresh: {} }, oidc)).toBe(true)
    expect(refreshEnabled({ refresh: { enabled: false } }, oidc)).toBe(false)
    expect(refreshEnabled({ refresh: { enabled: false } }, { ...oidc, refresh: true })).toBe(true)
    expect(refreshEnabled({ refresh: true }, { ...oidc, refresh: false })).toBe(false)
    expect(refreshEnabled({ refresh: true }, { type: "credentials" })).toBe(false)
  })

  it("has documented defaults", () => {
    expect(refreshPolicy({ refresh: true })).toMatchObject({ skew: 60, claimMs: 30_000, resultMs: 300_000 })
    expect(refreshPolicy({ refresh: { skew: 5, claimTimeout: 2, resultLifetime: 10 } })).toMatchObject({ skew: 5, claimMs: 2000, resultMs: 10_000 })
  })

  it("with database sessions, an adapter without the refresh methods is a configuration error saying how to fix it", async () => {
    const { logger, errors } = recordingLogger()
    const { listAccountsByUserId: _list, updateAccountTokens: _update, ...adapter } = MemoryAdapter()
    const provider = { id: "op", name: "OP", type: "oidc", issuer: "https://op.example", clientId: "c", clientSecret: "s" }
    const config = { secret: "refresh-config-secret", trustHost: true, logger, adapter, refresh: true, providers: [provider] } as unknown as AuthConfig
    expect((await send(config, new CookieJar(), "/session")).status).toBe(500)
    expect(errors.map((error) => error.message)).toEqual([
      "Token refresh with database sessions needs the adapter methods listAccountsByUserId, updateAccountTokens: add them to your adapter, use authflow's, or turn `refresh` off",
    ])
    // Refresh off, or JWT sessions: the same adapter is fine.
    const off = { ...config, refresh: false }
    expect((await send(off, new CookieJar(), "/session")).status).toBe(200)
  })

  it("keeps tokens only when the provider gave a refresh token and an expiry", () => {
    expect(keptTokens({ access_token: "a", expires_at: 1 })).toBeUndefined()
    expect(keptTokens({ access_token: "a", refresh_token: "r" })).toBeUndefined()
    expect(keptTokens({ access_token: "a", refresh_token: "r", expires_at: 1, id_token: "x", token_type: "bearer", provider: "p" })).toEqual({ access_token: "a", refresh_token: "r", expires_at: 1, token_type: "bearer" })
  })
})

const redis = serviceGate(await redisProbe(), "Redis not reachable at 127.0.0.1:6379: start it to run the Redis refresh-store tests")

describe.skipIf(redis.skip)("the Redis refresh store", () => {
  const client = redisClients()

  it("claims, publishes and expires", async () => {
    redis.require()
    await behavesAsAStore(redisRefreshStore(client(), { prefix: `authflow:test:refresh-store:${randomUUID()}:` }))
  })

  it("of 20 parallel claims from two clients, one wins", async () => {
    redis.require()
    const prefix = `authflow:test:refresh-store:${randomUUID()}:`
    const stores = [redisRefreshStore(client(), { prefix }), redisRefreshStore(client(), { prefix })]
    const claims = await Promise.all(Array.from({ length: 20 }, (_, index) => stores[index % 2]!.claim("k", Date.now() + 60_000)))
    expect(claims.filter((claim) => claim.state === "won")).toHaveLength(1)
  })
})
