/**
 * The token-refresh machine, driven through `Auth()`: every path the model generates becomes one
 * GET /session, of a JWT session whose cookie carries the provider tokens (the refresh store is
 * the lock) or of a database session whose account row holds them (the row is the lock), with the
 * outside world scripted from the path's events: what the refresh store, the account row and the
 * provider's token endpoint (through the provider's `customFetch`) answer, each answer given to
 * the state whose effect asks. A path that joins a refresh already running in the process gets a
 * real one to join: a first read of the same session, held at the token endpoint until the path's
 * read has joined it. Each path asserts what the user sees, what the provider got, and who reported
 * the refresh.
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { getInitialSnapshot, type InspectionEvent, type SnapshotFrom } from "xstate"
import { finalAtStart } from "../../src/machines/eventless.js"
import { tokenRefreshContext, tokenRefreshMachine, type ProviderTokens, type RefreshResult, type TokenRefreshEvent, type TokenRefreshInput } from "../../src/machines/token-refresh.js"
import { customFetch } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { encode, decode } from "../../src/jwt.js"
import type { RefreshClaim, RefreshStore } from "../../src/core/refresh-store.js"
import { sealResult } from "../../src/core/refresh-result.js"
import { parseRowClaim, rowClaimMarker } from "../../src/core/row-claim.js"
import { tokensClaim } from "../../src/actions/token-refresh.js"
import { coverageReport } from "../../src/testing/coverage.js"
import { modelPaths, type ModelPath } from "../../src/testing/model-paths.js"
import { stateName } from "../../src/testing/transitions.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { CookieJar, cookieNames, recordingLogger, send } from "../helpers.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// Each test drives the machine, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/token-refresh.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("token-refresh", await load()))
loadMachinesPerTest("token-refresh")

const secret = "model-refresh-secret"
const sessionCookie = cookieNames.https.sessionToken
const skew = 60
/** The model's clock (epoch ms) and claim time: the scenarios move both to the real clock. */
const modelAt = 1_000_000
const modelClaimMs = 1_000
const modelSeconds = modelAt / 1000
/** A claim marker of the model: live far beyond any wait, or expired. */
const marker = (until: number) => rowClaimMarker("rt-1", until, "0123abcd")
const liveMarker = marker(modelAt + 100 * modelClaimMs)
const expiredMarker = marker(modelAt - 1)

const old = { access_token: "at-1", token_type: "bearer" }
const freshTokens: ProviderTokens = { ...old, refresh_token: "rt-1", expires_at: modelSeconds + 3600 }
const dueTokens: ProviderTokens = { ...old, refresh_token: "rt-1", expires_at: modelSeconds + 10 }
const noRefreshToken: ProviderTokens = { ...old, expires_at: modelSeconds + 10 }
const otherTokens: ProviderTokens = { access_token: "at-other", refresh_token: "rt-other", expires_at: modelSeconds + 5000, token_type: "bearer" }
const grantedTokens = { access_token: "at-2", refresh_token: "rt-2", token_type: "bearer" }

const base = { skew, at: modelAt, claimMs: modelClaimMs }
/** The sessions a read can start with: none, fresh, due or without a refresh token in the JWT; a fresh or due account row as listed. */
const inputs: TokenRefreshInput[] = [
  { ...base, lock: "store" },
  { ...base, lock: "store", tokens: freshTokens },
  { ...base, lock: "store", tokens: dueTokens },
  { ...base, lock: "store", tokens: noRefreshToken },
  { ...base, lock: "row", tokens: freshTokens },
  { ...base, lock: "row", tokens: dueTokens },
]

