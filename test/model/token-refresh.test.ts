/**
 * The token-refresh machine, driven through `Auth()`: every path the model generates becomes one
 * GET /session of a JWT session whose cookie carries provider tokens (database session for the path
 * where the account row vanishes), with the outside world scripted from the path's events: the
 * refresh store (who holds the claim, what it published) and the provider's token endpoint (through
 * the provider's `customFetch`). Each path asserts what the user sees and what the provider got.
 */
import { afterAll, describe, expect, it } from "vitest"
import { tokenRefreshMachine, type ProviderTokens, type RefreshResult, type TokenRefreshEvent } from "../../src/machines/token-refresh.js"
import { customFetch } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { encode, decode } from "../../src/jwt.js"
import { refreshKey, sealResult, type RefreshClaim, type RefreshStore } from "../../src/core/refresh-store.js"
import { tokensClaim } from "../../src/actions/token-refresh.js"
import { coverageReport } from "../../src/testing/coverage.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { CookieJar, cookieNames, recordingLogger, send } from "../helpers.js"

const secret = "model-refresh-secret"
const sessionCookie = cookieNames.https.sessionToken
const skew = 60
/** The model's clock: `tokens.loaded` events carry `now: 1000`; the scenarios shift them to the real clock. */
const modelNow = 1000
const oldTokens = { access_token: "at-1", refresh_token: "rt-1", token_type: "bearer" }
const joinedTokens: ProviderTokens = { access_token: "at-joined", refresh_token: "rt-joined", expires_at: 5000, token_type: "bearer" }

/** Payload-carrying events: each is one way the world can answer an effect. */
const events: TokenRefreshEvent[] = [
  { type: "tokens.loaded", tokens: { ...oldTokens, expires_at: modelNow + 3600 }, now: modelNow },
  { type: "tokens.loaded", tokens: { ...oldTokens, expires_at: modelNow + 10 }, now: modelNow },
  { type: "tokens.loaded", tokens: { access_token: "at-1", expires_at: modelNow + 10 }, now: modelNow },
  { type: "claim.joined", result: { tokens: joinedTokens } },
  { type: "claim.joined", result: { failure: "revoked" } },
  { type: "claim.failed", error: "refresh store down" },
  { type: "winner.done", result: { tokens: joinedTokens } },
  { type: "winner.done", result: { failure: "unavailable" } },
  { type: "grant.answered", tokens: { access_token: "at-2", refresh_token: "rt-2", expires_at: modelNow + 3600 } },
  { type: "grant.failed", error: { error: "invalid_grant", error_description: "grant revoked" } },
  { type: "grant.failed", error: new TypeError("fetch failed: provider down") },
  { type: "persist.failed", error: "refresh store down" },
]

const tokenEndpoint = "https://op.test/token"

/** The real configuration and world that make the engine meet exactly these events. */
function scenario(path: TokenRefreshEvent[]) {
  const byType = (type: string) => path.filter((event) => event.type === type)
  const loaded = path.find((event) => event.type === "tokens.loaded") as Extract<TokenRefreshEvent, { type: "tokens.loaded" }> | undefined
  const realNow = Math.floor(Date.now() / 1000)
  const entry: ProviderTokens | undefined = loaded && { ...loaded.tokens, expires_at: loaded.tokens.expires_at! - modelNow + realNow }
  const key = refreshKey(oldTokens.refresh_token)
  const seal = (result: RefreshResult) => sealResult(oldTokens.refresh_token, result)

  // The refresh store answers claims and reads as the path says.
  const claims = path.filter((event) => event.type.startsWith("claim."))
  const winners = path.filter((event) => event.type.startsWith("winner."))
  const published: string[] = []
  const store: RefreshStore = {
    async claim(claimed) {
      expect(claimed).toBe(key)
      const next = claims.shift()
      if (next?.type === "claim.failed") throw new Error("refresh store down")
      if (next?.type === "claim.busy") return { state: "busy" }
      if (next?.type === "claim.joined") return { state: "done", result: await seal(next.result) }
      return { state: "won" }
    },
    async read(): Promise<RefreshClaim | undefined> {
      const next = winners.shift()
      if (next?.type === "winner.done") return { state: "done", result: await seal(next.result) }
      return undefined
    },
    async publish(_key, result) {
      if (byType("persist.failed").length && !published.length) throw new Error("refresh store down")
      published.push(result)
    },
  }

  // The provider's token endpoint answers the refresh grant as the path says.
  const grantRequests: URLSearchParams[] = []
  const granted = byType("grant.answered").length > 0
  const failed = byType("grant.failed")[0] as Extract<TokenRefreshEvent, { type: "grant.failed" }> | undefined
  const tokenFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input)
    expect(url).toBe(tokenEndpoint)
    grantRequests.push(new URLSearchParams(String(init?.body)))
    if (failed && !(failed.error instanceof Error)) return Response.json({ error: "invalid_grant", error_description: "grant revoked" }, { status: 400 })
    if (failed) throw new TypeError("fetch failed: provider down")
    expect(granted).toBe(true)
    return Response.json({ access_token: "at-2", refresh_token: "rt-2", token_type: "Bearer", expires_in: 3600 }, { headers: { "cache-control": "no-store" } })
  }) as typeof fetch

  const refreshFailures: { reason: string }[] = []
  const refreshed: unknown[] = []
  const missing = byType("tokens.missing").length > 0
  const memory = MemoryAdapter()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    refresh: { skew, store },
    providers: [
      {
        id: "op",
        name: "OP",
        type: "oauth",
        clientId: "model-client",
        clientSecret: "model-secret",
        authorization: "https://op.test/authorize",
        token: tokenEndpoint,
        userinfo: "https://op.test/userinfo",
        [customFetch]: tokenFetch,
      } as never,
    ],
    events: { tokenRefreshFailed: (message) => void refreshFailures.push(message), tokenRefreshed: (message) => void refreshed.push(message) },
    ...(missing && {
      session: { strategy: "database" as const },
      // The account row vanishes between the listing and the load (unlinked meanwhile).
      adapter: { ...memory, getAccount: async () => null },
    }),
  }

  /** A browser holding a session with the scripted tokens. */
  async function browser(): Promise<CookieJar> {
    const jar = new CookieJar()
    if (missing) {
      const user = await memory.createUser({ id: "", name: "Ada", email: "ada@example.test", emailVerified: null })
      await memory.linkAccount({ userId: user.id, provider: "op", providerAccountId: "ada", type: "oauth", ...oldTokens, expires_at: realNow + 10 } as never)
      await memory.createSession({ sessionToken: "session-1", userId: user.id, expires: new Date(Date.now() + 60_000) })
      jar.cookies.set(sessionCookie, "session-1")
      return jar
    }
    const token = { name: "Ada", email: "ada@example.test", sub: "u1", [tokensClaim]: { op: entry } }
    jar.cookies.set(sessionCookie, await encode({ token, secret, salt: sessionCookie }))
    return jar
  }
  return { config, browser, grantRequests, published, refreshFailures, refreshed, entry }
}

