/**
 * The reset-by-code machine on its own (authflow/machines), driven with the events its effects
 * send: the claim of its sealed flow, the shared code check (expired at the very millisecond, the
 * right code under any secret, five wrong tries), and the shared steps after the code (the account
 * no longer bound to the password hash the code was mailed for ends in `codeStale`, a refused new
 * password waits again without counting a try).
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { passwordResetCodeMachine, type PasswordResetCodeEvent, type PasswordResetCodeStart } from "../../src/machines/password-reset-code.js"
import type { PasswordChangePolicy } from "../../src/machines/password-reset.js"
import { EMAIL_CODE_MAX_ATTEMPTS } from "../../src/machines/emailed-code.js"
import { Concealed } from "../../src/core/concealed.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"
import { newPasswordEffects } from "./new-password.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("./load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/emailed-code.js", async (load) => (await import("./load-per-test.js")).perTestExports("emailed-code", await load()))
vi.mock("../../src/machines/password-link.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-link", await load()))
vi.mock("../../src/machines/password-reset.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-reset", await load()))
vi.mock("../../src/machines/password-reset-code.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-reset-code", await load()))
loadMachinesPerTest("csrf-check", "rate-limit", "flow-claim", "emailed-code", "password-link", "password-reset", "password-reset-code")

const expiresAt = 1_700_000_600_000
const start: PasswordResetCodeStart = { link: { userId: "u1", email: "ada@example.test" }, bound: "bound-hash", codeHash: "right-hash", expiresAt }
const endsSessions: PasswordChangePolicy = { endsOtherSessions: true }

/** The machine after these events, from its start. */
function after(...events: PasswordResetCodeEvent[]) {
  const actor = createActor(passwordResetCodeMachine, { input: start }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

/** The events of one request up to the code check: the typed code, the first claim, the CSRF check, the count. */
const submitted = (policy: PasswordChangePolicy = endsSessions): PasswordResetCodeEvent[] => [{ type: "code.submitted", code: "123456", policy }, { type: "flow.fresh" }, { type: "csrf.valid" }, { type: "rateLimit.counted", hits: [] }]
const hashed = (hashes: string[], now = expiresAt - 1): PasswordResetCodeEvent => ({ type: "emailCode.hashed", hashes, now })
const right = hashed(["right-hash"])
const wrong = hashed(["wrong-hash"])
const bound: PasswordResetCodeEvent = { type: "account.found", bound: true, verified: true }

describe("password reset code machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(passwordResetCodeMachine)).toEqual(["attemptsExhausted", "claimFailed", "codeExpired", "codeStale", "csrfRejected", "flowReplayed", "passwordReset", "rateLimited", "resetFailed"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(passwordResetCodeMachine)).toEqual({
      claimingFlow: "claimFlow",
      validatingInput: "checkCsrf",
      checkingRateLimit: "checkRateLimit",
      checkingCode: "hashCode",
      ...newPasswordEffects,
    })
  })

  it("waits for the code with what the request left and no wrong try, and keeps the typed code concealed with the request's policy", () => {
    const waiting = after()
    expect([waiting.status, waiting.value, waiting.context]).toEqual(["active", "awaitingCode", { ...start, attempts: 0 }])
    const claiming = after({ type: "code.submitted", code: "123456", policy: endsSessions })
    expect([claiming.value, claiming.context.policy, claiming.context.typed instanceof Concealed, claiming.context.typed?.reveal()]).toEqual(["claimingFlow", endsSessions, true, "123456"])
  })

  it("ends a flow claimed before in flowReplayed, keeps a failing claim's error, and refuses a request without its CSRF token", () => {
    expect(after({ type: "code.submitted", code: "123456", policy: endsSessions }, { type: "flow.replayed" }).value).toBe("flowReplayed")
    const down = new Error("replay store down")
    const failed = after({ type: "code.submitted", code: "123456", policy: endsSessions }, { type: "flow.claimFailed", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "claimFailed", down])
    expect(after({ type: "code.submitted", code: "123456", policy: endsSessions }, { type: "flow.fresh" }, { type: "csrf.invalid" }).value).toBe("csrfRejected")
  })

  it("checks the code only within the reset budget, or when a failed limiter lets the request through", () => {
    const claimed: PasswordResetCodeEvent[] = submitted().slice(0, 3)
    const hit = { rule: "identifier", subject: "ada@example.test", count: 6, max: 5, resetAt: expiresAt } as const
    const limited = after(...claimed, { type: "rateLimit.counted", hits: [{ ...hit, count: 5 }, hit] })
    expect([limited.status, limited.value, limited.context.exceeded]).toEqual(["done", "rateLimited", [hit]])
    // At the budget (the count includes this request): admitted.
    expect(after(...claimed, { type: "rateLimit.counted", hits: [{ ...hit, count: 5 }] }).value).toBe("checkingCode")
    expect(after(...claimed, { type: "rateLimit.failed", error: new Error("down"), failOpen: true }).value).toBe("checkingCode")
    const down = new Error("down")
    const closed = after(...claimed, { type: "rateLimit.failed", error: down, failOpen: false })
    expect([closed.value, closed.context.limiterFailed, closed.context.error]).toEqual(["rateLimited", true, down])
  })

  it("refuses a code typed at or after its expiry, even the right one, and takes the right one a millisecond before", () => {
    expect(after(...submitted(), hashed(["right-hash"], expiresAt)).value).toBe("codeExpired")
    expect(after(...submitted(), hashed(["right-hash"], expiresAt + 1)).value).toBe("codeExpired")
    expect(after(...submitted(), hashed(["right-hash"], expiresAt - 1)).value).toBe("findingAccount")
  })

  it("takes the right code under any of the secrets, and counts a wrong one or one that is not 6 digits", () => {
    expect(after(...submitted(), hashed(["new-secret-hash", "right-hash"])).value).toBe("findingAccount")
    for (const hashes of [["wrong-hash"], []]) {
      const refused = after(...submitted(), hashed(hashes))
      expect([refused.status, refused.value, refused.context.attempts], hashes.join()).toEqual(["active", "awaitingCode", 1])
    }
  })

  it("ends the flow at the fifth wrong code, each earlier one counted", () => {
    expect(EMAIL_CODE_MAX_ATTEMPTS).toBe(5)
    const tries = (count: number) => Array.from({ length: count }, () => [...submitted(), wrong]).flat()
    const fourth = after(...tries(EMAIL_CODE_MAX_ATTEMPTS - 1))
    expect([fourth.value, fourth.context.attempts]).toEqual(["awaitingCode", EMAIL_CODE_MAX_ATTEMPTS - 1])
    const fifth = after(...tries(EMAIL_CODE_MAX_ATTEMPTS))
    expect([fifth.status, fifth.value, fifth.context.attempts]).toEqual(["done", "attemptsExhausted", EMAIL_CODE_MAX_ATTEMPTS - 1])
    // The right code after four wrong ones still resets.
    expect(after(...tries(EMAIL_CODE_MAX_ATTEMPTS - 1), ...submitted(), right).value).toBe("findingAccount")
  })

  it("ends a code whose account's password changed since the mail, or whose account is gone, in codeStale", () => {
    for (const event of [{ type: "account.found", bound: false, verified: true }, { type: "account.missing" }] as const) {
      const stale = after(...submitted(), right, event)
      expect([stale.status, stale.value], event.type).toEqual(["done", "codeStale"])
    }
    const raced = after(...submitted(), right, bound, { type: "newPassword.read" }, { type: "password.raced" })
    expect([raced.status, raced.value]).toEqual(["done", "codeStale"])
  })

  it("waits again after a refused new password, the refusal kept and no try counted", () => {
    const refused = after(...submitted(), right, bound, { type: "newPassword.read", problem: "too-short" })
    expect([refused.status, refused.value, refused.context.refusal, refused.context.attempts]).toEqual(["active", "awaitingCode", "too-short", 0])
    expect(after(...submitted(), right, bound, { type: "newPassword.read", problem: "too-short" }, ...submitted(), right).value).toBe("findingAccount")
  })

  it("resets the password with the policy the request brought", () => {
    const kept = after(...submitted({ endsOtherSessions: false }), right, bound, { type: "newPassword.read" }, { type: "password.written" })
    expect(kept.value).toBe("notifying")
    const reset = after(...submitted(), right, bound, { type: "newPassword.read" }, { type: "password.written" }, { type: "sessions.ended" }, { type: "mail.sent" })
    expect([reset.status, reset.value, reset.context.verified, reset.context.afterWriteFailed]).toEqual(["done", "passwordReset", true, undefined])
  })
})