/** Payload-carrying events, by the state that meets them: each is one way the world can answer. */
function events(snapshot: SnapshotFrom<typeof tokenRefreshMachine>): TokenRefreshEvent[] {
  const state = stateName(snapshot.value)
  const { waitingSince } = snapshot.context
  const list: TokenRefreshEvent[] = [
    { type: "row.failed", error: new Error("account store down") },
    { type: "run.settled", result: { tokens: otherTokens } },
    { type: "run.settled", result: { failure: "revoked" } },
    { type: "claim.done", result: { tokens: otherTokens } },
    { type: "claim.done", result: { failure: "revoked" } },
    // A result that does not open (not sealed with this refresh token).
    { type: "claim.done" },
    { type: "claim.failed", error: new Error("store down") },
    { type: "backOff.found", failure: "revoked" },
    { type: "claim.swapped", claimToken: marker(modelAt + modelClaimMs) },
    { type: "winner.done", result: { tokens: otherTokens } },
    { type: "winner.done", result: { failure: "unavailable" } },
    { type: "winner.busy", at: modelAt },
    { type: "winner.gone", at: modelAt },
    { type: "grant.answered", tokens: { ...grantedTokens, expires_at: modelSeconds + 3600 } },
    { type: "grant.failed", error: { error: "invalid_grant", error_description: "grant revoked" } },
    { type: "grant.failed", error: new TypeError("fetch failed: provider down") },
    { type: "persist.failed", error: new Error("store down") },
  ]
  const rowReads = [liveMarker, expiredMarker].map((refresh_token) => ({ ...dueTokens, refresh_token }))
  // The row as loaded: fresh (refreshed meanwhile), due, without a refresh token, claimed by a live or an expired marker.
  if (state === "loadingTokens") list.push(...[freshTokens, dueTokens, noRefreshToken, ...rowReads].map((tokens) => ({ type: "row.read" as const, tokens, at: modelAt })))
  if (state.includes("rereadingRow")) list.push(...[rowReads[0]!, otherTokens, dueTokens].map((tokens) => ({ type: "row.read" as const, tokens, at: modelAt })))
  if (state.includes("awaitingWinner")) {
    list.push(...[...rowReads, otherTokens, dueTokens].map((tokens) => ({ type: "row.read" as const, tokens, at: modelAt })))
    // The wait outlasts a claim: the holder still holds it (busy, a live marker) a claim time later.
    if (waitingSince !== undefined) list.push({ type: "winner.busy", at: waitingSince + modelClaimMs }, { type: "row.read", tokens: rowReads[0]!, at: waitingSince + modelClaimMs })
  }
  return list
}

// Each lock has its own world: a path of one lock that meets an answer only the other gives is no path.
const storeOnly = new Set(["claim.won", "claim.busy", "claim.done", "winner.busy", "winner.done"])
const rowOnly = new Set(["row.failed", "backOff.found", "backOff.none", "claim.swapped", "claim.lost", "row.read", "row.missing", "persist.lost"])
const lockOf = (path: ModelPath<TokenRefreshEvent>) => (path.input as TokenRefreshInput).lock ?? "store"
const paths = modelPaths(tokenRefreshMachine, events, { inputs }).filter((path) => path.events.every((event) => !(lockOf(path) === "row" ? storeOnly : rowOnly).has(event.type)))

/** The states a path goes through as a recorder sees them (a transition that stays in its state is not a new one). */
const visited = (states: string[]) => states.filter((state, index) => state !== states[index - 1])

/** Whether a path's event at `index` ends a wait because it lasted longer than a claim (not because of what the answer says). */
function waitsOut(path: ModelPath<TokenRefreshEvent>, index: number): boolean {
  const event = path.events[index]!
  const over = path.transitions[index]!.some((key) => /awaitingWinner:(winner\.busy:[01]|row\.read:[23])$/.test(key))
  return over && (event.type === "winner.busy" || (event.type === "row.read" && parseRowClaim(event.tokens.refresh_token)!.until > event.at))
}

const tokenEndpoint = "https://op.test/token"
const provider = { id: "op", name: "OP", type: "oauth", clientId: "model-client", clientSecret: "model-secret", authorization: "https://op.test/authorize", token: tokenEndpoint, userinfo: "https://op.test/userinfo" }

/**
 * The model's tokens on the real clock of a path (moved once, when the path starts: the same model
 * tokens are the same tokens all along): expiry shifted by as much as the clock, a marker live or
 * expired as it is in the model.
 */
function onRealClock(tokens: ProviderTokens, nowMs: number): ProviderTokens {
  const moved: ProviderTokens = { ...tokens }
  if (typeof tokens.expires_at === "number") moved.expires_at = tokens.expires_at - modelSeconds + Math.floor(nowMs / 1000)
  const claim = parseRowClaim(tokens.refresh_token)
  if (claim) moved.refresh_token = rowClaimMarker(claim.refreshToken, claim.until > modelAt ? nowMs + 60_000 : nowMs - 1_000, "0123abcd")
  return moved
}

const seal = (result: RefreshResult) => sealResult("rt-1", result)

