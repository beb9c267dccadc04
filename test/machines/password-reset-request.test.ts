/**
 * The forgot-password machine on its own (authflow/machines), driven with the events its effects
 * send: which addresses it refuses before counting, what it keeps of the address and the account
 * for the mail, that a known address, an unknown one and a failed mail all end alike, and where the
 * policy (resets by code or by link) sends them, with the code each reports.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { passwordResetRequestMachine, type PasswordResetRequestEvent, type PendingResetCode, type ResetRequestPolicy } from "../../src/machines/password-reset-request.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/password-reset-request.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-reset-request", await load()))
loadMachinesPerTest("csrf-check", "rate-limit", "password-reset-request")

const byCode: ResetRequestPolicy = { resetsByCode: true }
const byLink: ResetRequestPolicy = { resetsByCode: false }

/** The machine with this policy (none: started with no input) after these events, from its start. */
function after(policy: ResetRequestPolicy | undefined, ...events: PasswordResetRequestEvent[]) {
  const actor = createActor(passwordResetRequestMachine, { input: policy && { policy } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const email = "ada@example.test"
const user = { id: "u1", email }
const code: PendingResetCode = { bound: "bound-hash", codeHash: "code-hash", expiresAt: 1_700_000_600_000 }
const counted: PasswordResetRequestEvent[] = [{ type: "csrf.valid" }, { type: "request.read", email }, { type: "rateLimit.counted", hits: [] }]
const found: PasswordResetRequestEvent = { type: "account.found", user, hash: "$argon2id$hash" }

describe("password reset request machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(passwordResetRequestMachine)).toEqual(["codeSent", "csrfRejected", "rateLimited", "requestFailed", "requestRefused", "resetSent"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(passwordResetRequestMachine)).toEqual({
      validatingInput: "checkCsrf",
      readingRequest: "readRequest",
      checkingRateLimit: "checkRateLimit",
      findingAccount: "findAccount",
      mailingResetLink: "mailResetLink",
      sealingDummyLink: "sealDummyLink",
    })
  })

  it("starts with the policy it is given, and without one when it is given none", () => {
    expect(after(byCode).context).toStrictEqual({ policy: byCode })
    expect(after(undefined).context).toStrictEqual({})
    expect(createActor(passwordResetRequestMachine, { input: {} }).start().getSnapshot().context).toStrictEqual({})
  })

  it("refuses a missing address, and one the reader found a problem with, before counting it", () => {
    const cases: [string, PasswordResetRequestEvent][] = [
      ["no address, no problem named", { type: "request.read" }],
      ["no address, a problem", { type: "request.read", emailProblem: "missing" }],
      ["an address with a problem", { type: "request.read", email, emailProblem: "invalid" }],
    ]
    for (const [name, read] of cases) {
      const refused = after(byLink, { type: "csrf.valid" }, read)
      expect([refused.status, refused.value, refused.context.email, refused.context.rateLimitIdentity], name).toEqual(["done", "requestRefused", undefined, undefined])
    }
  })

  it("counts a readable address against its own budget, and keeps it", () => {
    const counting = after(byLink, { type: "csrf.valid" }, { type: "request.read", email })
    expect([counting.value, counting.context.email, counting.context.rateLimitIdentity]).toEqual(["checkingRateLimit", email, email])
  })

  it("keeps the account the address names and the hash the link is bound to", () => {
    const mailing = after(byLink, ...counted, found)
    expect([mailing.value, mailing.context.user, mailing.context.hash]).toEqual(["mailingResetLink", user, "$argon2id$hash"])
    expect(after(byLink, ...counted, { type: "account.unknown" }).value).toBe("sealingDummyLink")
  })

  it("keeps the store's error when the lookup fails", () => {
    const down = new Error("down")
    const failed = after(byLink, ...counted, { type: "lookup.failed", error: down })
    expect([failed.status, failed.value, failed.context.error, failed.context.user]).toEqual(["done", "requestFailed", down, undefined])
  })

  it("answers a sent mail, a failed one and an unknown address alike, by link unless the policy resets by code", () => {
    for (const policy of [undefined, byLink]) {
      expect(after(policy, ...counted, found, { type: "mail.sent" }).value, JSON.stringify(policy)).toBe("resetSent")
      expect(after(policy, ...counted, found, { type: "mail.failed", error: new Error("smtp") }).value, JSON.stringify(policy)).toBe("resetSent")
      expect(after(policy, ...counted, { type: "account.unknown" }, { type: "dummyLink.sealed" }).value, JSON.stringify(policy)).toBe("resetSent")
    }
    const sent = after(byCode, ...counted, found, { type: "mail.sent", code })
    expect([sent.status, sent.value, sent.context.pendingCode, sent.context.mailFailed]).toEqual(["done", "codeSent", code, undefined])
  })

  it("keeps that the mail failed, with its error, and the code it carried", () => {
    const smtp = new Error("smtp down")
    const failed = after(byCode, ...counted, found, { type: "mail.failed", error: smtp, code })
    expect([failed.status, failed.value, failed.context.mailFailed, failed.context.error, failed.context.pendingCode]).toEqual(["done", "codeSent", true, smtp, code])
  })

  it("keeps the stand-in code an unknown address's sealing reports", () => {
    const standIn: PendingResetCode = { bound: "none", codeHash: "no code hashes to this", expiresAt: 1_700_000_600_000 }
    const sealed = after(byCode, ...counted, { type: "account.unknown" }, { type: "dummyLink.sealed", code: standIn })
    expect([sealed.status, sealed.value, sealed.context.pendingCode, sealed.context.user]).toEqual(["done", "codeSent", standIn, undefined])
  })
})
