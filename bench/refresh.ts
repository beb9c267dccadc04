/**
 * Access-token refresh against a real oidc-provider (refresh-token rotation on): how many refresh
 * grants the provider sees when N session reads of one due session arrive at once (one instance;
 * two instances sharing Redis, JWT sessions; database sessions), three rounds each; and what keeping
 * provider tokens costs a session read while they are fresh (paired ratio against the same read
 * without them, measured in the same run).
 *
 *   npm run bench:refresh
 */
import { randomUUID } from "node:crypto"
import { Redis } from "ioredis"
import { Auth, redisRefreshStore } from "../src/index.js"
import { MemoryAdapter } from "../src/adapters/memory.js"
import { decode, encode } from "../src/jwt.js"
import { tokensClaim } from "../src/actions/token-refresh.js"
import type { AuthConfig, RefreshOptions } from "../src/types.js"
import { loginAtProvider, startOidcProvider } from "../demo/oidc-provider.js"
import { compare, pairedRatio, row } from "./measure.js"

const secret = "bench-refresh-secret-0123456789abcdef"
const origin = "https://bench.test"
const sessionCookie = "__Secure-authjs.session-token"
const rounds = 3

const op = await startOidcProvider({
  clients: [{ client_id: "app", client_secret: "app-secret", grant_types: ["authorization_code", "refresh_token"], redirect_uris: [`${origin}/auth/callback/op`] }],
  configuration: {
    ttl: { AccessToken: 600, IdToken: 600, RefreshToken: 3600, Grant: 3600, Session: 3600, Interaction: 600 },
    issueRefreshToken: () => true,
    rotateRefreshToken: () => true,
  },
})
let grants = 0
let refused = 0
op.provider.on("grant.success", (ctx) => void (ctx.oidc.params?.grant_type === "refresh_token" && grants++))
op.provider.on("grant.error", (ctx) => void (ctx.oidc.params?.grant_type === "refresh_token" && refused++))

const provider = { id: "op", name: "OP", type: "oidc", issuer: op.issuer, clientId: "app", clientSecret: "app-secret" }
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }
const config = (more: Partial<AuthConfig> = {}): AuthConfig & { refresh: RefreshOptions } =>
  ({ secret, trustHost: true, logger: quiet, providers: [provider], refresh: { skew: 60 }, ...more }) as never

/** Cookies as a browser keeps them. */
class Jar {
  readonly cookies = new Map<string, string>()
  take(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(";")[0]!
      const value = pair.slice(pair.indexOf("=") + 1)
      if (/max-age=0/i.test(header) || value === "") this.cookies.delete(pair.slice(0, pair.indexOf("=")))
      else this.cookies.set(pair.slice(0, pair.indexOf("=")), value)
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
}

async function send(authConfig: AuthConfig, jar: Jar, path: string, form?: Record<string, string>): Promise<Response> {
  const headers = new Headers({ cookie: jar.header() })
  if (form) headers.set("content-type", "application/x-www-form-urlencoded")
  const url = path.startsWith("http") ? path : `${origin}/auth${path}`
  const response = await Auth(new Request(url, { method: form ? "POST" : "GET", headers, ...(form && { body: new URLSearchParams(form) }) }), authConfig)
  jar.take(response)
  return response
}

async function signIn(authConfig: AuthConfig): Promise<Jar> {
  const jar = new Jar()
  const { csrfToken } = (await (await send(authConfig, jar, "/csrf")).json()) as { csrfToken: string }
  const start = await send(authConfig, jar, "/signin/op", { csrfToken, callbackUrl: "/" })
  await send(authConfig, jar, (await loginAtProvider(start.headers.get("location")!, `user-${randomUUID()}`)).href)
  return jar
}

/** N reads at once of one due session, spread over the instances: the grants the provider saw, and the reads that came back without an error. */
async function burst(instances: (AuthConfig & { refresh: RefreshOptions })[], n: number): Promise<{ grants: number; refused: number; clean: number; ms: number }> {
  const jar = await signIn(instances[0]!)
  for (const instance of instances) instance.refresh.skew = 3600 // every token is due
  const before = { grants, refused }
  const start = performance.now()
  const sessions = await Promise.all(
    Array.from({ length: n }, async (_, index) => {
      const copy = new Jar()
      for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
      return (await (await send(instances[index % instances.length]!, copy, "/session")).json()) as { error?: string; user?: unknown } | null
    }),
  )
  const ms = performance.now() - start
  for (const instance of instances) instance.refresh.skew = 60
  return { grants: grants - before.grants, refused: refused - before.refused, clean: sessions.filter((session) => session?.user && !session.error).length, ms }
}

const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null })
const redisUp = await redis.connect().then(
  () => true,
  () => false,
)
const scenarios: [string, () => (AuthConfig & { refresh: RefreshOptions })[]][] = [
  ["JWT sessions, one instance", () => [config()]],
  ["database sessions (memory adapter), one instance", () => [config({ adapter: MemoryAdapter(), session: { strategy: "database" } })]],
]
if (redisUp) {
  scenarios.push([
    "JWT sessions, two instances sharing Redis",
    () => {
      const prefix = `authflow:bench:refresh:${randomUUID()}:`
      return [config({ refresh: { skew: 60, store: redisRefreshStore(redis, { prefix }) } } as never), config({ refresh: { skew: 60, store: redisRefreshStore(redis, { prefix }) } } as never)]
    },
  ])
} else console.log("Redis not reachable at 127.0.0.1:6379: the two-instance scenario is skipped")

