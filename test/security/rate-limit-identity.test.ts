/**
 * Issue 20, items 2 and 6: who a credentials attempt counts against, and what a flood of fresh
 * identifiers can do to the stores.
 *
 * Item 2: the per-user budget keys on the provider's declared identity field, as `authorize()`
 * reads it, whatever else the form carries; a declared field that is not a string is refused
 * before `authorize()` runs; a request whose identity cannot be read counts against one shared
 * budget. Each form trick below sends 12 wrong guesses for alice (every one from its own address,
 * so only the per-user budget stands in the way) and counts the guesses that reached
 * `authorize()` as alice, with the budget at 5.
 *
 * Item 6: a refused request creates no window, and no window is evicted before it expires: a
 * memory store that is full counts new keys in a shared overflow window of their budget.
 */
import { Redis } from "ioredis"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { Auth, skipCSRFCheck } from "../../src/index.js"
import { CredentialsSignin } from "../../src/errors.js"
import { memoryStore, redisStore, withClientAddress, type RateLimitStore } from "../../src/rate-limit.js"
import Credentials from "../../src/providers/credentials.js"
import type { AuthConfig, RateLimitedMessage } from "../../src/types.js"
import { redisClient, redisProbe, serviceGate } from "../services.js"

const origin = "https://app.test"
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }
const guesses = 12
const limit = 5

/**
 * A `{ username, password }` app. Its `authorize` reads the username the way apps commonly do
 * (`String(...)`, NFKC, trimmed, lowercased) and records who each guess was for.
 */
function usernameApp(store: RateLimitStore, extra: Partial<AuthConfig> = {}) {
  const guessedFor: string[] = []
  const events: RateLimitedMessage[] = []
  const config: AuthConfig = {
    secret: "rate-limit-identity-secret",
    trustHost: true,
    skipCSRFCheck,
    logger: quiet,
    rateLimit: { store, limits: { credentials: { identifier: { max: limit, windowSeconds: 900 } } } },
    events: { rateLimited: (message) => void events.push(message) },
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize(credentials) {
          guessedFor.push(String(credentials.username).normalize("NFKC").trim().toLowerCase())
          if (String(credentials.username) === "bob" && credentials.password === "builder") return { id: "bob", name: "Bob" }
          throw new CredentialsSignin()
        },
      }),
    ],
    ...extra,
  }
  return { config, guessedFor, events, aliceGuesses: () => guessedFor.filter((name) => name === "alice").length }
}

type Body = { form: string } | { json: unknown }

