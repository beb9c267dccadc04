/**
 * The password reset machine on its own (authflow/machines), driven with the events its effects
 * send: which mailed links it refuses, how it judges the account the link names (no longer bound
 * to its password hash, verified already), the new password's refusal, and what it keeps of each
 * failure, before the password was written (the reset fails) and after (logged, the reset stands).
 * The steps after the proven mail are the shared `newPasswordStates`, which the reset by code
 * spreads in too (test/machines/password-reset-code.test.ts).
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { passwordResetMachine, type PasswordChangePolicy, type PasswordResetEvent } from "../../src/machines/password-reset.js"
import { runFlow, type FlowEffects } from "../../src/machines/run-flow.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"
import { newPasswordEffects } from "./new-password.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/password-link.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-link", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/password-reset.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-reset", await load()))
loadMachinesPerTest("csrf-check", "password-link", "rate-limit", "password-reset")

const endsSessions: PasswordChangePolicy = { endsOtherSessions: true }
const keepsSessions: PasswordChangePolicy = { endsOtherSessions: false }

/** The machine with this policy (none: a context without one) after these events, from its start. */
function after(policy: PasswordChangePolicy | undefined, ...events: PasswordResetEvent[]) {
  const actor = createActor(passwordResetMachine, { input: { policy } as { policy: PasswordChangePolicy } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const link = { userId: "u1", email: "ada@example.test" }
const opened: PasswordResetEvent[] = [{ type: "csrf.valid" }, { type: "link.opened", link }, { type: "rateLimit.counted", hits: [] }]
const unverified: PasswordResetEvent = { type: "account.found", bound: true, verified: false }
const verified: PasswordResetEvent = { type: "account.found", bound: true, verified: true }
const accepted: PasswordResetEvent = { type: "newPassword.read" }
const written: PasswordResetEvent = { type: "password.written" }

describe("password reset machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(passwordResetMachine)).toEqual(["csrfRejected", "linkExpired", "linkInvalid", "linkMissing", "linkStale", "passwordReset", "rateLimited", "resetFailed", "resetRefused"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(passwordResetMachine)).toEqual({
      validatingInput: "checkCsrf",
      openingLink: "openLink",
      checkingRateLimit: "checkRateLimit",
      ...newPasswordEffects,
    })
  })

  it("starts with the policy it is given, and keeps the link it opened", () => {
    expect(after(keepsSessions).context).toStrictEqual({ policy: keepsSessions })
    const counting = after(endsSessions, { type: "csrf.valid" }, { type: "link.opened", link })
    expect([counting.value, counting.context.link]).toEqual(["checkingRateLimit", link])
  })

  it("refuses a link that is missing, invalid or expired, each in its own final state", () => {
    for (const refusal of ["missing", "invalid", "expired"] as const) {
      const refused = after(endsSessions, { type: "csrf.valid" }, { type: `link.${refusal}` })
      expect([refused.status, refused.value, refused.context.link], refusal).toEqual(["done", `link${refusal[0]!.toUpperCase()}${refusal.slice(1)}`, undefined])
    }
  })

  it("ends a link no longer bound to the account's password hash, or whose account is gone, in linkStale", () => {
    const unbound = after(endsSessions, ...opened, { type: "account.found", bound: false, verified: true })
    expect([unbound.status, unbound.value, unbound.context.verified]).toEqual(["done", "linkStale", undefined])
    expect(after(endsSessions, ...opened, { type: "account.missing" }).value).toBe("linkStale")
  })

  it("keeps whether the account's address is verified, and marks it verified after the write only when it is not", () => {
    const reading = after(endsSessions, ...opened, verified)
    expect([reading.value, reading.context.verified]).toEqual(["readingPassword", true])
    expect(after(endsSessions, ...opened, unverified).context.verified).toBe(false)
    expect(after(endsSessions, ...opened, verified, accepted, written).value).toBe("endingOtherSessions")
    expect(after(endsSessions, ...opened, unverified, accepted, written).value).toBe("markingVerified")
    expect(after(endsSessions, ...opened, unverified, accepted, written, { type: "email.verified" }).value).toBe("endingOtherSessions")
  })

  it("keeps why a new password was refused, and writes one the rules accept", () => {
    for (const problem of ["too-short", "too-long", "not-a-string", "refused-password"] as const) {
      const refused = after(endsSessions, ...opened, verified, { type: "newPassword.read", problem })
      expect([refused.status, refused.value, refused.context.refusal], problem).toEqual(["done", "resetRefused", problem])
    }
    const writing = after(endsSessions, ...opened, verified, accepted)
    expect([writing.value, writing.context.refusal]).toEqual(["writingPassword", undefined])
  })

  it("ends a write another change of the password won in linkStale", () => {
    expect(after(endsSessions, ...opened, verified, accepted, { type: "password.raced" }).value).toBe("linkStale")
  })

  it("keeps the store's error when the lookup or the write fails, and fails the reset", () => {
    const down = new Error("down")
    const lookup = after(endsSessions, ...opened, { type: "lookup.failed", error: down })
    expect([lookup.status, lookup.value, lookup.context.error, lookup.context.afterWriteFailed]).toEqual(["done", "resetFailed", down, undefined])
    const write = after(endsSessions, ...opened, verified, accepted, { type: "write.failed", error: down })
    expect([write.status, write.value, write.context.error]).toEqual(["done", "resetFailed", down])
  })

  it("ends the other sessions unless the policy keeps them, and by default when the context has no policy", () => {
    expect(after(keepsSessions, ...opened, verified, accepted, written).value).toBe("notifying")
    expect(after(endsSessions, ...opened, verified, accepted, written).value).toBe("endingOtherSessions")
    expect(after(undefined, ...opened, verified, accepted, written).value).toBe("endingOtherSessions")
    expect(after(endsSessions, ...opened, verified, accepted, written, { type: "sessions.ended" }).value).toBe("notifying")
    const reset = after(endsSessions, ...opened, verified, accepted, written, { type: "sessions.ended" }, { type: "mail.sent" })
    expect([reset.status, reset.value, reset.context.afterWriteFailed, reset.context.error]).toEqual(["done", "passwordReset", undefined, undefined])
  })

  it("keeps each step that failed after the write, in order, with the last error, and the reset stands", () => {
    const [verify, sessions, mail] = [new Error("verify down"), new Error("sessions down"), new Error("mail down")]
    const unverifiedWritten = [...opened, unverified, accepted, written]
    const first = after(endsSessions, ...unverifiedWritten, { type: "verify.failed", error: verify })
    expect([first.value, first.context.afterWriteFailed, first.context.error]).toEqual(["endingOtherSessions", ["verify"], verify])
    const second = after(endsSessions, ...unverifiedWritten, { type: "verify.failed", error: verify }, { type: "sessions.failed", error: sessions })
    expect([second.value, second.context.afterWriteFailed, second.context.error]).toEqual(["notifying", ["verify", "sessions"], sessions])
    const all = after(endsSessions, ...unverifiedWritten, { type: "verify.failed", error: verify }, { type: "sessions.failed", error: sessions }, { type: "mail.failed", error: mail })
    expect([all.status, all.value, all.context.afterWriteFailed, all.context.error]).toEqual(["done", "passwordReset", ["verify", "sessions", "mail"], mail])
    // Each on its own: the first failure starts the list.
    const sessionsOnly = after(endsSessions, ...opened, verified, accepted, written, { type: "sessions.failed", error: sessions })
    expect([sessionsOnly.value, sessionsOnly.context.afterWriteFailed, sessionsOnly.context.error]).toEqual(["notifying", ["sessions"], sessions])
    const mailOnly = after(keepsSessions, ...opened, verified, accepted, written, { type: "mail.failed", error: mail })
    expect([mailOnly.value, mailOnly.context.afterWriteFailed, mailOnly.context.error]).toEqual(["passwordReset", ["mail"], mail])
  })

  it("runs a reset of an unverified address through every effect, in order", async () => {
    const performed: string[] = []
    const answer = <TEvent extends PasswordResetEvent>(name: string, event: TEvent) => () => (performed.push(name), event)
    const effects: FlowEffects<typeof passwordResetMachine> = {
      checkCsrf: answer("checkCsrf", { type: "csrf.valid" }),
      openLink: answer("openLink", { type: "link.opened", link }),
      checkRateLimit: answer("checkRateLimit", { type: "rateLimit.counted", hits: [{ rule: "ip", subject: "198.51.100.7", count: 5, max: 5, resetAt: 0 }] }),
      findLinkedAccount: answer("findLinkedAccount", unverified),
      readNewPassword: answer("readNewPassword", accepted),
      writePassword: answer("writePassword", written),
      markVerified: answer("markVerified", { type: "email.verified" }),
      endSessions: answer("endSessions", { type: "sessions.ended" }),
      notifyPasswordChanged: answer("notifyPasswordChanged", { type: "mail.sent" }),
    }
    const snapshot = await runFlow(passwordResetMachine, effects, { input: { policy: endsSessions } })
    expect([snapshot.status, snapshot.value, snapshot.context]).toEqual(["done", "passwordReset", { policy: endsSessions, link, verified: false }])
    expect(performed).toEqual(["checkCsrf", "openLink", "checkRateLimit", "findLinkedAccount", "readNewPassword", "writePassword", "markVerified", "endSessions", "notifyPasswordChanged"])
  })
})