async function cookieTokens(jar: CookieJar): Promise<ProviderTokens | undefined> {
  const token = await decode({ token: jar.get(sessionCookie)!, secret, salt: sessionCookie })
  return (token?.[tokensClaim] as Record<string, ProviderTokens> | undefined)?.op
}

const recorder = new TransitionRecorder([tokenRefreshMachine])
// The path where the account row vanishes: the model derives `tokens.missing` (it has no payload).
const paths = modelPaths(tokenRefreshMachine, events, { inputs: [{ skew }] })

describe("token-refresh machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["fresh", "joined", "persisted", "failed", "absent"]))
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = scenario(path.events)
      const { logger, errors } = recordingLogger()
      const jar = await s.browser()
      recorder.reset()
      const response = await send({ ...s.config, logger, inspect: recorder.inspect }, jar, "/session")
      expect(recorder.runs.map((run) => run.states)).toEqual([path.states])
      expect(response.status).toBe(200)
      const session = (await response.json()) as Session
      // Whatever happened to the tokens, the user stays signed in.
      expect(session.user).toMatchObject({ name: "Ada", email: "ada@example.test" })
      const own = !path.events.some((event) => event.type === "claim.joined" || event.type === "winner.done")
      switch (path.finalState) {
        case "fresh":
          expect(session.error).toBeUndefined()
          expect(s.grantRequests).toHaveLength(0)
          expect(await cookieTokens(jar)).toEqual(s.entry)
          break
        case "absent":
          expect(session.error).toBeUndefined()
          expect(s.grantRequests).toHaveLength(0)
          break
        case "joined":
          // The winner's tokens, without a grant of this request's own.
          expect(session.error).toBeUndefined()
          expect(s.grantRequests).toHaveLength(0)
          expect(await cookieTokens(jar)).toEqual(joinedTokens)
          expect(s.refreshed).toHaveLength(0)
          break
        case "persisted": {
          expect(session.error).toBeUndefined()
          expect(s.grantRequests).toHaveLength(1)
          expect(Object.fromEntries(s.grantRequests[0]!)).toMatchObject({ grant_type: "refresh_token", refresh_token: "rt-1" })
          const tokens = await cookieTokens(jar)
          expect(tokens).toMatchObject({ access_token: "at-2", refresh_token: "rt-2", token_type: "bearer" })
          expect(tokens!.expires_at! - Math.floor(Date.now() / 1000)).toBeGreaterThan(3500)
          expect(s.published).toHaveLength(1)
          expect(s.refreshed).toEqual([expect.objectContaining({ provider: "op", userId: "u1" })])
          break
        }
        case "failed":
          expect(session.error).toBe("RefreshTokenError")
          // Never the stale tokens as if they were fine, never tokens that were not granted.
          if (!path.events.some((event) => event.type === "tokens.missing")) expect(await cookieTokens(jar)).toEqual(s.entry)
          expect(s.refreshFailures).toHaveLength(own ? 1 : 0)
          expect(errors.map((error) => (error as { type?: string }).type)).toEqual(own ? ["RefreshTokenError"] : [])
          if (path.events.some((event) => event.type === "grant.failed")) {
            expect(s.grantRequests).toHaveLength(1)
            // The failure is published briefly, so a burst of reads does not ask a failing provider again.
            expect(s.published).toHaveLength(1)
          }
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
    })
  }

  afterAll(() => {
    const { line, missing } = coverageReport(tokenRefreshMachine, recorder)
    console.log(line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
