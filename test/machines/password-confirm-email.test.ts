/**
 * The email change confirmation machine on its own (authflow/machines), driven with the events its
 * effects send: which links it refuses, a link no longer bound to the old address, a new address
 * taken since the mail, what it keeps of each store failure, and a failed notice to the old address
 * that does not undo the change.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { passwordConfirmEmailMachine, type PasswordConfirmEmailEvent } from "../../src/machines/password-confirm-email.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/password-link.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-link", await load()))
vi.mock("../../src/machines/password-confirm-email.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-confirm-email", await load()))
loadMachinesPerTest("password-link", "password-confirm-email")

/** The machine after these events, from its start. */
function after(...events: PasswordConfirmEmailEvent[]) {
  const actor = createActor(passwordConfirmEmailMachine).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const link = { userId: "u1", email: "ada@old.test", newEmail: "ada@new.test" }
const opened: PasswordConfirmEmailEvent = { type: "link.opened", link }
const bound: PasswordConfirmEmailEvent = { type: "user.found", bound: true, verified: true }
const changed: PasswordConfirmEmailEvent[] = [opened, bound, { type: "newEmail.free" }, { type: "email.changed" }]

describe("password confirm email machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(passwordConfirmEmailMachine)).toEqual(["changeFailed", "emailChanged", "linkExpired", "linkInvalid", "linkMissing", "linkStale", "newEmailTaken"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(passwordConfirmEmailMachine)).toEqual({
      openingLink: "openLink",
      findingUser: "findLinkedUser",
      findingNewEmail: "findNewEmail",
      changingEmail: "changeEmail",
      notifyingOldAddress: "notifyOldAddress",
    })
  })

  it("keeps the link it opened, and refuses one that is missing, invalid or expired", () => {
    const finding = after(opened)
    expect([finding.value, finding.context]).toEqual(["findingUser", { link }])
    expect([after({ type: "link.missing" }).value, after({ type: "link.invalid" }).value, after({ type: "link.expired" }).value]).toEqual(["linkMissing", "linkInvalid", "linkExpired"])
  })

  it("ends a link whose user left the old address, or is gone, in linkStale, and checks the new address of one still there", () => {
    for (const verified of [true, false]) {
      const stale = after(opened, { type: "user.found", bound: false, verified })
      expect([stale.status, stale.value], String(verified)).toEqual(["done", "linkStale"])
      expect(after(opened, { type: "user.found", bound: true, verified }).value, String(verified)).toBe("findingNewEmail")
    }
    expect(after(opened, { type: "user.missing" }).value).toBe("linkStale")
  })

  it("ends in newEmailTaken when another account took the new address since the mail", () => {
    const taken = after(opened, bound, { type: "newEmail.taken" })
    expect([taken.status, taken.value]).toEqual(["done", "newEmailTaken"])
  })

  it("keeps the store's error of each lookup and of the change, and fails the change", () => {
    const down = new Error("down")
    const user = after(opened, { type: "lookup.failed", error: down })
    expect([user.status, user.value, user.context.error]).toEqual(["done", "changeFailed", down])
    const newEmail = after(opened, bound, { type: "lookup.failed", error: down })
    expect([newEmail.status, newEmail.value, newEmail.context.error]).toEqual(["done", "changeFailed", down])
    const update = after(opened, bound, { type: "newEmail.free" }, { type: "update.failed", error: down })
    expect([update.status, update.value, update.context.error, update.context.noticeFailed]).toEqual(["done", "changeFailed", down, undefined])
  })

  it("changes the address however the notice to the old one went, and keeps that the notice failed, with its error", () => {
    const sent = after(...changed, { type: "mail.sent" })
    expect([sent.status, sent.value, sent.context]).toEqual(["done", "emailChanged", { link }])
    const smtp = new Error("smtp down")
    const failed = after(...changed, { type: "mail.failed", error: smtp })
    expect([failed.status, failed.value, failed.context.noticeFailed, failed.context.error]).toEqual(["done", "emailChanged", true, smtp])
  })
})
