/**
 * The second-factor machine on its own (authflow/machines), driven with the events its effects
 * send: the edges of its guards (the last attempt, the moment an emailed code expires, "remember
 * this device" where the configuration does not offer it) and what its context keeps between
 * requests.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { secondFactorMachine, type FirstFactor, type SecondFactorEvent, type SecondFactorPolicy } from "../../src/machines/second-factor.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("./load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/second-factor.js", async (load) => (await import("./load-per-test.js")).perTestExports("second-factor", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "flow-claim", "second-factor")

const firstFactor: FirstFactor = {
  user: { id: "u1", email: "ada@example.test" },
  account: { provider: "credentials", type: "credentials", providerAccountId: "u1" },
  callbackUrl: "https://app.test/dashboard",
  methods: ["totp", "backup", "email"],
}
const policy: SecondFactorPolicy = { databaseSessions: false, newUserPage: false, secondFactor: true, maxAttempts: 3, trustsDevices: true }
/** The flow claimed, the CSRF token valid, the request within its budgets. */
const admitted: SecondFactorEvent[] = [{ type: "flow.fresh" }, { type: "csrf.valid" }, { type: "rateLimit.counted", hits: [] }]
const expiresAt = Date.parse("2026-01-01T00:10:00.000Z")

/** A flow started for `input`, and a way to send it one request's events. */
function start(input: FirstFactor = firstFactor) {
  const actor = createActor(secondFactorMachine, { input }).start()
  const request = (...events: SecondFactorEvent[]) => {
    for (const event of events) actor.send(event)
    return actor.getSnapshot()
  }
  return { actor, request }
}

const submitted = (method: "totp" | "backup" | "email", overrides: Partial<SecondFactorPolicy> = {}, rememberDevice = false): SecondFactorEvent => ({
  type: "code.submitted",
  method,
  code: "123456",
  rememberDevice,
  policy: { ...policy, ...overrides },
})

