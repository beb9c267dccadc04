/**
 * The rate limiter's shared piece (src/machines/rate-limit.ts) in a machine of its own: the limited
 * state, its guards and actions, and the final state of a refused request.
 */
import { createActor, setup } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { limitingState, rateLimitActions, rateLimitedState, rateLimitGuards, type RateLimitContext, type RateLimitEvent, type RateLimitHit } from "../../src/machines/rate-limit.js"
import { effectOf } from "../../src/machines/run-flow.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test makes its machine from the shared piece loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
loadMachinesPerTest("rate-limit")

/** A machine that counts the request, then admits it (`admitted`) or refuses it (`rateLimited`); made in each test, as a flow machine is made when its module loads. */
function limitedMachine() {
  return setup({
    types: { context: {} as RateLimitContext, events: {} as RateLimitEvent },
    guards: rateLimitGuards<RateLimitContext, RateLimitEvent>(),
    actions: rateLimitActions<RateLimitContext, RateLimitEvent>(),
  }).createMachine({
    id: "limited",
    context: {},
    initial: "limiting",
    states: { limiting: limitingState("admitted"), admitted: { type: "final" }, ...rateLimitedState },
  })
}

function after(event: RateLimitEvent) {
  const actor = createActor(limitedMachine()).start()
  expect(effectOf(actor.getSnapshot())).toBe("checkRateLimit")
  actor.send(event)
  return actor.getSnapshot()
}

const hit = (rule: RateLimitHit["rule"], count: number, max: number): RateLimitHit => ({ rule, subject: rule === "ip" ? "203.0.113.7" : "ada", count, max, resetAt: 0 })

describe("the rate-limit state", () => {
  it("admits a request every budget allows, up to and including its last allowed request", () => {
    const admitted = after({ type: "rateLimit.counted", hits: [hit("ip", 5, 5), hit("identifier", 1, 3)] })
    expect([admitted.status, admitted.value, admitted.context]).toEqual(["done", "admitted", {}])
    expect(after({ type: "rateLimit.counted", hits: [] }).value).toBe("admitted")
  })

  it("refuses a request one budget counts over, and keeps only the budgets exceeded", () => {
    const refused = after({ type: "rateLimit.counted", hits: [hit("ip", 6, 5), hit("identifier", 1, 3)] })
    expect([refused.status, refused.value, refused.context]).toEqual(["done", "rateLimited", { exceeded: [hit("ip", 6, 5)] }])
  })

  it("reads a count without hits (an effect of your own may send one) as within the budgets", () => {
    expect(after({ type: "rateLimit.counted" } as RateLimitEvent).value).toBe("admitted")
  })

  it("lets the request through when the store failed and the limiter fails open, and refuses it, keeping the error, when it fails closed", () => {
    const down = new Error("store down")
    const open = after({ type: "rateLimit.failed", error: down, failOpen: true })
    expect([open.value, open.context]).toEqual(["admitted", {}])
    const closed = after({ type: "rateLimit.failed", error: down, failOpen: false })
    expect([closed.status, closed.value, closed.context]).toEqual(["done", "rateLimited", { limiterFailed: true, error: down }])
  })
})
