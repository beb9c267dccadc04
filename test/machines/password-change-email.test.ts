/**
 * The email change request machine on its own (authflow/machines), driven with the events its
 * effects send: which new addresses it refuses and why (not one, or the current one), the password
 * check, a taken new address answered as a free one (its owner told), and what it keeps of each
 * failure.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { passwordChangeEmailMachine, type PasswordChangeEmailEvent } from "../../src/machines/password-change-email.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/password-session.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-session", await load()))
vi.mock("../../src/machines/password-change-email.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-change-email", await load()))
loadMachinesPerTest("csrf-check", "rate-limit", "password-session", "password-change-email")

/** The machine after these events, from its start. */
function after(...events: PasswordChangeEmailEvent[]) {
  const actor = createActor(passwordChangeEmailMachine).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const user = { id: "u1", email: "ada@old.test" }
const newEmail = "ada@new.test"
const counted: PasswordChangeEmailEvent[] = [{ type: "csrf.valid" }, { type: "session.user", user }, { type: "rateLimit.counted", hits: [] }]
const checked: PasswordChangeEmailEvent[] = [...counted, { type: "change.read", newEmail }, { type: "password.checked", valid: true }]

describe("password change email machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(passwordChangeEmailMachine)).toEqual(["changeFailed", "changeRefused", "changeRequested", "csrfRejected", "mailFailed", "noPasswordAccount", "passwordRejected", "rateLimited", "signInRequired"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(passwordChangeEmailMachine)).toEqual({
      validatingInput: "checkCsrf",
      findingSession: "findSessionUser",
      checkingRateLimit: "checkRateLimit",
      readingChange: "readChange",
      checkingPassword: "checkPassword",
      findingNewEmail: "findNewEmail",
      mailingConfirmation: "mailConfirmation",
      notifyingOwner: "notifyOwner",
    })
  })

  it("counts the request against the signed-in user's address, and asks anybody else to sign in", () => {
    const counting = after({ type: "csrf.valid" }, { type: "session.user", user })
    expect([counting.value, counting.context.user, counting.context.rateLimitIdentity]).toEqual(["checkingRateLimit", user, user.email])
    expect(after({ type: "csrf.valid" }, { type: "session.none" }).value).toBe("signInRequired")
    const down = new Error("down")
    const failed = after({ type: "csrf.valid" }, { type: "session.failed", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "changeFailed", down])
  })

  it("refuses a new address that is missing, has a problem, or is the current one, and keeps why", () => {
    const cases: [PasswordChangeEmailEvent, string][] = [
      [{ type: "change.read" }, "invalid-email"],
      [{ type: "change.read", emailProblem: "missing" }, "invalid-email"],
      [{ type: "change.read", newEmail, emailProblem: "invalid" }, "invalid-email"],
      [{ type: "change.read", newEmail: user.email, emailProblem: "invalid" }, "invalid-email"],
      [{ type: "change.read", newEmail: user.email }, "same-email"],
    ]
    for (const [read, refusal] of cases) {
      const refused = after(...counted, read)
      expect([refused.status, refused.value, refused.context.refusal, refused.context.newEmail], JSON.stringify(read)).toEqual(["done", "changeRefused", refusal, undefined])
    }
    const checking = after(...counted, { type: "change.read", newEmail })
    expect([checking.value, checking.context.newEmail, checking.context.refusal]).toEqual(["checkingPassword", newEmail, undefined])
  })

  it("goes on only with the right password, and ends in noPasswordAccount for a user without one", () => {
    expect(after(...checked).value).toBe("findingNewEmail")
    expect(after(...counted, { type: "change.read", newEmail }, { type: "password.checked", valid: false }).value).toBe("passwordRejected")
    expect(after(...counted, { type: "change.read", newEmail }, { type: "account.none" }).value).toBe("noPasswordAccount")
  })

  it("mails a free new address its confirmation, and a taken one's owner, both answered alike", () => {
    expect(after(...checked, { type: "newEmail.free" }).value).toBe("mailingConfirmation")
    expect(after(...checked, { type: "newEmail.taken" }).value).toBe("notifyingOwner")
    for (const found of [{ type: "newEmail.free" }, { type: "newEmail.taken" }] as const) {
      const requested = after(...checked, found, { type: "mail.sent" })
      expect([requested.status, requested.value, requested.context.error], found.type).toEqual(["done", "changeRequested", undefined])
      const smtp = new Error("smtp down")
      const failed = after(...checked, found, { type: "mail.failed", error: smtp })
      expect([failed.status, failed.value, failed.context.error], found.type).toEqual(["done", "mailFailed", smtp])
    }
  })

  it("keeps the store's error when the password check or the address lookup fails", () => {
    const down = new Error("down")
    const check = after(...counted, { type: "change.read", newEmail }, { type: "check.failed", error: down })
    expect([check.status, check.value, check.context.error]).toEqual(["done", "changeFailed", down])
    const lookup = after(...checked, { type: "lookup.failed", error: down })
    expect([lookup.status, lookup.value, lookup.context.error]).toEqual(["done", "changeFailed", down])
  })
})
