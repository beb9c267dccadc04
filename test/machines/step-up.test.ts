/**
 * The step-up machine on its own (authflow/machines), driven with the events its one effect
 * (`findStepUp`) sends: the edges of each guard that makes an authentication recent (the user the
 * auth context names, `maxAge` to the millisecond, a revocation at the very moment of the sign-in,
 * `mfa` when a second factor is demanded), where a step-up that is due goes (a second factor the
 * user has, or signing in again), and what the context keeps on each way out.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { stepUpMachine, type StepUpAuthContext, type StepUpDemand, type StepUpEvent, type StepUpFound } from "../../src/machines/step-up.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/step-up.js", async (load) => (await import("./load-per-test.js")).perTestExports("step-up", await load()))
loadMachinesPerTest("step-up")

const demand: StepUpDemand = { maxAge: 300, factor: "any", callbackUrl: "/settings" }
const user = { id: "u1", email: "ada@example.test", emailVerified: null }
const authTime = 1_700_000_000_000
const authContext: StepUpAuthContext = { userId: "u1", authTime, amr: ["pwd"] }
/** What `findStepUp` reports by default: the user authenticated one second ago, no factors. */
const facts: StepUpFound = { type: "stepUp.found", user, authContext, factors: 0, backupCodes: 0, emailCode: false, now: authTime + 1_000 }

/** The machine with this demand (`factor: "any"`, 300 seconds by default) after these events, from its start. */
function after(overrides: Partial<StepUpDemand>, ...events: StepUpEvent[]) {
  const actor = createActor(stepUpMachine, { input: { ...demand, ...overrides } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

/** The state a `stepUp.found` with these facts ends in, for this demand. */
const endsIn = (overrides: Partial<StepUpDemand>, found: Partial<StepUpFound>) => after(overrides, { ...facts, ...found }).value

describe("step-up machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(stepUpMachine)).toEqual(["failed", "reauthenticationRequired", "recent", "secondFactorRequired", "secondFactorUnavailable", "signInRequired"])
  })

  it("is named step-up (runFlow's errors name the flow by it)", () => {
    expect(stepUpMachine.id).toBe("step-up")
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(stepUpMachine)).toEqual({ findingUser: "findStepUp" })
  })

  it("starts finding the user with the demand as its whole context", () => {
    const start = after({ maxAge: 60, factor: "second", callbackUrl: "/billing" })
    expect([start.status, start.value]).toEqual(["active", "findingUser"])
    expect(start.context).toStrictEqual({ maxAge: 60, factor: "second", callbackUrl: "/billing" })
  })

  it("ends in signInRequired when nobody is signed in, and keeps the error when the lookup fails", () => {
    const out = after({}, { type: "stepUp.signedOut" })
    expect([out.status, out.value, out.context.user, out.context.error]).toEqual(["done", "signInRequired", undefined, undefined])
    const down = new Error("down")
    const failed = after({}, { type: "stepUp.failed", error: down })
    expect([failed.status, failed.value, failed.context.error, failed.context.user]).toEqual(["done", "failed", down, undefined])
  })

  it("lets a recent authentication through, keeping the user and their auth context but no methods", () => {
    const recent = after({}, facts)
    expect([recent.status, recent.value]).toEqual(["done", "recent"])
    expect(recent.context).toStrictEqual({ ...demand, user, authContext })
  })

  it("counts maxAge to the millisecond: an authentication exactly maxAge seconds old is recent, one a millisecond older is not", () => {
    expect(endsIn({ maxAge: 300 }, { now: authTime + 300_000 })).toBe("recent")
    expect(endsIn({ maxAge: 300 }, { now: authTime + 300_001 })).toBe("reauthenticationRequired")
    expect(endsIn({ maxAge: 0 }, { now: authTime })).toBe("recent")
    expect(endsIn({ maxAge: 0 }, { now: authTime + 1 })).toBe("reauthenticationRequired")
  })

  it("takes the auth context only when it names the signed-in user", () => {
    const otherUser = after({}, { ...facts, authContext: { ...authContext, userId: "u2" } })
    expect([otherUser.value, otherUser.context.user, otherUser.context.authContext]).toEqual(["reauthenticationRequired", user, { ...authContext, userId: "u2" }])
    const none = after({}, { ...facts, authContext: undefined })
    expect(none.value).toBe("reauthenticationRequired")
    // Without an auth context, the context keeps none (not even the key).
    expect(none.context).toStrictEqual({ ...demand, user })
  })

  it("refuses an authentication made before the sessions were revoked, or at that very moment", () => {
    expect(endsIn({}, { revokedAt: authTime - 1 })).toBe("recent")
    expect(endsIn({}, { revokedAt: authTime })).toBe("reauthenticationRequired")
    expect(endsIn({}, { revokedAt: authTime + 500 })).toBe("reauthenticationRequired")
  })

  it("demands mfa in the auth context when a second factor is asked for; any factor otherwise", () => {
    expect(endsIn({ factor: "second" }, { authContext: { ...authContext, amr: ["pwd", "mfa"] } })).toBe("recent")
    expect(endsIn({ factor: "second" }, { authContext: { ...authContext, amr: ["pwd"] } })).toBe("secondFactorUnavailable")
    expect(endsIn({ factor: "second" }, { authContext: { ...authContext, amr: [] } })).toBe("secondFactorUnavailable")
    expect(endsIn({ factor: "any" }, { authContext: { ...authContext, amr: [] } })).toBe("recent")
  })

  it("asks for a second factor the user has, keeping each method they can pass, in order", () => {
    const old = { now: authTime + 300_001 }
    const cases: [Partial<StepUpFound>, string[]][] = [
      [{ factors: 1 }, ["totp"]],
      [{ backupCodes: 1 }, ["backup"]],
      [{ emailCode: true }, ["email"]],
      [{ factors: 2, backupCodes: 10, emailCode: true }, ["totp", "backup", "email"]],
      [{ factors: 1, emailCode: true }, ["totp", "email"]],
    ]
    for (const [found, methods] of cases) {
      const due = after({}, { ...facts, ...old, ...found })
      expect([due.status, due.value, due.context.methods, due.context.user], JSON.stringify(found)).toEqual(["done", "secondFactorRequired", methods, user])
    }
    // A second factor demanded goes the same way, a recent sign-in without mfa included.
    const demanded = after({ factor: "second" }, { ...facts, factors: 1 })
    expect([demanded.value, demanded.context.methods, demanded.context.authContext]).toEqual(["secondFactorRequired", ["totp"], authContext])
  })

  it("sends a user without a second factor to sign in again, unless a second factor was demanded", () => {
    const again = after({}, { ...facts, now: authTime + 300_001 })
    expect([again.status, again.value, again.context.methods, again.context.user]).toEqual(["done", "reauthenticationRequired", undefined, user])
    const unavailable = after({ factor: "second" }, { ...facts, now: authTime + 300_001 })
    expect([unavailable.status, unavailable.value, unavailable.context.methods, unavailable.context.user]).toEqual(["done", "secondFactorUnavailable", undefined, user])
  })

  it("does not ask a recent authentication for a second factor the user has", () => {
    const recent = after({}, { ...facts, factors: 1, backupCodes: 3, emailCode: true })
    expect([recent.value, recent.context.methods]).toEqual(["recent", undefined])
  })
})