console.log(`refresh grants at the provider per burst of N concurrent reads of one due session (${rounds} rounds)`)
for (const [label, make] of scenarios) {
  for (const n of [1, 20, 100]) {
    const results = []
    for (let round = 0; round < rounds; round++) results.push(await burst(make(), n))
    const grantsSeen = results.map((result) => result.grants).join(", ")
    const clean = results.map((result) => `${result.clean}/${n}`).join(", ")
    const ms = results.map((result) => result.ms.toFixed(0)).join(", ")
    console.log(`  ${label.padEnd(50)} N=${String(n).padEnd(4)} grants: ${grantsSeen}   refused: ${results.map((r) => r.refused).join(", ")}   clean sessions: ${clean}   burst ms: ${ms}`)
  }
}

// A fresh session read: the same JWT with and without the provider tokens, refresh on.
const jar = await signIn(config())
const withTokens = jar.cookies.get(sessionCookie)!
const payload = (await decode({ token: withTokens, secret, salt: sessionCookie }))!
delete payload[tokensClaim]
const withoutTokens = await encode({ token: payload, secret, salt: sessionCookie })
const readConfig = config()
const refreshOff = { ...config(), refresh: false } as AuthConfig
const read = (token: string, authConfig: AuthConfig) => () => Auth(new Request(`${origin}/auth/session`, { headers: { cookie: `${sessionCookie}=${token}` } }), authConfig)
console.log("\nGET /session while the provider tokens are fresh (no grant), 3 runs")
for (let run = 1; run <= 3; run++) {
  const timings = await compare(
    [
      { name: "tokens", run: read(withTokens, readConfig), iterations: 200 },
      { name: "tokens, refresh off", run: read(withTokens, refreshOff), iterations: 200 },
      { name: "plain", run: read(withoutTokens, readConfig), iterations: 200 },
    ],
    { rounds: 9, warmup: 100 },
  )
  console.log(`run ${run}`)
  console.log(row("  session JWT with provider tokens, refresh on", timings.median.get("tokens")!, `  ${pairedRatio(timings, "tokens", "plain").toFixed(2)}× the plain read`))
  console.log(row("  the same JWT, refresh off (the claim only carried)", timings.median.get("tokens, refresh off")!, `  ${pairedRatio(timings, "tokens, refresh off", "plain").toFixed(2)}×`))
  console.log(row("  the same session without provider tokens", timings.median.get("plain")!))
}

redis.disconnect()
await op.close()
