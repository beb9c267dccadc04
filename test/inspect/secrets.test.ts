import { randomBytes, randomUUID } from "node:crypto"
import { SignJWT } from "jose"
import { describe, expect, it } from "vitest"
import { assign, setup, type InspectionEvent } from "xstate"
import { runFlow } from "../../src/machines/run-flow.js"
import { createInspector, combineInspectors } from "../../src/inspect/index.js"
import { runEveryFlow, Secrets } from "./fixtures.js"
import { readEventStream } from "./sse.js"
import { cookieNames } from "../helpers.js"

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
