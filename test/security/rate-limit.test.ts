/**
 * Issue 12, part 2: rate limiting. The budgets hold under 200 concurrent requests (nothing admitted
 * beyond a limit) with the memory store and with Redis, two Auth() instances sharing Redis share
 * them, a legitimate user elsewhere is unaffected, path tricks, IPv6 addresses of one /64 and
 * forged X-Forwarded-For headers do not get around them, and a failing store fails open or closed
 * as configured.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Redis } from "ioredis"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { Auth, skipCSRFCheck } from "../../src/index.js"
import { CredentialsSignin, RateLimited } from "../../src/errors.js"
import { raw } from "../../src/core/symbols.js"
import { memoryStore, redisStore, withClientAddress, type RateLimitStore } from "../../src/rate-limit.js"
import { addressKey, clientAddress, parseCidrs } from "../../src/core/rate-limit/ip.js"
import { rateLimitOf } from "../../src/core/rate-limit/limiter.js"
import Credentials from "../../src/providers/credentials.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { sendWebResponse, toWebRequest } from "../../src/frameworks/node.js"
import SvelteKitAuth from "../../src/frameworks/sveltekit/index.js"
import type { RequestEvent } from "@sveltejs/kit"
import type { AuthConfig, RateLimitedMessage, RateLimitOptions } from "../../src/types.js"
import { redisClient, redisProbe, serviceGate } from "../services.js"
import { buildRequest } from "../helpers.js"

const origin = "https://app.test"
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

/** A credentials app: `ada`/`lovelace` and `bob`/`builder` sign in; `authorize` counts its calls. */
function credentialsApp(rateLimit: AuthConfig["rateLimit"], extra: Partial<AuthConfig> = {}) {
  const authorized: string[] = []
  const events: RateLimitedMessage[] = []
  const errors: Error[] = []
  const passwords: Record<string, string> = { ada: "lovelace", bob: "builder" }
  const config: AuthConfig = {
    secret: "rate-limit-test-secret-0123456789abcdef",
    trustHost: true,
    skipCSRFCheck,
    rateLimit,
    logger: { ...quiet, error: (error) => void errors.push(error) },
    events: { rateLimited: (message) => void events.push(message) },
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize(credentials) {
          const username = String(credentials.username)
          authorized.push(username)
          if (passwords[username.trim().toLowerCase()] === credentials.password) return { id: username, name: username }
          throw new CredentialsSignin()
        },
      }),
    ],
    ...extra,
  }
  return { config, authorized, events, errors }
}

interface Attempt {
  username?: string
  password?: string
  ip?: string
  forwardedFor?: string
  path?: string
  headers?: Record<string, string>
}

function credentialsRequest({ username = "ada", password = "wrong", ip = "203.0.113.7", forwardedFor, path = "/auth/callback/credentials", headers = {} }: Attempt): Request {
  const form = { username, password, callbackUrl: "/dashboard" }
  return withClientAddress(buildRequest(`${origin}${path}`, { form, headers: { ...(forwardedFor && { "x-forwarded-for": forwardedFor }), ...headers } }), ip)
}

/** What a page-flow answer says: signed in, refused credentials, rate limited, or something else. */
function verdictOf(response: Response): "signedIn" | "refused" | "limited" | string {
  const location = response.headers.get("location") ?? ""
  if (location === `${origin}/dashboard`) return "signedIn"
  if (location.includes("error=CredentialsSignin")) return "refused"
  if (location.includes("error=RateLimited")) return "limited"
  return `${response.status} ${location}`
}

function tally(verdicts: string[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const verdict of verdicts) counts[verdict] = (counts[verdict] ?? 0) + 1
  return counts
}

async function attempt(config: AuthConfig, attempt: Attempt = {}): Promise<Response> {
  return Auth(credentialsRequest(attempt), config)
}

/** A store whose every call fails, as a Redis that went away does. */
const brokenStore: RateLimitStore = {
  hit: () => Promise.reject(new Error("ECONNREFUSED 127.0.0.1:6399")),
  refund: () => Promise.reject(new Error("ECONNREFUSED 127.0.0.1:6399")),
}

function sessionUpdate(config: AuthConfig, ip: string, headers: Record<string, string> = {}): Promise<Response> {
  return Auth(withClientAddress(buildRequest(`${origin}/auth/session`, { json: { data: { theme: "dark" } }, headers }), ip), config)
}