/** The real configuration and world that make the engine meet exactly the path's events. */
function scenario(path: ModelPath<TokenRefreshEvent>) {
  const input = path.input as TokenRefreshInput
  const startedAt = Date.now()
  const real = (tokens: ProviderTokens) => onRealClock(tokens, startedAt)
  const lock = lockOf(path)
  const joinsRun = path.events.some((event) => event.type === "run.running")
  const settledWith = (path.events.find((event) => event.type === "run.settled") as Extract<TokenRefreshEvent, { type: "run.settled" }> | undefined)?.result

  // The answers of each state's effect, in the path's order. A wait the path outlasts keeps its
  // answer (the holder still holds the claim) until the flow stops waiting.
  const answers = new Map<string, { event: TokenRefreshEvent; sticky: boolean }[]>()
  path.events.forEach((event, index) => {
    const state = path.states[index]!
    if (!answers.has(state)) answers.set(state, [])
    answers.get(state)!.push({ event, sticky: waitsOut(path, index) })
  })
  const waiting = stateName({ refreshing: "awaitingWinner" })
  /** Where the read under test is (its effect is the one asking): seen through the inspector. */
  let current = ""
  let retries = Infinity
  const observe = (event: InspectionEvent) => {
    if (event.type !== "@xstate.snapshot" || (event.snapshot as { machine?: { id?: string } }).machine?.id !== "token-refresh") return
    const snapshot = event.snapshot as SnapshotFrom<typeof tokenRefreshMachine>
    const next = stateName(snapshot.value)
    // The wait it outlasted is over: the flow went on, or claimed again (and may wait again).
    const over = (current === waiting && next !== waiting) || snapshot.context.retries < retries
    if (over && answers.get(waiting)?.[0]?.sticky) answers.get(waiting)!.shift()
    current = next
    retries = snapshot.context.retries
  }
  /** Who is asking: the read under test, or (on a path that joins a running refresh) the first read it joins. */
  const world = { leading: false }
  function answer(...types: TokenRefreshEvent["type"][]): TokenRefreshEvent {
    const queue = answers.get(current)
    const next = queue?.[0]
    if (!next || !types.includes(next.event.type)) throw new Error(`the path has no answer (${types.join(" | ")}) for ${current}: ${JSON.stringify(queue?.map((a) => a.event.type))}`)
    if (!next.sticky) queue!.shift()
    return next.event
  }

  // The first read of a path that joins a running refresh: it wins every claim and is held at the
  // token endpoint until the path's read has joined it, then ends as the path's read sees it end.
  let open = () => {}
  const gate = { promise: new Promise<void>((resolve) => (open = resolve)), resolve: () => open() }
  const leaderTokens = () => real(dueTokens)

  const published: string[] = []
  const store: RefreshStore = {
    async claim() {
      if (world.leading) return { state: "won" }
      const event = answer("claim.won", "claim.busy", "claim.done", "claim.failed")
      if (event.type === "claim.failed") throw new Error("refresh store down")
      if (event.type === "claim.busy") return { state: "busy" }
      if (event.type === "claim.done") return { state: "done", result: event.result ? await seal(event.result) : "not-a-sealed-result" }
      return { state: "won" }
    },
    async read(key): Promise<RefreshClaim | undefined> {
      if (world.leading) return undefined
      if (key.startsWith("failed:")) {
        const event = answer("backOff.found", "backOff.none", "claim.failed")
        if (event.type === "claim.failed") throw new Error("refresh store down")
        return event.type === "backOff.found" ? { state: "done", result: await seal({ failure: event.failure }) } : undefined
      }
      const event = answer("winner.busy", "winner.done", "winner.gone")
      if (event.type === "winner.busy") return { state: "busy" }
      if (event.type === "winner.done") return { state: "done", result: event.result ? await seal(event.result) : "not-a-sealed-result" }
      return undefined
    },
    async publish(_key, result) {
      if (!world.leading && current === stateName({ refreshing: "granted" })) {
        if (answer("persist.done", "persist.failed").type === "persist.failed") throw new Error("refresh store down")
      }
      published.push(result)
    },
  }

  const memory = MemoryAdapter()
  const compareAndSets: { expected: string; tokens: ProviderTokens }[] = []
  const adapter: Adapter = {
    ...memory,
    async getAccount() {
      const event = world.leading ? ({ type: "row.read", tokens: dueTokens, at: modelAt } as const) : answer("row.read", "row.missing", "row.failed", "winner.gone")
      if (event.type === "row.failed") throw new Error("account store down")
      if (event.type !== "row.read") return null
      const tokens = world.leading ? leaderTokens() : real(event.tokens)
      return { provider: "op", providerAccountId: "ada", userId: "u1", type: "oauth", ...tokens } as never
    },
    async updateAccountTokens(_account, expected, tokens) {
      compareAndSets.push({ expected, tokens: tokens as ProviderTokens })
      if (world.leading || current === stateName({ refreshing: "releasing" })) return true
      const event = answer("claim.swapped", "claim.lost", "claim.failed", "persist.done", "persist.lost", "persist.failed")
      if (event.type === "claim.failed" || event.type === "persist.failed") throw new Error("account store down")
      return event.type === "claim.swapped" || event.type === "persist.done"
    },
  }

  // The provider's token endpoint answers the refresh grant as the path says.
  const grantRequests: URLSearchParams[] = []
  const tokenFetch = (async (request: string | URL | Request, init?: RequestInit) => {
    expect(request instanceof Request ? request.url : String(request)).toBe(tokenEndpoint)
    grantRequests.push(new URLSearchParams(String(init?.body)))
    let event: TokenRefreshEvent
    if (world.leading) {
      await gate.promise
      event = settledWith && "tokens" in settledWith ? { type: "grant.answered", tokens: grantedTokens } : { type: "grant.failed", error: { error: "invalid_grant" } }
    } else {
      event = answer("grant.answered", "grant.failed")
    }
    if (event.type === "grant.failed" && !(event.error instanceof Error)) return Response.json({ error: "invalid_grant", error_description: "grant revoked" }, { status: 400 })
    if (event.type === "grant.failed") throw new TypeError("fetch failed: provider down")
    return Response.json({ ...grantedTokens, token_type: "Bearer", expires_in: 3600 }, { headers: { "cache-control": "no-store" } })
  }) as typeof fetch

  const refreshFailures: { reason: string }[] = []
  const refreshed: unknown[] = []
  const outlasts = path.events.some((_, index) => waitsOut(path, index))
  const config: AuthConfig = {
    secret,
    trustHost: true,
    // A path that outlasts a claim waits for a short one.
    refresh: { skew, store, claimTimeout: outlasts ? 0.2 : 30 },
    providers: [{ ...provider, [customFetch]: tokenFetch } as never],
    events: { tokenRefreshFailed: (message) => void refreshFailures.push(message), tokenRefreshed: (message) => void refreshed.push(message) },
    ...(lock === "row" && { session: { strategy: "database" as const }, adapter }),
  }

  /** A browser holding a session with the path's tokens: in the JWT, or in the listed account row. */
  async function browser(): Promise<CookieJar> {
    const jar = new CookieJar()
    if (lock === "row") {
      const user = await memory.createUser({ id: "", name: "Ada", email: "ada@example.test", emailVerified: null })
      await memory.linkAccount({ userId: user.id, provider: "op", providerAccountId: "ada", type: "oauth", ...real(input.tokens!) } as never)
      await memory.createSession({ sessionToken: "session-1", userId: user.id, expires: new Date(Date.now() + 60_000) })
      jar.cookies.set(sessionCookie, "session-1")
      return jar
    }
    const token = { name: "Ada", email: "ada@example.test", sub: "u1", [tokensClaim]: { op: input.tokens ? real(input.tokens) : null } }
    jar.cookies.set(sessionCookie, await encode({ token, secret, salt: sessionCookie }))
    return jar
  }
  return { config, observe, world, gate, joinsRun, settledWith, browser, grantRequests, compareAndSets, published, refreshFailures, refreshed, lock }
}