describe("second-factor machine", () => {
  it("waits for a code, and takes the configuration's policy with every request", () => {
    const { request } = start()
    expect(request().value).toBe("awaitingCode")
    const checking = request(submitted("totp", { maxAttempts: 7 }), ...admitted)
    expect([checking.value, checking.context.policy?.maxAttempts, checking.context.submission]).toEqual(["checkingTotp", 7, { method: "totp", code: "123456", rememberDevice: false }])
  })

  it("goes back to awaiting a code while the refusal leaves an attempt, and ends at the last one (maxAttempts - 1 refused before it)", () => {
    const { request } = start()
    // Two refusals of three: the flow waits again, attempts counted.
    for (const attempts of [1, 2]) {
      const refused = request(submitted("totp"), ...admitted, { type: "totp.unmatched" })
      expect([refused.value, refused.context.attempts, refused.context.refusal]).toEqual(["awaitingCode", attempts, "wrong-code"])
    }
    // With maxAttempts - 1 refused, the next refusal is the last: no attempt is left.
    const last = request(submitted("totp"), ...admitted, { type: "totp.unmatched" })
    expect([last.status, last.value, last.context.attempts]).toEqual(["done", "attemptsExhausted", 2])
  })

  it("reads maxAttempts from the request that is refused: a lower one ends a flow that had attempts left", () => {
    const { request } = start()
    expect(request(submitted("backup"), ...admitted, { type: "backupCode.unknown" }).context.attempts).toBe(1)
    const ended = request(submitted("backup", { maxAttempts: 2 }), ...admitted, { type: "backupCode.unknown" })
    expect([ended.value, ended.context.refusal]).toEqual(["attemptsExhausted", "unknown-backup-code"])
  })

  it("refuses an emailed code typed at the moment it expires, and takes it a millisecond before", () => {
    const sent = () => {
      const flow = start()
      const waiting = flow.request({ type: "emailCode.requested", policy }, ...admitted, { type: "emailCode.sent", hash: "h", expiresAt })
      expect([waiting.value, waiting.context.emailCode, waiting.context.refusal]).toEqual(["awaitingCode", { hash: "h", expiresAt }, undefined])
      return flow
    }
    const expired = sent().request(submitted("email"), ...admitted, { type: "emailCode.hashed", hashes: ["h"], now: expiresAt })
    expect([expired.value, expired.context.refusal, expired.context.attempts]).toEqual(["awaitingCode", "expired-email-code", 1])
    const inTime = sent().request(submitted("email"), ...admitted, { type: "emailCode.hashed", hashes: ["h"], now: expiresAt - 1 })
    expect([inTime.value, inTime.context.passedWith]).toEqual(["encodingToken", "email"])
    // Another code in time is a wrong one.
    const wrong = sent().request(submitted("email"), ...admitted, { type: "emailCode.hashed", hashes: ["other"], now: expiresAt - 1 })
    expect(wrong.context.refusal).toBe("wrong-code")
  })

  it("refuses an emailed code before one was sent, without hashing it", () => {
    const early = start().request(submitted("email"), ...admitted)
    expect([early.value, early.context.refusal, early.context.attempts]).toEqual(["awaitingCode", "no-email-code", 1])
  })

  it("remembers the device only when the person asks and the configuration offers it", () => {
    const passed = (trustsDevices: boolean, rememberDevice: boolean) => start().request(submitted("backup", { trustsDevices }, rememberDevice), ...admitted, { type: "backupCode.used" }).value
    expect(passed(true, true)).toBe("trustingDevice")
    // trustedDeviceDays: 0 removes the choice: a form that still sends it is not remembered.
    expect(passed(false, true)).toBe("encodingToken")
    expect(passed(true, false)).toBe("encodingToken")
  })

  it("signs in whether the device could be remembered or not", () => {
    for (const remembered of [{ type: "device.trusted" }, { type: "device.failed", error: new Error("down") }] as const) {
      const { request } = start()
      const done = request(submitted("backup", {}, true), ...admitted, { type: "backupCode.used" }, remembered, { type: "token.encoded" })
      expect([done.value, done.context.passedWith], remembered.type).toEqual(["signedIn", "backup"])
    }
  })

  it("refuses a method the sign-in does not offer before counting it against the limiter", () => {
    const { request } = start({ ...firstFactor, methods: ["email"] })
    const refused = request(submitted("totp"), { type: "flow.fresh" }, { type: "csrf.valid" })
    expect([refused.status, refused.value]).toEqual(["done", "methodUnavailable"])
    expect(start({ ...firstFactor, methods: ["totp"] }).request({ type: "emailCode.requested", policy }, { type: "flow.fresh" }, { type: "csrf.valid" }).value).toBe("methodUnavailable")
  })

  it("accepts a TOTP code once its step is claimed: a step taken before is a replayed code", () => {
    const matched = (claim: SecondFactorEvent) => start().request(submitted("totp"), ...admitted, { type: "totp.matched", factorId: "f1", step: 42 }, claim)
    const claimed = matched({ type: "step.claimed" })
    expect([claimed.value, claimed.context.matched, claimed.context.passedWith]).toEqual(["encodingToken", { factorId: "f1", step: 42 }, "totp"])
    const taken = matched({ type: "step.taken" })
    expect([taken.value, taken.context.refusal]).toEqual(["awaitingCode", "replayed-code"])
  })

  it("clears the last refusal when the next request arrives", () => {
    const { request } = start()
    expect(request(submitted("totp"), ...admitted, { type: "totp.unmatched" }).context.refusal).toBe("wrong-code")
    expect(request(submitted("totp")).context.refusal).toBeUndefined()
  })

  it("issues a database session for a new user and sends them to pages.newUser", () => {
    const { request } = start({ ...firstFactor, isNewUser: true })
    const done = request(submitted("backup", { databaseSessions: true, newUserPage: true }), ...admitted, { type: "backupCode.used" }, { type: "session.created", providerTokens: false })
    expect(done.value).toBe("signedInNewUser")
  })
})
