/**
 * The multi-session machine on its own (authflow/machines), driven with the events its effects
 * send: which operation it runs, how many accounts a browser keeps (the limit, five by default, and
 * how many of the oldest are dropped past it), switching to an account, and which sessions a
 * sign-out ends, with what it keeps of each failure.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { multiSessionMachine, type MultiSessionEvent, type MultiSessionInput } from "../../src/machines/multi-session.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/multi-session.js", async (load) => (await import("./load-per-test.js")).perTestExports("multi-session", await load()))
loadMachinesPerTest("csrf-check", "multi-session")

/** The machine with this input after these events, from its start. */
function after(input: MultiSessionInput, ...events: MultiSessionEvent[]) {
  const actor = createActor(multiSessionMachine, { input }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const add: MultiSessionInput = { operation: "add", policy: { maxAccounts: 3 } }
const previous = (accounts: number, sameUser = false): MultiSessionEvent => ({ type: "previous.found", sameUser, accounts })

describe("multi-session machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(multiSessionMachine)).toEqual(["accountNotFound", "added", "csrfRejected", "endAll", "keepFailed", "otherEnded", "promoteNext", "replaced", "switchFailed", "switched"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(multiSessionMachine)).toEqual({
      findingPrevious: "findPrevious",
      droppingOldest: "dropOldest",
      keepingPrevious: "keepPrevious",
      checkingSwitch: "checkCsrf",
      findingAccount: "findAccount",
      switchingAccount: "switchAccount",
      checkingSignOut: "checkCsrf",
      findingSignOutTarget: "findSignOutTarget",
      endingOthers: "endOthers",
      endingOther: "endOther",
    })
  })

  it("runs the operation it is given, with the policy it is given or five accounts at most", () => {
    expect([after(add).value, after(add).context]).toEqual(["findingPrevious", { operation: "add", policy: { maxAccounts: 3 } }])
    expect(after({ operation: "add" }).context.policy).toEqual({ maxAccounts: 5 })
    expect(after({ operation: "switch" }).value).toBe("checkingSwitch")
    expect(after({ operation: "signOut" }).value).toBe("checkingSignOut")
  })

  it("replaces the session when the browser held none, or the same user's", () => {
    for (const event of [{ type: "marker.absent" }, { type: "previous.none" }, previous(9, true)] as const) {
      const replaced = after(add, event)
      expect([replaced.status, replaced.value, replaced.context.drop], event.type).toEqual(["done", "replaced", undefined])
    }
  })

  it("keeps the previous user's session, dropping the oldest ones only past the limit, as many as are over it", () => {
    const atLimit = after(add, previous(3))
    expect([atLimit.value, atLimit.context.drop]).toEqual(["keepingPrevious", undefined])
    const oneOver = after(add, previous(4))
    expect([oneOver.value, oneOver.context.drop]).toEqual(["droppingOldest", 1])
    expect(after(add, previous(6)).context.drop).toBe(3)
    // The default limit: five.
    expect([after({ operation: "add" }, previous(5)).value, after({ operation: "add" }, previous(6)).context.drop]).toEqual(["keepingPrevious", 1])
    expect(after(add, previous(4), { type: "oldest.dropped" }).value).toBe("keepingPrevious")
    const added = after(add, previous(4), { type: "oldest.dropped" }, { type: "previous.kept" })
    expect([added.status, added.value, added.context.error]).toEqual(["done", "added", undefined])
  })

  it("keeps going when dropping the oldest fails, and fails when the previous session cannot be kept, keeping each error", () => {
    const down = new Error("down")
    const dropFailed = after(add, previous(4), { type: "drop.failed", error: down })
    expect([dropFailed.value, dropFailed.context.error]).toEqual(["keepingPrevious", down])
    const keepFailed = after(add, previous(2), { type: "keep.failed", error: down })
    expect([keepFailed.status, keepFailed.value, keepFailed.context.error]).toEqual(["done", "keepFailed", down])
  })

  it("switches to an account the browser holds, after the CSRF check", () => {
    const switchTo = { operation: "switch" } as const
    expect(after(switchTo, { type: "csrf.invalid" }).value).toBe("csrfRejected")
    expect(after(switchTo, { type: "csrf.valid" }, { type: "account.active" }).value).toBe("switched")
    expect(after(switchTo, { type: "csrf.valid" }, { type: "account.missing" }).value).toBe("accountNotFound")
    expect(after(switchTo, { type: "csrf.valid" }, { type: "account.found" }, { type: "account.switched" }).value).toBe("switched")
    const down = new Error("down")
    const failed = after(switchTo, { type: "csrf.valid" }, { type: "account.found" }, { type: "switch.failed", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "switchFailed", down])
  })

  it("ends the other accounts' sessions only when there are others, and promotes the next account only when one is left", () => {
    const signOut = [{ type: "csrf.valid" }] as const
    const input = { operation: "signOut" } as const
    expect(after(input, { type: "csrf.invalid" }).value).toBe("csrfRejected")
    expect(after(input, ...signOut, { type: "target.all", others: 0 }).value).toBe("endAll")
    expect(after(input, ...signOut, { type: "target.all", others: 1 }).value).toBe("endingOthers")
    expect(after(input, ...signOut, { type: "target.active", others: 0 }).value).toBe("endAll")
    expect(after(input, ...signOut, { type: "target.active", others: 1 }).value).toBe("promoteNext")
    expect(after(input, ...signOut, { type: "target.missing" }).value).toBe("accountNotFound")
    expect(after(input, ...signOut, { type: "target.all", others: 2 }, { type: "others.ended" }).value).toBe("endAll")
    expect(after(input, ...signOut, { type: "target.other" }, { type: "other.ended" }).value).toBe("otherEnded")
  })

  it("ends the sign-out however ending the other sessions went, keeping the error", () => {
    const down = new Error("down")
    const others = after({ operation: "signOut" }, { type: "csrf.valid" }, { type: "target.all", others: 2 }, { type: "others.failed", error: down })
    expect([others.status, others.value, others.context.error]).toEqual(["done", "endAll", down])
    const other = after({ operation: "signOut" }, { type: "csrf.valid" }, { type: "target.other" }, { type: "other.failed", error: down })
    expect([other.status, other.value, other.context.error]).toEqual(["done", "otherEnded", down])
  })
})