function sessionApp(rateLimit: RateLimitOptions): AuthConfig {
  return { secret: "rate-limit-test-secret", trustHost: true, skipCSRFCheck, logger: quiet, providers: [], rateLimit }
}

describe("the memory store: limits hold under load", () => {
  it("200 concurrent failed attempts for one identifier: exactly 5 reach authorize, 195 are refused with RateLimited", async () => {
    const app = credentialsApp({ store: memoryStore() })
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => attempt(app.config, { ip: `198.51.100.${i % 250}` })))
    expect(tally(responses.map(verdictOf))).toEqual({ refused: 5, limited: 195 })
    expect(app.authorized).toHaveLength(5)
    expect(app.events).toHaveLength(195)
    expect(app.events[0]).toMatchObject({ route: "credentials", rule: "identifier", identifier: "ada", retryAfter: expect.any(Number) })
    const limited = responses.find((response) => verdictOf(response) === "limited")!
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(850)
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(900)
  })

  it("200 concurrent attempts from one address with 200 usernames: the address's budget (30 failures) holds", async () => {
    const app = credentialsApp({ store: memoryStore() })
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => attempt(app.config, { username: `user${i}` })))
    expect(tally(responses.map(verdictOf))).toEqual({ refused: 30, limited: 170 })
    expect(app.authorized).toHaveLength(30)
    expect(app.events.every((event) => event.rule === "ip" && event.ip === "203.0.113.7")).toBe(true)
  })

  it("200 concurrent sign-in mails to one address: 3 are sent; the address's other requests are refused", async () => {
    const sent: string[] = []
    const config: AuthConfig = {
      secret: "rate-limit-test-secret-0123456789abcdef",
      trustHost: true,
      skipCSRFCheck,
      logger: quiet,
      adapter: MemoryAdapter(),
      rateLimit: { store: memoryStore() },
      providers: [Nodemailer({ server: "smtp://127.0.0.1:1", from: "login@app.test", sendVerificationRequest: ({ identifier }) => void sent.push(identifier) })],
    }
    const request = (i: number) => {
      // The address written 200 ways: case, spaces. One budget.
      const email = i % 2 ? ` ADA@example.test ` : "ada@Example.TEST"
      return withClientAddress(buildRequest(`${origin}/auth/signin/nodemailer`, { form: { email } }), `198.51.100.${i % 250}`)
    }
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => Auth(request(i), config)))
    const locations = responses.map((response) => response.headers.get("location") ?? "")
    expect(locations.filter((location) => location.includes("/verify-request"))).toHaveLength(3)
    expect(locations.filter((location) => location.includes("error=RateLimited"))).toHaveLength(197)
    expect(sent).toEqual(["ada@example.test", "ada@example.test", "ada@example.test"])
  })

  it("a legitimate user from another address signs in while an attacker is locked out, and a success does not count as a failure", async () => {
    const app = credentialsApp({ store: memoryStore() })
    // The attacker exhausts ada's budget and their own address's, spraying usernames.
    await Promise.all(Array.from({ length: 60 }, (_, i) => attempt(app.config, { username: i % 2 ? "ada" : `user${i}`, ip: "203.0.113.66" })))
    expect(verdictOf(await attempt(app.config, { username: "nobody", ip: "203.0.113.66" }))).toBe("limited")
    // Bob, elsewhere, signs in; and again and again (successes take their attempt back).
    for (let i = 0; i < 8; i++) expect(verdictOf(await attempt(app.config, { username: "bob", password: "builder", ip: "192.0.2.10" }))).toBe("signedIn")
    // Two typos of his own do not lock him out either.
    for (let i = 0; i < 2; i++) expect(verdictOf(await attempt(app.config, { username: "bob", password: "typo", ip: "192.0.2.10" }))).toBe("refused")
    expect(verdictOf(await attempt(app.config, { username: "bob", password: "builder", ip: "192.0.2.10" }))).toBe("signedIn")
  })

  it("path tricks count on the same budget: double slashes, trailing slashes and an encoded provider id; other spellings are refused before authorize", async () => {
    const app = credentialsApp({ store: memoryStore() })
    const tricks = ["/auth//callback/credentials", "/auth/callback/credentials/", "/auth/callback//credentials", "/auth/callback/credential%73", "/auth/callback/credentials//"]
    for (const path of tricks) expect(verdictOf(await attempt(app.config, { path })), path).toBe("refused")
    for (const path of [...tricks, "/auth/callback/credentials"]) expect(verdictOf(await attempt(app.config, { path })), path).toBe("limited")
    for (const path of ["/auth/CALLBACK/credentials", "/auth/callback/CREDENTIALS", "/auth/%63allback/credentials", "/auth/callback/credentials/extra"]) {
      const response = await attempt(app.config, { path })
      expect(verdictOf(response), path).not.toBe("refused")
      expect(verdictOf(response), path).not.toBe("signedIn")
    }
    expect(app.authorized).toHaveLength(5)
  })

  it("the identifier is normalised: case, surrounding spaces and compatibility forms share one budget", async () => {
    const app = credentialsApp({ store: memoryStore() })
    for (const username of ["ada", "ADA", " Ada ", "ａｄａ", "aDa"]) expect(verdictOf(await attempt(app.config, { username, ip: `192.0.2.${username.length}` }))).toBe("refused")
    expect(verdictOf(await attempt(app.config, { username: "Ada", ip: "192.0.2.99" }))).toBe("limited")
  })

  it("on by default in production, off by default elsewhere, off with rateLimit: false", async () => {
    const env = process.env as Record<string, string | undefined>
    const before = env.NODE_ENV
    try {
      env.NODE_ENV = "production"
      const production = credentialsApp(undefined)
      const verdicts = []
      for (let i = 0; i < 7; i++) verdicts.push(verdictOf(await attempt(production.config, { username: "prod-user" })))
      expect(verdicts).toEqual(["refused", "refused", "refused", "refused", "refused", "limited", "limited"])
      const off = credentialsApp(false)
      for (let i = 0; i < 7; i++) expect(verdictOf(await attempt(off.config, { username: "prod-user-2" }))).toBe("refused")
      env.NODE_ENV = "development"
      const development = credentialsApp(undefined)
      for (let i = 0; i < 7; i++) expect(verdictOf(await attempt(development.config, { username: "dev-user" }))).toBe("refused")
    } finally {
      env.NODE_ENV = before
    }
  })

  it("answers each client as it expects: 429 { url } to a client asking for the URL, 429 { message } to a session update, RateLimited thrown in raw mode", async () => {
    const app = credentialsApp({ store: memoryStore(), limits: { credentials: { identifier: { max: 0, windowSeconds: 60 } } } })
    const client = await attempt(app.config, { headers: { "X-Auth-Return-Redirect": "1" } })
    expect(client.status).toBe(429)
    expect(client.headers.get("retry-after")).toBe("60")
    expect(await client.json()).toEqual({ url: expect.stringMatching(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`)) })
    await expect(Auth(credentialsRequest({}), { ...app.config, raw })).rejects.toMatchObject({ type: "RateLimited", retryAfter: 60 })
    await expect(Auth(credentialsRequest({}), { ...app.config, raw })).rejects.toBeInstanceOf(RateLimited)

    const session = sessionApp({ store: memoryStore(), limits: { session: { ip: { max: 2, windowSeconds: 60 } } } })
    expect((await sessionUpdate(session, "192.0.2.1")).status).toBe(200)
    expect((await sessionUpdate(session, "192.0.2.1")).status).toBe(200)
    const refused = await sessionUpdate(session, "192.0.2.1")
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await refused.json()).toEqual({ message: expect.stringMatching(/^Too many requests\. Try again in \d+ seconds\.$/) })
    // In the request's language.
    const german = await sessionUpdate(session, "192.0.2.1", { "accept-language": "de" })
    expect(await german.json()).toEqual({ message: expect.stringMatching(/^Zu viele Anfragen\. Versuchen Sie es in \d+ Sekunden erneut\.$/) })
    // Reading the session (GET) is never limited.
    expect((await Auth(withClientAddress(new Request(`${origin}/auth/session`), "192.0.2.1"), session)).status).toBe(200)
    // The sign-in page says what happened.
    const page = await Auth(new Request(`${origin}/auth/signin?error=RateLimited`), { ...app.config, rateLimit: false })
    expect(await page.text()).toContain("Too many attempts. Wait a few minutes, then try again.")
    // A page flow is sent there with the wait, which the page states.
    const pageFlow = await attempt(app.config, {})
    const location = pageFlow.headers.get("location")!
    expect(location).toBe(`${origin}/auth/signin?error=RateLimited&retryAfter=60`)
    const stated = await Auth(new Request(location), { ...app.config, rateLimit: false })
    expect(await stated.text()).toContain("Too many attempts. Try again in 1 minute.")
  })
})

describe("the client's address", () => {
  it("IPv6: every address of one /64 shares a budget; the next /64 has its own; IPv4-mapped addresses are their IPv4 address", async () => {
    const config = sessionApp({ store: memoryStore(), limits: { session: { ip: { max: 2, windowSeconds: 60 } } } })
    expect((await sessionUpdate(config, "2001:db8:1:2::1")).status).toBe(200)
    expect((await sessionUpdate(config, "2001:db8:1:2:ffff:ffff:ffff:fffe")).status).toBe(200)
    expect((await sessionUpdate(config, "2001:0db8:0001:0002:abcd::9")).status).toBe(429)
    expect((await sessionUpdate(config, "2001:db8:1:3::1")).status).toBe(200)
    expect((await sessionUpdate(config, "::ffff:192.0.2.1")).status).toBe(200)
    expect((await sessionUpdate(config, "192.0.2.1")).status).toBe(200)
    expect((await sessionUpdate(config, "::ffff:c000:201")).status).toBe(429)
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2:0:0:0:0/64")
    expect(addressKey("2001:db8:1:2:aaaa::1", 56)).toBe("2001:db8:1:0:0:0:0:0/56")
    expect(addressKey("[2001:db8::1]")).toBe("2001:db8:0:0:0:0:0:0/64")
    expect(addressKey("203.0.113.7:51234")).toBe("203.0.113.7")
    for (const junk of ["", "1.2.3", "256.1.1.1", "01.2.3.4", "1::2::3", "g::1", "1:2:3:4:5:6:7:8:9"]) expect(addressKey(junk), junk).toBeUndefined()
  })

  it("trustedProxies off (the default): X-Forwarded-For is ignored, forging it gets nothing", async () => {
    const config = sessionApp({ store: memoryStore(), limits: { session: { ip: { max: 3, windowSeconds: 60 } } } })
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await sessionUpdate(config, "203.0.113.7", { "x-forwarded-for": `10.9.8.${i}` })).status)
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429])
  })

  it("trustedProxies: 1 believes the entry the proxy appended, not what the client prepended", async () => {
    const config = sessionApp({ store: memoryStore(), trustedProxies: 1, limits: { session: { ip: { max: 2, windowSeconds: 60 } } } })
    const proxy = "10.0.0.2"
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await sessionUpdate(config, proxy, { "x-forwarded-for": `198.51.100.${i}, 203.0.113.7` })).status)
    expect(statuses).toEqual([200, 200, 429, 429])
    // Another client behind the same proxy has its own budget.
    expect((await sessionUpdate(config, proxy, { "x-forwarded-for": "203.0.113.8" })).status).toBe(200)
    expect(clientAddress("10.0.0.2", "a, b, c", 2)).toBe("b")
    expect(clientAddress("10.0.0.2", "c", 3)).toBe("c")
    expect(clientAddress("10.0.0.2", null, 1)).toBe("10.0.0.2")
  })

  it("trustedProxies as CIDR ranges: the rightmost address outside them is the client", async () => {
    const config = sessionApp({ store: memoryStore(), trustedProxies: ["10.0.0.0/8", "fd00::/8"], limits: { session: { ip: { max: 1, windowSeconds: 60 } } } })
    expect((await sessionUpdate(config, "10.0.0.2", { "x-forwarded-for": "198.51.100.1, 203.0.113.7, 10.1.2.3, fd00::5" })).status).toBe(200)
    expect((await sessionUpdate(config, "10.0.0.2", { "x-forwarded-for": "9.9.9.9, 203.0.113.7, 10.1.2.3" })).status).toBe(429)
    // A peer outside the ranges is itself the client, whatever the header says.
    expect((await sessionUpdate(config, "192.0.2.50", { "x-forwarded-for": "203.0.113.99" })).status).toBe(200)
    expect((await sessionUpdate(config, "192.0.2.50", { "x-forwarded-for": "203.0.113.100" })).status).toBe(429)
    expect(() => parseCidrs(["10.0.0.0/33"])).toThrow(/rateLimit\.trustedProxies: "10\.0\.0\.0\/33" is not an IP address or CIDR range/)
  })

  it("without any address (no wrapper recorded one, no trusted proxy), only the identifier budgets apply, and a warning says so once", async () => {
    const warnings: string[] = []
    const app = credentialsApp({ store: memoryStore() })
    app.config.logger = { ...quiet, warn: (code) => void warnings.push(code) }
    const request = (username: string) => buildRequest(`${origin}/auth/callback/credentials`, { form: { username, password: "x" } })
    for (let i = 0; i < 40; i++) expect(verdictOf(await Auth(request(`sprayed${i}`), app.config))).toBe("refused")
    expect(warnings).toEqual(["rate-limit-client-unknown"])
  })

  it("authflow/node records the socket's peer address for the limiter", async () => {
    const events: RateLimitedMessage[] = []
    const config: AuthConfig = { ...sessionApp({ store: memoryStore(), limits: { session: { ip: { max: 0, windowSeconds: 60 } } } }), events: { rateLimited: (message) => void events.push(message) } }
    const server: Server = createServer(async (req, res) => sendWebResponse(res, await Auth(await toWebRequest(req, origin), config)))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const { port } = server.address() as AddressInfo
      const response = await fetch(`http://127.0.0.1:${port}/auth/session`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.1" }, body: "{}" })
      expect(response.status).toBe(429)
      expect(events).toEqual([{ route: "session", rule: "ip", ip: "127.0.0.1", retryAfter: 60 }])
    } finally {
      server.close()
    }
  })
})

