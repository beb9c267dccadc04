/**
 * The signed-in password change machine on its own (authflow/machines), driven with the events its
 * effects send: who it counts the attempt against, how it judges the current password and the new
 * one, a write another change won, what it keeps of each failure before the write (the change
 * fails) and after it (logged, the change stands), and how the policy decides whether the other
 * sessions end and the account is mailed.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { passwordChangeMachine, type PasswordChangeEvent } from "../../src/machines/password-change.js"
import type { PasswordChangePolicy } from "../../src/machines/password-reset.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/password-session.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-session", await load()))
vi.mock("../../src/machines/password-change.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-change", await load()))
loadMachinesPerTest("csrf-check", "rate-limit", "password-session", "password-change")

const everything: PasswordChangePolicy = { endsOtherSessions: true, mailsNotice: true }

/** The machine with this policy (none: a context without one) after these events, from its start. */
function after(policy: PasswordChangePolicy | undefined, ...events: PasswordChangeEvent[]) {
  const actor = createActor(passwordChangeMachine, { input: { policy } as { policy: PasswordChangePolicy } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const user = { id: "u1", email: "ada@example.test" }
const counted: PasswordChangeEvent[] = [{ type: "csrf.valid" }, { type: "session.user", user }, { type: "rateLimit.counted", hits: [] }]
const checked: PasswordChangeEvent[] = [...counted, { type: "password.checked", valid: true }, { type: "attempt.refunded" }]
const written: PasswordChangeEvent[] = [...checked, { type: "newPassword.read" }, { type: "password.written" }]

describe("password change machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(passwordChangeMachine)).toEqual(["changeFailed", "changeRefused", "csrfRejected", "noPasswordAccount", "passwordChanged", "passwordRejected", "rateLimited", "signInRequired"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(passwordChangeMachine)).toEqual({
      validatingInput: "checkCsrf",
      findingSession: "findSessionUser",
      checkingRateLimit: "checkRateLimit",
      checkingPassword: "checkCurrentPassword",
      refundingAttempt: "refundAttempt",
      readingPassword: "readNewPassword",
      writingPassword: "writePassword",
      endingOtherSessions: "endOtherSessions",
      notifying: "notifyPasswordChanged",
    })
  })

  it("starts with the policy it is given, and counts the attempt against the signed-in user's address", () => {
    expect(after(everything).context).toStrictEqual({ policy: everything })
    const counting = after(everything, { type: "csrf.valid" }, { type: "session.user", user })
    expect([counting.value, counting.context.user, counting.context.rateLimitIdentity]).toEqual(["checkingRateLimit", user, user.email])
    expect(after(everything, { type: "csrf.valid" }, { type: "session.none" }).value).toBe("signInRequired")
  })

  it("goes on only with the right current password, and ends in noPasswordAccount for a user without one", () => {
    expect(after(everything, ...counted, { type: "password.checked", valid: true }).value).toBe("refundingAttempt")
    const wrong = after(everything, ...counted, { type: "password.checked", valid: false })
    expect([wrong.status, wrong.value]).toEqual(["done", "passwordRejected"])
    expect(after(everything, ...counted, { type: "account.none" }).value).toBe("noPasswordAccount")
    expect(after(everything, ...checked).value).toBe("readingPassword")
  })

  it("keeps why a new password was refused, and writes one the rules accept", () => {
    for (const problem of ["too-short", "too-long", "not-a-string", "refused-password"] as const) {
      const refused = after(everything, ...checked, { type: "newPassword.read", problem })
      expect([refused.status, refused.value, refused.context.refusal], problem).toEqual(["done", "changeRefused", problem])
    }
    const writing = after(everything, ...checked, { type: "newPassword.read" })
    expect([writing.value, writing.context.refusal]).toEqual(["writingPassword", undefined])
  })

  it("rejects the current password when another change or a reset wrote first", () => {
    const raced = after(everything, ...checked, { type: "newPassword.read" }, { type: "password.raced" })
    expect([raced.status, raced.value]).toEqual(["done", "passwordRejected"])
  })

  it("keeps the error of each failure before the write, and fails the change", () => {
    const down = new Error("down")
    const session = after(everything, { type: "csrf.valid" }, { type: "session.failed", error: down })
    expect([session.status, session.value, session.context.error]).toEqual(["done", "changeFailed", down])
    const check = after(everything, ...counted, { type: "check.failed", error: down })
    expect([check.status, check.value, check.context.error]).toEqual(["done", "changeFailed", down])
    const write = after(everything, ...checked, { type: "newPassword.read" }, { type: "write.failed", error: down })
    expect([write.status, write.value, write.context.error, write.context.afterWriteFailed]).toEqual(["done", "changeFailed", down, undefined])
  })

  it("ends the other sessions and mails the account as the policy says, both by default", () => {
    const cases: [PasswordChangePolicy | undefined, string][] = [
      [everything, "endingOtherSessions"],
      [undefined, "endingOtherSessions"],
      [{ endsOtherSessions: true }, "endingOtherSessions"],
      [{ endsOtherSessions: false, mailsNotice: true }, "notifying"],
      [{ endsOtherSessions: false }, "notifying"],
      [{ endsOtherSessions: false, mailsNotice: false }, "passwordChanged"],
    ]
    for (const [policy, state] of cases) expect(after(policy, ...written).value, JSON.stringify(policy)).toBe(state)
    expect(after(undefined, ...written, { type: "sessions.ended" }).value).toBe("notifying")
    expect(after({ endsOtherSessions: true, mailsNotice: false }, ...written, { type: "sessions.ended" }).value).toBe("passwordChanged")
    const changed = after(everything, ...written, { type: "sessions.ended" }, { type: "mail.sent" })
    expect([changed.status, changed.value, changed.context.afterWriteFailed, changed.context.error]).toEqual(["done", "passwordChanged", undefined, undefined])
  })

  it("keeps each step that failed after the write, in order, with the last error, and the change stands", () => {
    const [sessions, mail] = [new Error("sessions down"), new Error("mail down")]
    const first = after(everything, ...written, { type: "sessions.failed", error: sessions })
    expect([first.value, first.context.afterWriteFailed, first.context.error]).toEqual(["notifying", ["sessions"], sessions])
    const both = after(everything, ...written, { type: "sessions.failed", error: sessions }, { type: "mail.failed", error: mail })
    expect([both.status, both.value, both.context.afterWriteFailed, both.context.error]).toEqual(["done", "passwordChanged", ["sessions", "mail"], mail])
    const mailOnly = after({ endsOtherSessions: false, mailsNotice: true }, ...written, { type: "mail.failed", error: mail })
    expect([mailOnly.status, mailOnly.value, mailOnly.context.afterWriteFailed, mailOnly.context.error]).toEqual(["done", "passwordChanged", ["mail"], mail])
  })
})
