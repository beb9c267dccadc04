import { describe, expect, it } from "vitest"
import { createInspector } from "../../src/inspect/index.js"
import { recordSignIns } from "./fixtures.js"
import { readEventStream } from "./sse.js"

const origin = "http://app.test"

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

describe("with 1000 recorded flows", () => {
  it("the event stream's backlog, the list pages and the page itself stay small and fast", async () => {
    const inspector = createInspector({ authorize: () => true })
    const started = performance.now()
    recordSignIns(inspector, 1200)
    const recordMs = (performance.now() - started) / 1200
    expect(inspector.recorder.size).toBe(1000)

    const get = async (path: string) => {
      const t = performance.now()
      const response = await inspector.handler(new Request(`${origin}/inspect${path}`))
      const text = await response.text()
      return { text, bytes: Buffer.byteLength(text), ms: performance.now() - t }
    }
    const stream = readEventStream(await inspector.handler(new Request(`${origin}/inspect/api/events`)))
    await stream.until((events) => events.some((event) => event.event === "hello"))
    const hello = stream.events().find((event) => event.event === "hello")!
    expect((hello.data as { total: number }).total).toBe(1000)
    expect((hello.data as { flows: unknown[] }).flows).toHaveLength(50)
    expect(hello.bytes).toBeLessThan(64 * 1024)

    // 100 flows finishing at once reach the page as a few coalesced updates, not 500 messages.
    recordSignIns(inspector, 100)
    await stream.until((events) => events.filter((event) => event.event === "flows").reduce((sum, event) => sum + (event.data.flows as unknown[]).length, 0) >= 100)
    const updates = stream.events().filter((event) => event.event === "flows")
    expect(updates.length).toBeLessThanOrEqual(3)
    await stream.close()

    const first = await get("/api/flows?offset=0&limit=50")
    const last = await get("/api/flows?offset=950&limit=50")
    const filtered = await get("/api/flows?status=ended&limit=50")
    const detail = await get(`/api/flows/${JSON.parse(first.text).flows[0].id}`)
    const page = await get("/")
    const script = await get("/assets/inspector.js")
    const css = await get("/assets/inspector.css")
    expect(JSON.parse(last.text).flows).toHaveLength(50)
    for (const measured of [first, last, filtered]) {
      expect(measured.bytes).toBeLessThan(64 * 1024)
      expect(measured.ms).toBeLessThan(250)
    }
    expect(page.bytes + script.bytes + css.bytes).toBeLessThan(100 * 1024)
    console.log(
      `[inspect] 1000 flows: recording ${(recordMs * 1000).toFixed(0)} µs/flow; SSE backlog (hello) ${kb(hello.bytes)}; ` +
        `100 flows later: ${updates.length} update message(s), ${kb(updates.reduce((sum, event) => sum + event.bytes, 0))}; ` +
        `list page ${kb(first.bytes)} in ${first.ms.toFixed(1)} ms (last page ${last.ms.toFixed(1)} ms, status filter ${filtered.ms.toFixed(1)} ms); ` +
        `flow detail ${kb(detail.bytes)}; page ${kb(page.bytes)} + script ${kb(script.bytes)} + styles ${kb(css.bytes)}`,
    )
  })
})