async function cookieTokens(jar: CookieJar): Promise<ProviderTokens | undefined> {
  const token = await decode({ token: jar.get(sessionCookie)!, secret, salt: sessionCookie })
  return (token?.[tokensClaim] as Record<string, ProviderTokens> | undefined)?.op
}

const recorder = new TransitionRecorder([tokenRefreshMachine])

describe("token-refresh machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["fresh", "joined", "joinedFailure", "persisted", "failed", "absent"]))
  })

  it("with nobody inspecting, the start is decided without an actor, as the actor decides it", () => {
    for (const input of inputs) {
      const started = getInitialSnapshot(tokenRefreshMachine, input)
      const decided = finalAtStart(tokenRefreshMachine, tokenRefreshContext(input))
      // Fresh tokens and no tokens end at the start; a start with actions (no refresh token) or work to do runs the flow.
      expect(decided, JSON.stringify(input)).toBe(started.status === "done" && started.value !== "failed" ? started.value : undefined)
    }
    expect(finalAtStart(tokenRefreshMachine, tokenRefreshContext({ ...base, tokens: freshTokens }))).toBe("fresh")
    expect(finalAtStart(tokenRefreshMachine, tokenRefreshContext({ ...base, tokens: dueTokens }))).toBeUndefined()
  })

  for (const path of paths) {
    it(`${lockOf(path)}, ${path.description || "nothing to do"} ⇒ ${path.finalState}`, async () => {
      const s = scenario(path)
      const { logger, errors } = recordingLogger()
      const jar = await s.browser()
      recorder.reset()
      const inspect = (event: InspectionEvent) => {
        recorder.inspect(event)
        s.observe(event)
      }
      const config = { ...s.config, logger, inspect }
      let leader: Promise<Response> | undefined
      if (s.joinsRun) {
        // A first read leads the refresh and is held at the token endpoint…
        s.world.leading = true
        leader = send(config, jar, "/session")
        await expect.poll(() => s.grantRequests.length).toBe(1)
        s.world.leading = false
      }
      const reading = send(config, jar, "/session")
      if (leader) {
        // …until this one has joined it.
        await expect.poll(() => recorder.runs.at(-1)?.states.at(-1)).toBe(stateName({ refreshing: "awaitingRun" }))
        s.world.leading = true
        s.gate.resolve()
        expect((await leader).status).toBe(200)
      }
      const response = await reading
      expect(recorder.runs.at(-1)?.states).toEqual(visited(path.states))
      expect(response.status).toBe(200)
      const session = (await response.json()) as Session
      // Whatever happened to the tokens, the user stays signed in.
      expect(session.user).toMatchObject({ name: "Ada", email: "ada@example.test" })
      const own = { grants: s.grantRequests.length - (s.joinsRun ? 1 : 0) }
      switch (path.finalState) {
        case "fresh":
        case "absent":
          expect(session.error).toBeUndefined()
          expect(s.grantRequests).toHaveLength(0)
          if (s.lock === "store") expect(await cookieTokens(jar)).toEqual(path.finalState === "fresh" ? expect.objectContaining({ access_token: "at-1", refresh_token: "rt-1" }) : undefined)
          break
        case "joined":
          // The other request's tokens, without a grant of this one's own, and without reporting its refresh.
          expect(session.error).toBeUndefined()
          expect(own.grants).toBe(0)
          if (s.lock === "store") expect(await cookieTokens(jar)).toMatchObject(s.joinsRun ? grantedTokens : { access_token: "at-other", refresh_token: "rt-other" })
          expect(s.refreshed).toHaveLength(s.joinsRun ? 1 : 0)
          expect(s.refreshFailures).toHaveLength(0)
          break
        case "joinedFailure":
          // The other request's failure: the session says so, and the other request reported it.
          expect(session.error).toBe("RefreshTokenError")
          expect(own.grants).toBe(0)
          expect(s.refreshFailures).toHaveLength(s.joinsRun ? 1 : 0)
          expect(errors.filter((error) => (error as { type?: string }).type === "RefreshTokenError")).toHaveLength(s.joinsRun ? 1 : 0)
          if (s.lock === "store") expect(await cookieTokens(jar)).toMatchObject({ access_token: "at-1", refresh_token: "rt-1" })
          break
        case "persisted": {
          expect(session.error).toBeUndefined()
          expect(own.grants).toBe(1)
          // The refresh token sent is the one the session holds, or the one a taken-over claim carries.
          expect(Object.fromEntries(s.grantRequests.at(-1)!)).toMatchObject({ grant_type: "refresh_token", refresh_token: "rt-1" })
          if (s.lock === "store") {
            const tokens = await cookieTokens(jar)
            expect(tokens).toMatchObject(grantedTokens)
            expect(tokens!.expires_at! - Math.floor(Date.now() / 1000)).toBeGreaterThan(3500)
            expect(s.published).toHaveLength(1)
          } else {
            // Stored compare-and-set on the claim marker this read swapped in.
            const [swap, store] = s.compareAndSets.slice(-2)
            expect(store).toMatchObject({ expected: swap!.tokens.refresh_token, tokens: grantedTokens })
          }
          expect(s.refreshed).toEqual([expect.objectContaining({ provider: "op" })])
          break
        }
        case "failed":
          expect(session.error).toBe("RefreshTokenError")
          // Never tokens that were not granted.
          if (s.lock === "store") expect(await cookieTokens(jar)).toMatchObject({ access_token: "at-1" })
          expect(s.refreshFailures).toHaveLength(1)
          // Reported once (a failing adapter is logged by the adapter wrapper too).
          expect(errors.filter((error) => (error as { type?: string }).type === "RefreshTokenError")).toHaveLength(1)
          if (path.events.some((event) => event.type === "grant.failed")) {
            expect(own.grants).toBe(1)
            // The failure is published (and a row's marker swapped back), so a burst of reads does not ask a failing provider again.
            expect(s.published).toHaveLength(1)
            if (s.lock === "row") expect(s.compareAndSets.at(-1)!.tokens).toEqual({ refresh_token: "rt-1" })
          }
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
    })
  }

  afterAll(() => {
    const { line, missing } = coverageReport(tokenRefreshMachine, recorder)
    console.log(`${line}; ${paths.length} paths`)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
