import { request as httpRequest, createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { networkInterfaces } from "node:os"
import { afterEach, describe, expect, it } from "vitest"
import { createActor } from "xstate"
import { createInspector } from "../../src/inspect/index.js"
import { contrastPairs } from "../../src/inspect/assets/styles.js"
import { credentialsSignInMachine } from "../../src/machines/credentials-sign-in.js"
import { readEventStream } from "./sse.js"
import { withClientAddress } from "../../src/rate-limit.js"
import { toWebRequest } from "../../src/frameworks/node.js"

const origin = "http://app.test"
// Writable view of the environment (some type packages declare NODE_ENV read-only).
const env = process.env as Record<string, string | undefined>
const environment = env.NODE_ENV

afterEach(() => {
  env.NODE_ENV = environment
})

/** A request from this machine: the socket's peer is `address` (loopback) and the Host names a loopback address. */
function local(path: string, headers: Record<string, string> = {}, address = "127.0.0.1"): Request {
  return withClientAddress(new Request(`http://127.0.0.1:3000${path}`, { headers: { host: "127.0.0.1:3000", ...headers } }), address)
}

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
    const { handler, basePath } = createInspector({ basePath: "/tools/auth-inspector/", authorize: () => true })
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
    const { handler } = createInspector({ authorize: () => true })
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

    // Even a request from this machine is refused in production without `authorize`.
    expect((await closed.handler(local("/inspect"))).status).toBe(403)
    env.NODE_ENV = "development"
    expect((await closed.handler(local("/inspect"))).status).toBe(200)
  })

  for (const nodeEnv of [undefined, "Production", "prod", "staging", "development", "test"]) {
    it(`without authorize, serves only requests from this machine (NODE_ENV ${nodeEnv === undefined ? "unset" : `"${nodeEnv}"`})`, async () => {
      if (nodeEnv === undefined) delete env.NODE_ENV
      else env.NODE_ENV = nodeEnv
      const { handler, inspect } = createInspector()
      signIn(inspect)
      const remote = "203.0.113.7"
      const refusals = [
        // Anonymous requests from elsewhere, whatever they claim in their headers.
        withClientAddress(new Request(`${origin}/inspect/api/flows`), remote),
        withClientAddress(new Request("http://127.0.0.1:3000/inspect/api/flows", { headers: { host: "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1", "x-real-ip": "::1", forwarded: "for=127.0.0.1" } }), remote),
        withClientAddress(new Request("http://localhost/inspect/api/flows", { headers: { host: "localhost" } }), "2001:db8::7"),
        withClientAddress(new Request("http://localhost/inspect/api/flows"), "::ffff:203.0.113.7"),
        // A request whose peer address nobody recorded: the handler cannot tell where it came from.
        new Request("http://127.0.0.1:3000/inspect/api/flows", { headers: { host: "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1" } }),
        // From this machine, but through a proxy that says it forwarded a client's request.
        local("/inspect/api/flows", { "x-forwarded-for": remote }),
        local("/inspect/api/flows", { forwarded: `for=${remote}` }),
        local("/inspect/api/flows", { "x-real-ip": remote }),
        // From this machine, to a name that is not: a page on another site rebinding its name to 127.0.0.1.
        local("/inspect/api/flows", { host: "attacker.example:3000" }),
      ]
      for (const request of refusals) {
        const response = await handler(request)
        expect(response.status, `${request.headers.get("host")} ${JSON.stringify(Object.fromEntries(request.headers))}`).toBe(403)
        const text = await response.text()
        expect(text).not.toContain('"flows"')
        // One line that says how to open it.
        expect(text).toMatch(/^Forbidden: [^\n]*authorize: \(request\) => boolean[^\n]*createInspector\(\)/)
      }
      const served = [local("/inspect/api/flows"), local("/inspect/api/flows", { host: "localhost:3000" }, "::1"), local("/inspect/api/flows", { host: "[::1]:3000" }, "::ffff:127.0.0.1")]
      for (const request of served) {
        const response = await handler(request)
        expect(response.status).toBe(200)
        expect(((await response.json()) as { total: number }).total).toBe(1)
      }
    })
  }

  it("without authorize, tells a socket on this machine's loopback from one on its network address", async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address
    const { handler, inspect } = createInspector()
    signIn(inspect)
    const server = createServer(async (req, res) => {
      const response = await handler(await toWebRequest(req))
      res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "text/plain" }).end(await response.text())
    })
    await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve))
    const { port } = server.address() as AddressInfo
    const get = (address: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        httpRequest({ host: address, port, path: "/inspect/api/flows", headers }, (res) => {
          let body = ""
          res.on("data", (chunk: Buffer) => (body += chunk.toString()))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
        })
          .on("error", reject)
          .end()
      })
    try {
      expect(await get("127.0.0.1")).toMatchObject({ status: 200 })
      if (external) {
        // The same machine through its network address: the socket's peer is not loopback, whatever the headers say.
        const refused = await get(external, { host: `localhost:${port}`, "x-forwarded-for": "127.0.0.1" })
        expect(refused.status).toBe(403)
        expect(refused.body).not.toContain('"flows"')
      }
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it("streams flow updates as server-sent events: a backlog first, then changes as they happen", async () => {
    const { handler, inspect } = createInspector({ authorize: () => true })
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
    const { handler, inspect } = createInspector({ maxFlows: 120, authorize: () => true })
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