describe("framework wrappers hand the client's address to the limiter", () => {
  it("SvelteKit's handle passes event.getClientAddress()", async () => {
    const events: RateLimitedMessage[] = []
    const { handle } = SvelteKitAuth(
      { secret: "rate-limit-test-secret", trustHost: true, skipCSRFCheck, logger: quiet, providers: [], rateLimit: { store: memoryStore(), limits: { session: { ip: { max: 0, windowSeconds: 60 } } } }, events: { rateLimited: (message) => void events.push(message) } },
      { env: {} },
    )
    const url = "http://app.test/auth/session"
    const request = new Request(url, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.1" }, body: "{}" })
    const event = { request, url: new URL(url), cookies: { get: () => undefined, set: () => {} }, locals: {}, getClientAddress: () => "192.0.2.77" } as unknown as RequestEvent
    const response = await handle({ event, resolve: () => new Response("app") })
    expect(response.status).toBe(429)
    expect(events).toEqual([{ route: "session", rule: "ip", ip: "192.0.2.77", retryAfter: 60 }])
  })
})

describe("a failing store", () => {
  it("fails open by default: the request goes on, and the error is logged", async () => {
    const app = credentialsApp({ store: brokenStore })
    expect(verdictOf(await attempt(app.config, { username: "bob", password: "builder" }))).toBe("signedIn")
    expect(app.errors.map((error) => (error as { type?: string }).type)).toContain("RateLimitStoreError")
    expect(String(app.errors[0]!.cause && (app.errors[0]!.cause as { err?: Error }).err?.message)).toContain("ECONNREFUSED")
  })

  it("fails closed when asked: the request is refused as RateLimited, and the error is logged", async () => {
    const app = credentialsApp({ store: brokenStore, onStoreError: "closed" })
    const response = await attempt(app.config, { username: "bob", password: "builder" })
    expect(verdictOf(response)).toBe("limited")
    expect(response.headers.get("retry-after")).toBe("60")
    expect(app.authorized).toEqual([])
    expect(app.errors.map((error) => (error as { type?: string }).type)).toEqual(["RateLimitStoreError", "RateLimited"])
    expect(app.events).toEqual([{ route: "credentials", rule: "store", ip: "203.0.113.7", retryAfter: 60 }])
  })

  it("a malformed option is refused with a message that says how to fix it", () => {
    expect(() => rateLimitOf({ rateLimit: { trustedProxies: -1 } })).toThrow(/rateLimit\.trustedProxies: give the number of proxies/)
    expect(() => rateLimitOf({ rateLimit: { limits: { email: { identifier: { max: 1.5, windowSeconds: 60 } } } } })).toThrow(/rateLimit\.limits\.email\.identifier: give \{ max/)
    expect(() => rateLimitOf({ rateLimit: { onStoreError: "maybe" as never } })).toThrow(/rateLimit\.onStoreError: give "open" or "closed"/)
    expect(() => memoryStore({ maxKeys: 0 })).toThrow(/maxKeys must be a positive integer/)
  })
})

describe("the memory store's bounds", () => {
  it("keeps at most maxKeys windows, drops none before it expires, and lets expired ones go", async () => {
    const store = memoryStore({ maxKeys: 100 })
    for (let i = 0; i < 1000; i++) await store.hit([{ key: `k${i}`, windowMs: 60_000, overflowKey: "k:overflow" }])
    // The windows made while there was room are kept, exact; the 900 keys that came once the store was full share one overflow window.
    expect(await store.hit([{ key: "k0", windowMs: 60_000, overflowKey: "k:overflow" }])).toEqual([{ count: 2, resetAt: expect.any(Number) }])
    expect(await store.hit([{ key: "k999", windowMs: 60_000, overflowKey: "k:overflow" }])).toEqual([{ count: 901, resetAt: expect.any(Number), countedAs: "k:overflow" }])
    // An expired window restarts from 1.
    const roomy = memoryStore({ maxKeys: 100 })
    await roomy.hit([{ key: "short", windowMs: 1 }])
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await roomy.hit([{ key: "short", windowMs: 1 }]))[0]!.count).toBe(1)
  })
})


