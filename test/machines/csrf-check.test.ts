/**
 * The CSRF check every form-posting flow machine spreads in (src/machines/csrf-check.ts): the
 * checking state, the final state of a refused request, and the effect that reports what the router
 * verified.
 */
import { createActor, setup } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { csrfCheckEffect, csrfCheckingState, csrfRejectedState, type CsrfEvent } from "../../src/machines/csrf-check.js"
import { effectOf, runFlow } from "../../src/machines/run-flow.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test makes its machine from the shared piece loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
loadMachinesPerTest("csrf-check")

/** A machine that checks CSRF, then goes on to `checked`; made in each test, as a flow machine is made when its module loads. */
function checkedMachine() {
  return setup({ types: { events: {} as CsrfEvent } }).createMachine({
    id: "checked",
    initial: "validatingInput",
    states: { validatingInput: csrfCheckingState("checked"), checked: { type: "final" }, ...csrfRejectedState },
  })
}

describe("the CSRF check state", () => {
  it("names the checkCsrf effect, goes on with a verified token and ends in csrfRejected without one", () => {
    const actor = createActor(checkedMachine()).start()
    expect(effectOf(actor.getSnapshot())).toBe("checkCsrf")
    actor.send({ type: "csrf.valid" })
    expect([actor.getSnapshot().status, actor.getSnapshot().value]).toEqual(["done", "checked"])
    const refused = createActor(checkedMachine()).start()
    refused.send({ type: "csrf.invalid" })
    expect([refused.getSnapshot().status, refused.getSnapshot().value]).toEqual(["done", "csrfRejected"])
  })

  it("its effect reports what the router verified of the request's token", async () => {
    expect(csrfCheckEffect({ csrfTokenVerified: true }).checkCsrf()).toEqual({ type: "csrf.valid" })
    expect(csrfCheckEffect({ csrfTokenVerified: false }).checkCsrf()).toEqual({ type: "csrf.invalid" })
    expect((await runFlow(checkedMachine(), csrfCheckEffect({ csrfTokenVerified: false }))).value).toBe("csrfRejected")
  })
})
