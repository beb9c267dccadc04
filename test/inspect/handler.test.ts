import { afterEach, describe, expect, it } from "vitest"
import { createActor } from "xstate"
import { createInspector } from "../../src/inspect/index.js"
import { contrastPairs } from "../../src/inspect/assets/styles.js"
import { credentialsSignInMachine } from "../../src/machines/credentials-sign-in.js"
import { readEventStream } from "./sse.js"

const origin = "http://app.test"
// Writable view of the environment (some type packages declare NODE_ENV read-only).
const env = process.env as Record<string, string | undefined>
const environment = env.NODE_ENV

afterEach(() => {
  env.NODE_ENV = environment
})

function signIn(inspect: ReturnType<typeof createInspector>["inspect"]) {
  const actor = createActor(credentialsSignInMachine, { inspect }).start()
  actor.send({ type: "csrf.valid" })
  actor.send({ type: "credentials.read", identifier: "ada", nonString: [] })
  actor.send({ type: "rateLimit.counted", hits: [] })
  actor.send({ type: "authorize.returned", user: { id: "1", name: "Ada" } })
  actor.send({ type: "attempt.refunded" })
  actor.send({ type: "signIn.answered", result: true })
  actor.send({ type: "token.encoded" })
}

describe("the inspector handler", () => {
  it("serves everything under the base path it is mounted at, and nothing outside it", async () => {
    const { handler, basePath } = createInspector({ basePath: "/tools/auth-inspector/" })
    expect(basePath).toBe("/tools/auth-inspector")
    for (const path of ["/tools/auth-inspector", "/tools/auth-inspector/"]) {
      const page = await handler(new Request(`${origin}${path}`))
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
      const html = await page.text()
      expect(html).toContain('href="/tools/auth-inspector/assets/inspector.css"')
      expect(html).toContain('src="/tools/auth-inspector/assets/inspector.js"')
      expect(html).toContain('data-base="/tools/auth-inspector"')
    }
    for (const asset of ["/assets/inspector.js", "/assets/inspector.css", "/api/machines", "/api/flows", "/api/machines/sign-out.svg"]) {
      expect((await handler(new Request(`${origin}/tools/auth-inspector${asset}`))).status, asset).toBe(200)
    }
    expect((await handler(new Request(`${origin}/inspect`))).status).toBe(404)
    expect((await handler(new Request(`${origin}/tools/auth-inspectorx`))).status).toBe(404)
    expect((await handler(new Request(`${origin}/tools/auth-inspector/api/flows/42`))).status).toBe(404)
    expect((await handler(new Request(`${origin}/tools/auth-inspector/api/machines/nope.svg`))).status).toBe(404)
    const post = await handler(new Request(`${origin}/tools/auth-inspector/api/flows`, { method: "POST", body: "{}" }))
    expect(post.status).toBe(405)
    expect(post.headers.get("allow")).toBe("GET, HEAD")
    const head = await handler(new Request(`${origin}/tools/auth-inspector/`, { method: "HEAD" }))
    expect(head.status).toBe(200)
    expect(await head.text()).toBe("")
  })

  it("loads nothing from another origin: every asset comes from the handler, and the CSP says so", async () => {
    const { handler } = createInspector()
    const page = await handler(new Request(`${origin}/inspect`))
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'; script-src 'self'; style-src 'self'")
    expect(page.headers.get("x-content-type-options")).toBe("nosniff")
    const texts = [await page.text()]
    for (const asset of ["/assets/inspector.js", "/assets/inspector.css", "/api/machines/oauth.svg"]) texts.push(await (await handler(new Request(`${origin}/inspect${asset}`))).text())
    for (const text of texts) {
      expect(text).not.toMatch(/(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i)
      expect(text).not.toMatch(/url\(\s*["']?(?:https?:)?\/\//i)
      expect(text).not.toMatch(/@import|fetch\(\s*["']https?:|EventSource\(\s*["']https?:/i)
    }
  })

  it("refuses to serve in production unless given an access check, and then asks it every time", async () => {
    env.NODE_ENV = "production"
    const closed = createInspector()
    const refused = await closed.handler(new Request(`${origin}/inspect`))
    expect(refused.status).toBe(403)
    expect(await refused.text()).toMatch(/off in production.*authorize/)
    expect((await closed.handler(new Request(`${origin}/inspect/api/flows`))).status).toBe(403)

    const asked: string[] = []
    const open = createInspector({
      authorize: async (request) => {
        asked.push(new URL(request.url).pathname)
        return request.headers.get("x-admin") === "yes"
      },
    })
    expect((await open.handler(new Request(`${origin}/inspect`, { headers: { "x-admin": "yes" } }))).status).toBe(200)
    const denied = await open.handler(new Request(`${origin}/inspect/api/flows`))
    expect(denied.status).toBe(403)
    expect(await denied.text()).toMatch(/authorize check refused/)
    const throwing = createInspector({ authorize: () => { throw new Error("database down") } })
    expect((await throwing.handler(new Request(`${origin}/inspect`))).status).toBe(403)
    expect(asked).toEqual(["/inspect", "/inspect/api/flows"])

    env.NODE_ENV = "development"
    expect((await closed.handler(new Request(`${origin}/inspect`))).status).toBe(200)
  })

  it("streams flow updates as server-sent events: a backlog first, then changes as they happen", async () => {
    const { handler, inspect } = createInspector()
    signIn(inspect)
    const response = await handler(new Request(`${origin}/inspect/api/events`))
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8")
    const stream = readEventStream(response)
    await stream.until((events) => events.some((event) => event.event === "hello"))
    const hello = stream.events().find((event) => event.event === "hello")!.data as { total: number; flows: { state: string }[] }
    expect(hello.total).toBe(1)
    expect(hello.flows[0]!.state).toBe("signedIn")
    signIn(inspect)
    await stream.until((events) => events.some((event) => event.event === "flows"))
    const update = stream.events().find((event) => event.event === "flows")!.data as { total: number; flows: { seq: number; status: string }[] }
    expect(update).toMatchObject({ total: 2, flows: [{ seq: 2, status: "succeeded" }] })
    await stream.close()
  })

  it("pages and filters the flow list", async () => {
    const { handler, inspect } = createInspector({ maxFlows: 120 })
    for (let i = 0; i < 130; i++) signIn(inspect)
    const page = (await (await handler(new Request(`${origin}/inspect/api/flows?offset=100&limit=50`))).json()) as { total: number; recorded: number; flows: { seq: number }[] }
    expect(page.total).toBe(120)
    expect(page.recorded).toBe(120)
    expect(page.flows.map((flow) => flow.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 30 - i))
    const none = (await (await handler(new Request(`${origin}/inspect/api/flows?status=waiting`))).json()) as { total: number }
    expect(none.total).toBe(0)
  })

  it("uses text colours with at least 4.5:1 contrast on their backgrounds", () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
    }
    for (const [name, text, background] of contrastPairs) {
      const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a)
      const ratio = (light! + 0.05) / (dark! + 0.05)
      expect(ratio, `${name}: ${text} on ${background}`).toBeGreaterThanOrEqual(4.5)
    }
  })
})
