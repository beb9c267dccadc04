/**
 * The address verification machine on its own (authflow/machines), driven with the events its
 * effects send: which links it refuses, a user gone or no longer at the address, an address
 * verified already (the link followed twice verifies once), and what it keeps of a store failure.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { passwordVerifyEmailMachine, type PasswordVerifyEmailEvent } from "../../src/machines/password-verify-email.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/password-link.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-link", await load()))
vi.mock("../../src/machines/password-verify-email.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-verify-email", await load()))
loadMachinesPerTest("password-link", "password-verify-email")

/** The machine after these events, from its start. */
function after(...events: PasswordVerifyEmailEvent[]) {
  const actor = createActor(passwordVerifyEmailMachine).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const link = { userId: "u1", email: "ada@example.test" }
const opened: PasswordVerifyEmailEvent = { type: "link.opened", link }

describe("password verify email machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(passwordVerifyEmailMachine)).toEqual(["emailVerified", "linkExpired", "linkInvalid", "linkMissing", "linkStale", "verifyFailed"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(passwordVerifyEmailMachine)).toEqual({ openingLink: "openLink", findingUser: "findLinkedUser", markingVerified: "markVerified" })
  })

  it("keeps the link it opened, and refuses one that is missing, invalid or expired", () => {
    const finding = after(opened)
    expect([finding.value, finding.context]).toEqual(["findingUser", { link }])
    expect([after({ type: "link.missing" }).value, after({ type: "link.invalid" }).value, after({ type: "link.expired" }).value]).toEqual(["linkMissing", "linkInvalid", "linkExpired"])
  })

  it("ends a link whose user left the address, verified or not, or is gone, in linkStale", () => {
    for (const verified of [true, false]) {
      const stale = after(opened, { type: "user.found", bound: false, verified })
      expect([stale.status, stale.value], String(verified)).toEqual(["done", "linkStale"])
    }
    expect(after(opened, { type: "user.missing" }).value).toBe("linkStale")
  })

  it("marks an unverified address verified, and writes nothing for one verified already", () => {
    expect(after(opened, { type: "user.found", bound: true, verified: false }).value).toBe("markingVerified")
    const marked = after(opened, { type: "user.found", bound: true, verified: false }, { type: "email.verified" })
    expect([marked.status, marked.value, marked.context]).toEqual(["done", "emailVerified", { link }])
    const already = after(opened, { type: "user.found", bound: true, verified: true })
    expect([already.status, already.value]).toEqual(["done", "emailVerified"])
  })

  it("keeps the store's error when the lookup or the write fails", () => {
    const down = new Error("down")
    const lookup = after(opened, { type: "lookup.failed", error: down })
    expect([lookup.status, lookup.value, lookup.context.error]).toEqual(["done", "verifyFailed", down])
    const update = after(opened, { type: "user.found", bound: true, verified: false }, { type: "update.failed", error: down })
    expect([update.status, update.value, update.context.error]).toEqual(["done", "verifyFailed", down])
  })
})
