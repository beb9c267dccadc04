import type { AddressInfo } from "node:net"
import { createWebSocketInspector } from "@statelyai/inspect"
import { afterEach, describe, expect, it } from "vitest"
import { combineInspectors, createInspector, statelySanitizers } from "../../src/inspect/index.js"
import { runEveryFlow, Secrets } from "./fixtures.js"

// `ws` comes with @statelyai/inspect; loaded by name so the test needs no type package for it.
interface WsServer {
  on(event: "connection", listener: (socket: { on(event: "message", listener: (data: Buffer) => void): void }) => void): void
  on(event: "listening", listener: () => void): void
  address(): AddressInfo
  close(callback: () => void): void
  clients: Set<{ terminate(): void }>
}
const wsModule = "ws"
const { WebSocketServer } = (await import(wsModule)) as { WebSocketServer: new (options: { host: string; port: number }) => WsServer }

/** A WebSocket server on loopback collecting what a Stately inspector sends. */
async function loopbackServer() {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 })
  await new Promise<void>((resolve) => server.on("listening", resolve))
  const messages: { type: string; name?: string; definition?: string; snapshot?: { value?: unknown }; event?: { type: string } }[] = []
  const raw: string[] = []
  server.on("connection", (socket) => socket.on("message", (data) => {
    raw.push(data.toString())
    messages.push(JSON.parse(data.toString()))
  }))
  return {
    url: `ws://127.0.0.1:${server.address().port}`,
    messages,
    raw,
    close: () => new Promise<void>((resolve) => {
      for (const client of server.clients) client.terminate()
      server.close(() => resolve())
    }),
  }
}

async function eventually(check: () => boolean, ms = 10_000): Promise<void> {
  const start = Date.now()
  while (!check()) {
    if (Date.now() - start > ms) throw new Error("timed out")
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

describe("@statelyai/inspect through the same inspect option", () => {
  it("its WebSocket inspector receives every authflow machine, snapshot and event", async () => {
    const server = await loopbackServer()
    cleanups.push(server.close)
    const stately = createWebSocketInspector({ url: server.url })
    cleanups.push(() => stately.stop())
    await runEveryFlow(stately.inspect, new Secrets())

    const actors = () => server.messages.filter((m) => m.type === "@xstate.actor").map((m) => ({ name: m.name, machine: (JSON.parse(m.definition ?? "{}") as { id?: string }).id }))
    await eventually(() => new Set(actors().map((actor) => actor.machine)).size >= 5 && server.messages.some((m) => m.type === "@xstate.snapshot" && m.snapshot?.value === "linkSent"))
    expect([...new Set(actors().map((actor) => actor.machine))].sort()).toEqual(["credentials-sign-in", "email-sign-in", "email-verification", "oauth", "sign-out"])
    // The OAuth machine runs in both requests under one actor id (the flow's): Stately names both after it.
    const oauth = actors().filter((actor) => actor.machine === "oauth")
    expect(oauth).toHaveLength(2)
    expect(oauth[1]!.name).toBe(oauth[0]!.name)
    const values = server.messages.filter((m) => m.type === "@xstate.snapshot").map((m) => m.snapshot?.value)
    expect(values).toEqual(expect.arrayContaining(["authorizing", "awaitingCallback", "checkingResponse", "exchangingCode", "validatingTokens", "resolvingAccount", "signedIn", "signedOut", "linkSent", "credentialsRejected"]))
    const events = server.messages.filter((m) => m.type === "@xstate.event").map((m) => m.event?.type)
    expect(events).toEqual(expect.arrayContaining(["csrf.valid", "authorization.ready", "callback.received", "response.received", "code.exchanged", "tokens.valid", "signIn.answered", "token.encoded", "link.sent"]))
  })

  it("with statelySanitizers, next to the authflow inspector, it gets the flows without their secrets", async () => {
    const server = await loopbackServer()
    cleanups.push(server.close)
    const stately = createWebSocketInspector({ url: server.url, ...statelySanitizers })
    cleanups.push(() => stately.stop())
    const local = createInspector()
    const secrets = new Secrets()
    await runEveryFlow(combineInspectors(local.inspect, stately.inspect), secrets)

    await eventually(() => server.messages.some((m) => m.type === "@xstate.snapshot" && m.snapshot?.value === "linkSent"))
    expect(local.recorder.size).toBe(6)
    const all = server.raw.join("\n")
    expect(all).toContain('"codeVerifier":"[redacted]"')
    const leaked = secrets.foundIn(all)
    if (leaked.length) console.log(server.raw.filter((m) => leaked.some((l) => m.includes(l))).map((m) => m.slice(0, 600)).join("\n---\n"))
    expect(leaked).toEqual([])
  })
})
