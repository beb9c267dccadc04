import { randomBytes, randomUUID } from "node:crypto"
import { SignJWT } from "jose"
import { describe, expect, it } from "vitest"
import { assign, setup, type InspectionEvent } from "xstate"
import { runFlow } from "../../src/machines/run-flow.js"
import { createInspector, combineInspectors } from "../../src/inspect/index.js"
import { runEveryFlow, Secrets } from "./fixtures.js"
import { readEventStream } from "./sse.js"
import { customFetch } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { encode } from "../../src/jwt.js"
import { tokensClaim } from "../../src/core/tokens-claim.js"
import { CookieJar, cookieNames, send } from "../helpers.js"

const sessionCookie = cookieNames.https.sessionToken

const base = "http://inspector.test/inspect"

/** An app's own machine, run with runFlow and the same inspector, whose context holds every kind of secret. */
const tokenRefresh = setup({
  types: { context: {} as Record<string, unknown>, events: {} as { type: "tokens.refreshed"; [key: string]: unknown } },
}).createMachine({
  id: "token-refresh",
  context: {},
  initial: "refreshing",
  states: {
    refreshing: { meta: { effect: "refresh" }, on: { "tokens.refreshed": { target: "refreshed", actions: assign(({ event }) => ({ ...event, type: undefined })) } } },
    refreshed: { type: "final" },
  },
})

async function runTokenRefresh(inspect: NonNullable<Parameters<typeof runFlow>[2]>["inspect"], secrets: Secrets) {
  const value = () => randomBytes(18).toString("base64url")
  const idToken = await new SignJWT({ sub: "u1" }).setProtectedHeader({ alg: "HS256" }).sign(randomBytes(32))
  const event = {
    type: "tokens.refreshed" as const,
    tokens: { access_token: `at-${value()}`, refresh_token: `rt-${value()}`, id_token: idToken, expires_in: 3600 },
    account: { provider: "op", accessToken: value(), idToken },
    credentials: { username: "ada", password: `pw-${value()}` },
    request: { headers: { cookie: `${cookieNames.http.sessionToken}=${value()}`, authorization: `Bearer ${value()}` } },
    sessionToken: randomUUID(),
    clientSecret: value(),
    pkce: { codeVerifier: value(), codeChallenge: value() },
    emailLink: `https://app.test/auth/callback/email?token=${value()}&email=ada%40example.test`,
    note: `the provider sent ${idToken}`,
  }
  secrets.add(event.tokens.access_token, event.tokens.refresh_token, idToken, event.account.accessToken, event.credentials.password, event.sessionToken, event.clientSecret, event.pkce.codeVerifier, event.pkce.codeChallenge)
  secrets.add(event.request.headers.cookie.split("=")[1], event.request.headers.authorization.split(" ")[1], new URL(event.emailLink).searchParams.get("token"))
  await runFlow(tokenRefresh, { refresh: () => event }, { inspect })
}

describe("secrets never leave the inspector's observer", () => {
  it("real flows with known secrets: none in the event stream, the page, its assets or any JSON", async () => {
    const inspector = createInspector({ authorize: () => true })
    const get = (path: string) => inspector.handler(new Request(`${base}${path}`))
    // What the observer is given, unredacted: the test is meaningful only if secrets are in there.
    const raw: unknown[] = []
    const rawObserver = (event: InspectionEvent) => {
      if (event.type === "@xstate.snapshot") raw.push((event.snapshot as { context?: unknown }).context, event.event)
    }
    const stream = readEventStream(await get("/api/events"))
    await stream.until((events) => events.some((event) => event.event === "hello"))

    const secrets = new Secrets()
    await runEveryFlow(combineInspectors(inspector.inspect, rawObserver), secrets)
    await runTokenRefresh(combineInspectors(inspector.inspect, rawObserver), secrets)
    await stream.until((events) => events.some((event) => event.event === "flows" && (event.data.total as number) === 7 && JSON.stringify(event.data).includes("token-refresh")))
    await new Promise((resolve) => setTimeout(resolve, 250))
    await stream.close()

    const rawText = JSON.stringify(raw)
    expect(secrets.foundIn(rawText).length, "the flows put secrets in their snapshots").toBeGreaterThanOrEqual(15)
    expect(secrets.values.size).toBeGreaterThanOrEqual(30)

    const payloads: [string, string][] = [["event stream", stream.text]]
    const grab = async (path: string) => {
      const response = await get(path)
      expect(response.status, path).toBe(200)
      payloads.push([path, await response.text()])
      return payloads.at(-1)![1]
    }
    await grab("")
    await grab("/")
    await grab("/assets/inspector.js")
    await grab("/assets/inspector.css")
    const machines = JSON.parse(await grab("/api/machines")) as { description: { id: string } }[]
    for (const machine of machines) await grab(`/api/machines/${machine.description.id}.svg`)
    const list = JSON.parse(await grab("/api/flows?limit=200")) as { flows: { id: string }[] }
    expect(list.flows).toHaveLength(7)
    for (const status of ["succeeded", "ended", "waiting"]) await grab(`/api/flows?status=${status}`)
    for (const flow of list.flows) await grab(`/api/flows/${flow.id}`)

    for (const [where, text] of payloads) expect(secrets.foundIn(text), `secrets in ${where}`).toEqual([])
    const bytes = payloads.reduce((sum, [, text]) => sum + Buffer.byteLength(text), 0)
    console.log(`[inspect] ${secrets.values.size} known secrets, ${secrets.foundIn(rawText).length} of them in the raw inspection events; 0 in ${payloads.length} payloads (${bytes} bytes, event stream ${Buffer.byteLength(stream.text)} bytes)`)
    // And the redaction left the flows readable.
    const oauth = payloads.find(([where, text]) => where.startsWith("/api/flows/") && text.includes('"machine":"oauth"'))![1]
    expect(oauth).toContain('"codeVerifier":"[redacted]"')
    expect(oauth).toContain('"callbackUrl":"https://app.test/dashboard"')
    // One flow over both requests, its callback's checks visible as steps.
    const record = JSON.parse(oauth) as { requests: number; runs: { machine: string; steps: { state: string }[] }[] }
    expect(record.requests).toBe(2)
    expect(record.runs.map((run) => run.machine)).toEqual(["oauth"])
    expect(record.runs[0]!.steps.map((step) => step.state)).toEqual(expect.arrayContaining(["awaitingCallback", "checkingResponse", "exchangingCode", "validatingTokens", "resolvingAccount", "signedIn"]))
  })
})