function post(config: AuthConfig, body: Body, ip: string): Promise<Response> {
  const form = "form" in body
  const request = new Request(`${origin}/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": form ? "application/x-www-form-urlencoded" : "application/json" },
    body: form ? body.form : JSON.stringify(body.json),
  })
  return Auth(withClientAddress(request, ip), config)
}

/** The i-th request's own address, so that no per-address budget interferes. */
const addressOf = (i: number) => `198.51.${Math.floor(i / 250)}.${i % 250}`

/** Each way of writing "a wrong guess for alice" that a form or a JSON client can send. */
const tricks: { name: string; body: (i: number) => Body }[] = [
  { name: "plain form", body: () => ({ form: "username=alice&password=wrong" }) },
  { name: "an extra empty email field", body: () => ({ form: "username=alice&email=&password=wrong" }) },
  { name: "an extra email field that changes every time", body: (i) => ({ form: `username=alice&email=x${i}%40evil.test&password=wrong` }) },
  { name: "JSON email: null", body: () => ({ json: { username: "alice", email: null, password: "wrong" } }) },
  { name: 'JSON email: ""', body: () => ({ json: { username: "alice", email: "", password: "wrong" } }) },
  { name: 'JSON username: ["alice"]', body: () => ({ json: { username: ["alice"], password: "wrong" } }) },
  { name: 'JSON username: ["alice"], email: random', body: (i) => ({ json: { username: ["alice"], email: `x${i}@evil.test`, password: "wrong" } }) },
  { name: 'JSON username: { "0": "alice" }', body: () => ({ json: { username: { 0: "alice" }, password: "wrong" } }) },
  { name: "JSON password: [] (a declared field not a string)", body: () => ({ json: { username: "alice", password: ["wrong"] } }) },
  { name: "form username[]=alice (bracket array)", body: () => ({ form: "username[]=alice&password=wrong" }) },
  { name: "form duplicate username (bob, then alice)", body: () => ({ form: "username=bob&username=alice&password=wrong" }) },
  { name: "form duplicate username (alice, then a fresh name)", body: (i) => ({ form: `username=alice&username=fresh${i}&password=wrong` }) },
  { name: "case and whitespace variants", body: (i) => ({ form: `username=${encodeURIComponent(["ALICE", " alice ", "Alice\t", "aLiCe", "\nalice"][i % 5]!)}&password=wrong` }) },
  { name: "fullwidth and compatibility forms (NFKC)", body: (i) => ({ form: `username=${encodeURIComponent(["ａｌｉｃｅ", "ＡＬＩＣＥ", "Ａlice", "alice"][i % 4]!)}&password=wrong` }) },
]

describe("item 2: the per-user budget keys on the provider's declared identity field", () => {
  const counts: Record<string, string> = {}
  afterAll(() => {
    console.log(`guesses for alice that reached authorize(), of ${guesses}, limit ${limit}:\n${Object.entries(counts).map(([name, count]) => `  ${count.padStart(2)}  ${name}`).join("\n")}`)
  })

  for (const trick of tricks) {
    it(`${trick.name}: at most ${limit} of ${guesses} wrong guesses reach authorize()`, async () => {
      const app = usernameApp(memoryStore())
      for (let i = 0; i < guesses; i++) await post(app.config, trick.body(i), addressOf(i))
      counts[trick.name] = String(app.aliceGuesses())
      expect(app.aliceGuesses()).toBeLessThanOrEqual(limit)
    })
  }

  it("a declared field that is not a string is refused before authorize() runs, with CredentialsSignin", async () => {
    const app = usernameApp(memoryStore())
    for (const json of [{ username: ["alice"], password: "wrong" }, { username: null, password: "wrong" }, { username: 7, password: "wrong" }, { username: "alice", password: { x: 1 } }, { username: true, password: "wrong" }]) {
      const response = await post(app.config, { json }, "203.0.113.7")
      expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
    }
    expect(app.guessedFor).toEqual([])
    // Undeclared fields are not the identity, and are handed over as they came.
    expect((await post(app.config, { json: { username: "bob", password: "builder", remember: true } }, "203.0.113.7")).headers.get("location")).toBe(origin)
  })

  it("requests whose identity cannot be read (no username, an empty one) count against one shared budget, never against none", async () => {
    const app = usernameApp(memoryStore())
    const bodies: Body[] = [{ form: "password=wrong" }, { form: "username=&password=wrong" }, { form: "username=%20%20&password=wrong" }, { json: { password: "wrong" } }, { form: "email=alice%40example.test&password=wrong" }]
    for (let i = 0; i < guesses; i++) await post(app.config, bodies[i % bodies.length]!, addressOf(i))
    counts["no readable identity (shared budget)"] = String(app.guessedFor.length)
    expect(app.guessedFor.length).toBe(limit)
    expect(app.events.at(-1)).toMatchObject({ route: "credentials", rule: "identifier" })
    // The shared budget is not alice's: a guess for alice still gets through.
    await post(app.config, { form: "username=alice&password=wrong" }, addressOf(99))
    expect(app.aliceGuesses()).toBe(1)
  })

  it("takes the identity from the declared field the provider names: an email provider keys on email, not on a username sent beside it", async () => {
    const guessed: string[] = []
    const config: AuthConfig = {
      ...usernameApp(memoryStore()).config,
      providers: [
        Credentials({
          credentials: { email: { label: "Email", type: "email" }, password: { type: "password" } },
          authorize(credentials) {
            guessed.push(String(credentials.email).trim().toLowerCase())
            return null
          },
        }),
      ],
    }
    for (let i = 0; i < guesses; i++) await post(config, { form: `email=Alice%40Example.test&username=u${i}&password=wrong` }, addressOf(i))
    expect(guessed.filter((email) => email === "alice@example.test").length).toBe(limit)
  })

  it("rateLimit.credentialsIdentifier decides the identity when given; when it reads none, the shared budget counts", async () => {
    const app = usernameApp(memoryStore())
    const config: AuthConfig = { ...app.config, rateLimit: { ...(app.config.rateLimit as object), credentialsIdentifier: (credentials) => (typeof credentials.username === "string" && credentials.username.length > 3 ? credentials.username : undefined) } }
    for (let i = 0; i < guesses; i++) await post(config, { form: "username=alice&password=wrong" }, addressOf(i))
    expect(app.aliceGuesses()).toBe(limit)
    for (let i = 0; i < guesses; i++) await post(config, { form: `username=u${i % 10}&password=wrong` }, addressOf(i))
    expect(app.guessedFor.length).toBe(2 * limit)
  })
})

/** Locks alice out (5 wrong guesses, the 6th refused), floods with `flood` fresh identifiers, then guesses 12 more times. */
async function floodAfterLockout(store: RateLimitStore, flood: number, floodAddress: (i: number) => string): Promise<{ before: number; after: number }> {
  const app = usernameApp(store)
  for (let i = 0; i < limit + 1; i++) await post(app.config, { form: "username=alice&password=wrong" }, addressOf(i))
  const before = app.aliceGuesses()
  for (let i = 0; i < flood; i++) await post(app.config, { form: `username=fresh${i}&password=wrong` }, floodAddress(i))
  for (let i = 0; i < guesses; i++) await post(app.config, { form: "username=alice&password=wrong" }, addressOf(2000 + i))
  return { before, after: app.aliceGuesses() - before }
}

describe("item 6: flooding the memory store frees no exhausted window", () => {
  for (const flood of [200, 1000]) {
    it(`maxKeys 200: a locked-out user stays locked out after ${flood} requests under fresh identifiers (each from its own address)`, async () => {
      const { before, after } = await floodAfterLockout(memoryStore({ maxKeys: 200 }), flood, (i) => addressOf(3000 + i))
      console.log(`maxKeys 200, ${flood} fresh identifiers from ${flood} addresses: ${after} more guesses for the locked-out alice`)
      expect(before).toBe(limit)
      expect(after).toBe(0)
    })
  }

  it(`maxKeys 200: 1000 requests under fresh identifiers from one address (refused by its budget) leave the lockout in place`, async () => {
    const { after } = await floodAfterLockout(memoryStore({ maxKeys: 200 }), 1000, () => "203.0.113.66")
    console.log(`maxKeys 200, 1000 fresh identifiers from one address: ${after} more guesses for the locked-out alice`)
    expect(after).toBe(0)
  })

  it("a refused hit creates no window and pushes none out", async () => {
    const store = memoryStore({ maxKeys: 4 })
    const rule = { windowMs: 60_000, max: 5 }
    await store.hit([{ key: "a", ...rule }])
    await store.hit([{ key: "b", ...rule }])
    const [exhausted] = await store.hit([{ key: "ip:x", windowMs: 60_000, max: 1 }])
    expect(exhausted!.count).toBe(1)
    // 50 hits that the exhausted address refuses, each with a fresh identifier.
    for (let i = 0; i < 50; i++) {
      const [ip, id] = await store.hit([{ key: "ip:x", windowMs: 60_000, max: 1 }, { key: `fresh${i}`, ...rule }])
      expect(ip!.count).toBeGreaterThan(1)
      expect(id!.count).toBe(1)
    }
    // Nothing was pushed out: a's window still holds its hit.
    expect((await store.hit([{ key: "a", ...rule }]))[0]!.count).toBe(2)
    // Nothing was created either: one free slot is left for a fresh key of its own...
    expect((await store.hit([{ key: "d", ...rule }]))[0]!.count).toBe(1)
    expect((await store.hit([{ key: "d", ...rule }]))[0]!.count).toBe(2)
    // ...and once the store is full, fresh keys share their budget's overflow window.
    expect((await store.hit([{ key: "e", ...rule, overflowKey: "overflow" }]))[0]!.count).toBe(1)
    expect((await store.hit([{ key: "f", ...rule, overflowKey: "overflow" }]))[0]!.count).toBe(2)
  })

  it("a store full of exhausted windows evicts none: new keys are counted in the overflow window, refused once it is exhausted too", async () => {
    const store = memoryStore({ maxKeys: 3 })
    const rule = { windowMs: 60_000, max: 2, overflowKey: "id:overflow" }
    for (const key of ["a", "b"]) for (let i = 0; i < 2; i++) await store.hit([{ key, ...rule }])
    const counts: number[] = []
    for (let i = 0; i < 10; i++) counts.push((await store.hit([{ key: `new${i}`, ...rule }]))[0]!.count)
    // The first new key took the last free slot; the rest share the overflow window (2 hits), then are refused.
    expect(counts).toEqual([1, 1, 2, 3, 3, 3, 3, 3, 3, 3])
    for (const key of ["a", "b"]) expect((await store.hit([{ key, ...rule }]))[0]!.count).toBe(3)
  })

  it("expired windows make room again", async () => {
    const store = memoryStore({ maxKeys: 2 })
    await store.hit([{ key: "short1", windowMs: 30, max: 1 }])
    await store.hit([{ key: "short2", windowMs: 30, max: 1 }])
    expect((await store.hit([{ key: "x", windowMs: 60_000, max: 5, overflowKey: "o" }]))[0]!.count).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const [x, y] = await store.hit([{ key: "x2", windowMs: 60_000, max: 5, overflowKey: "o" }, { key: "y2", windowMs: 60_000, max: 5, overflowKey: "o" }])
    // Both got windows of their own: x2 and y2 count separately.
    expect([x!.count, y!.count]).toEqual([1, 1])
    expect((await store.hit([{ key: "x2", windowMs: 60_000, max: 5, overflowKey: "o" }]))[0]!.count).toBe(2)
  })
})

const redisService = serviceGate(await redisProbe(), "Redis not reachable at 127.0.0.1:6379: start it to run the Redis rate-limit store tests")

describe.skipIf(redisService.skip)("item 6 in Redis: refused requests create no keys", () => {
  const prefix = `authflow:test:rl-identity:${process.pid}:${Date.now()}:`
  let redis: Redis
  beforeAll(() => {
    redisService.require()
    redis = redisClient()
  })
  afterEach(async () => {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
  })
  afterAll(() => redis.disconnect())

  it("1000 fresh identifiers from one address: only the 30 it was allowed made keys; the locked-out user stays locked out", async () => {
    const { after } = await floodAfterLockout(redisStore(redis, { prefix }), 1000, () => "203.0.113.66")
    expect(after).toBe(0)
    // alice's key, 30 fresh identifiers, and the address keys of the requests that were let through.
    const idKeys = await redis.keys(`${prefix}id:credentials:*`)
    console.log(`Redis: 1000 fresh identifiers from one address (its budget 30) made ${idKeys.length} identifier keys`)
    expect(idKeys).toHaveLength(1 + 30)
  })

  it("a refused hit writes nothing: no new key, no count past the refusal", async () => {
    const store = redisStore(redis, { prefix })
    await store.hit([{ key: "ip:x", windowMs: 60_000, max: 1 }])
    for (let i = 0; i < 20; i++) {
      const [ip, id] = await store.hit([{ key: "ip:x", windowMs: 60_000, max: 1 }, { key: `fresh${i}`, windowMs: 60_000, max: 5 }])
      expect(ip!.count).toBeGreaterThan(1)
      expect(id!.count).toBe(1)
    }
    expect(await redis.keys(`${prefix}fresh*`)).toEqual([])
    expect(await redis.get(`${prefix}ip:x`)).toBe("1")
  })
})