const redisService = serviceGate(await redisProbe(), "Redis not reachable at 127.0.0.1:6379: start it (see CONTRIBUTING.md's Tests section) to run the shared rate-limit store tests")

describe.skipIf(redisService.skip)("the Redis store: limits shared by instances", () => {
  const clients: Redis[] = []
  const stores: { close(): Promise<void> }[] = []
  const prefix = `authflow:test:rl:${process.pid}:${Date.now()}:`
  const client = () => {
    const redis = redisClient()
    clients.push(redis)
    return redis
  }
  beforeAll(() => redisService.require())
  afterEach(async () => {
    const cleaner = client()
    const keys = await cleaner.keys(`${prefix}*`)
    if (keys.length) await cleaner.del(...keys)
  })
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()))
    clients.forEach((redis) => redis.disconnect())
  })

  it("two Auth() instances, 200 concurrent attempts between them: 5 reach authorize in all", async () => {
    const first = credentialsApp({ store: redisStore(client(), { prefix }) })
    const second = credentialsApp({ store: redisStore(client(), { prefix }) })
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => attempt(i % 2 ? first.config : second.config, { ip: `198.51.100.${i % 250}` })))
    expect(tally(responses.map(verdictOf))).toEqual({ refused: 5, limited: 195 })
    expect(first.authorized.length + second.authorized.length).toBe(5)
  })

  it("redisStore({ url }) opens its own connection; an address's budget holds across instances under load", async () => {
    const byUrl = redisStore({ url: "redis://127.0.0.1:6379", prefix })
    stores.push(byUrl)
    const first = credentialsApp({ store: byUrl })
    const second = credentialsApp({ store: redisStore(client(), { prefix }) })
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => attempt(i % 2 ? first.config : second.config, { username: `user${i}` })))
    expect(tally(responses.map(verdictOf))).toEqual({ refused: 30, limited: 170 })
    // The window's expiry is set once, by the first hit.
    const ttl = await client().pttl(`${prefix}ip:credentials:203.0.113.7`)
    expect(ttl).toBeGreaterThan(890_000)
    expect(ttl).toBeLessThanOrEqual(900_000)
  })

  it("a success takes its attempt back in Redis too, never below zero and never without an expiry", async () => {
    const app = credentialsApp({ store: redisStore(client(), { prefix }) })
    for (let i = 0; i < 10; i++) expect(verdictOf(await attempt(app.config, { username: "bob", password: "builder" }))).toBe("signedIn")
    const redis = client()
    const keys = await redis.keys(`${prefix}id:credentials:*`)
    expect(keys).toHaveLength(1)
    expect(await redis.get(keys[0]!)).toBe("0")
    expect(await redis.pttl(keys[0]!)).toBeGreaterThan(0)
    // A refund of a key that expired meanwhile creates nothing.
    await redis.del(keys[0]!)
    await redisStore(redis, { prefix }).refund(["id:credentials:gone"])
    expect(await redis.exists(`${prefix}id:credentials:gone`)).toBe(0)
  })

  it("a Redis that is down: fail open logs and lets the request through; fail closed refuses it", async () => {
    const down = new Redis({ host: "127.0.0.1", port: 6399, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false })
    down.on("error", () => {})
    clients.push(down)
    const open = credentialsApp({ store: redisStore(down, { prefix }) })
    expect(verdictOf(await attempt(open.config, { username: "bob", password: "builder" }))).toBe("signedIn")
    expect(open.errors.map((error) => (error as { type?: string }).type)).toContain("RateLimitStoreError")
    const closed = credentialsApp({ store: redisStore(down, { prefix }), onStoreError: "closed" })
    expect(verdictOf(await attempt(closed.config, { username: "bob", password: "builder" }))).toBe("limited")
    expect(closed.authorized).toEqual([])
  })
})