describe("token refresh and the email link through Auth(): no refresh token, access token, claim marker or mailed token reaches the inspector", () => {
  it("database sessions (the row lock's claim marker carries the refresh token) and JWT sessions", async () => {
    const inspector = createInspector({ authorize: () => true })
    const secrets = new Secrets()
    const fresh = () => `${randomBytes(18).toString("base64url")}`
    const rawContexts: unknown[] = []
    const inspect = combineInspectors(inspector.inspect, (event: InspectionEvent) => {
      if (event.type === "@xstate.snapshot" && (event.snapshot as { machine?: { id?: string } }).machine?.id === "token-refresh") rawContexts.push((event.snapshot as { context?: unknown }).context)
    })
    const tokenFetch = (async () => {
      const granted = { access_token: `at-${fresh()}`, refresh_token: `rt-${fresh()}` }
      secrets.add(granted.access_token, granted.refresh_token)
      return Response.json({ ...granted, token_type: "Bearer", expires_in: 3600 })
    }) as typeof fetch
    const provider = { id: "op", name: "OP", type: "oauth", clientId: "c", clientSecret: "s", authorization: "https://op.test/a", token: "https://op.test/token", userinfo: "https://op.test/u", [customFetch]: tokenFetch }
    const secret = `auth-secret-${fresh()}`
    const old = { access_token: `at-${fresh()}`, refresh_token: `rt-${fresh()}`, token_type: "bearer" as const, expires_at: Math.floor(Date.now() / 1000) + 10 }
    secrets.add(old.access_token, old.refresh_token)

    // Database sessions: the row is the lock, and its claim marker carries the refresh token.
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ id: "", name: "Ada", email: "ada@example.test", emailVerified: null })
    await adapter.linkAccount({ userId: user.id, type: "oauth", provider: "op", providerAccountId: "ada", ...old })
    await adapter.createSession({ sessionToken: "session-1", userId: user.id, expires: new Date(Date.now() + 60_000) })
    const database = { secret, trustHost: true, adapter, session: { strategy: "database" as const }, refresh: true, inspect, providers: [provider as never] }
    const dbJar = new CookieJar()
    dbJar.cookies.set(sessionCookie, "session-1")
    expect(((await (await send(database, dbJar, "/session")).json()) as { error?: string }).error).toBeUndefined()

    // JWT sessions: the tokens ride in the cookie, the refresh store is the lock.
    const jwtJar = new CookieJar()
    jwtJar.cookies.set(sessionCookie, await encode({ token: { name: "Ada", sub: "u1", [tokensClaim]: { op: old } }, secret, salt: sessionCookie }))
    expect(((await (await send({ secret, trustHost: true, refresh: true, inspect, providers: [provider as never] }, jwtJar, "/session")).json()) as { error?: string }).error).toBeUndefined()

    // The raw contexts hold them (the test means something), the inspector's answers do not.
    const raw = JSON.stringify(rawContexts)
    expect(secrets.foundIn(raw).length).toBeGreaterThanOrEqual(4)
    expect(raw).toContain("authflow-refreshing:")
    const list = (await (await inspector.handler(new Request(`${base}/api/flows?limit=50`))).json()) as { flows: { id: string; machine?: string }[] }
    expect(list.flows.length).toBeGreaterThanOrEqual(2)
    for (const flow of list.flows) {
      const text = await (await inspector.handler(new Request(`${base}/api/flows/${flow.id}`))).text()
      expect(secrets.foundIn(text), `secrets in flow ${flow.id}`).toEqual([])
      expect(text).not.toContain("authflow-refreshing:")
    }
  })

  it("the mailed token is concealed in the email sign-in's context: not even the raw inspection events serialise it", async () => {
    const secrets = new Secrets()
    const raw: unknown[] = []
    const rawObserver = (event: InspectionEvent) => {
      if (event.type === "@xstate.snapshot") raw.push((event.snapshot as { context?: unknown }).context, event.event)
    }
    await runEveryFlow(rawObserver, secrets)
    const mailed = [...secrets.values].filter((value) => /^[0-9a-f]{64}$/.test(value))
    expect(mailed.length).toBeGreaterThanOrEqual(1)
    for (const token of mailed) expect(JSON.stringify(raw)).not.toContain(token)
  })
})
