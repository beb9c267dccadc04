/**
 * The factor management machine on its own (authflow/machines), driven with the events its effects
 * send: which request needs a CSRF token, where each action goes (and the refusals the guards draw:
 * another user's enrolment, a factor that is not the user's, a request it cannot read), the
 * enrolment that waits sealed for its confirming code (attempts counted, reset by a new enrolment),
 * the last factor that only goes with a current code, and what the context keeps for the response.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { factorsMachine, type FactorsEvent, type FactorsRequest, type FactorSummary, type PendingEnrolment } from "../../src/machines/factors.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("./load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/factors.js", async (load) => (await import("./load-per-test.js")).perTestExports("factors", await load()))
loadMachinesPerTest("rate-limit", "csrf-check", "flow-claim", "factors")

const phone: FactorSummary = { id: "f1", name: "Phone", createdAt: "2026-01-01T00:00:00.000Z" }
const tablet: FactorSummary = { id: "f2", name: "Tablet", createdAt: "2026-01-02T00:00:00.000Z" }
const enrolment: PendingEnrolment = { userId: "u1", accountName: "ada@example.test", secret: "SECRET", algorithm: "SHA-1", digits: 6, period: 30 }

/** A request for `action`, 3 attempts per enrolment. */
const request = (action: FactorsRequest["action"], fields: Partial<FactorsRequest> = {}): FactorsEvent => ({ type: "request.received", request: { action, policy: { maxAttempts: 3 }, ...fields } })
/** The signed-in user u1 with these factors and backup codes. */
const userFound = (factors: FactorSummary[] = [phone], backupCodes = 5, userId = "u1"): FactorsEvent => ({ type: "user.found", userId, email: "ada@example.test", factors, backupCodes })
const valid: FactorsEvent = { type: "csrf.valid" }
const admitted: FactorsEvent = { type: "rateLimit.counted", hits: [] }

/** The machine after these events, from its start. */
function after(...events: FactorsEvent[]) {
  const actor = createActor(factorsMachine).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

/** A new flow's request for `action`, up to the user found (u1 with the phone and 5 backup codes by default). */
const asked = (action: FactorsRequest["action"], fields: Partial<FactorsRequest> = {}, found = userFound()): FactorsEvent[] => [request(action, fields), valid, found]
/** An enrolment of u1, waiting (sealed) for its confirming code. */
const enrolled: FactorsEvent[] = [...asked("enrol", { name: "Phone" }), { type: "secret.generated", enrolment }]
/** The sealed enrolment resumed with a confirming code, by `found`, up to the code check. */
const confirming = (found = userFound(), maxAttempts = 3): FactorsEvent[] => [
  { type: "request.received", request: { action: "confirm", code: "123456", policy: { maxAttempts } } },
  { type: "flow.fresh" },
  valid,
  found,
  admitted,
]

describe("factors machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(factorsMachine)).toEqual(["attemptsExhausted", "backupCodesShown", "csrfRejected", "done", "enrolled", "enrolmentOfOtherUser", "failed", "flowReplayed", "invalidRequest", "listed", "rateLimited", "removalRefused", "signedOut", "unknownFactor"])
  })

  it("is named factors (the sealed cookie and the replay key name the flow's machine by it)", () => {
    expect(factorsMachine.id).toBe("factors")
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(factorsMachine)).toEqual({
      claimingFlow: "claimFlow",
      validatingInput: "checkCsrf",
      findingUser: "findUser",
      generatingSecret: "generateSecret",
      checkingRateLimit: "checkRateLimit",
      checkingEnrolmentCode: "checkEnrolmentCode",
      checkingFactorCode: "checkFactorCode",
      creatingFactor: "createFactor",
      generatingBackupCodes: "generateBackupCodes",
      renamingFactor: "renameFactor",
      removingFactor: "removeFactor",
    })
  })

  it("waits for its request with no attempt counted, and reads the list without a CSRF check", () => {
    const start = after()
    expect([start.status, start.value]).toEqual(["active", "awaitingRequest"])
    expect(start.context).toStrictEqual({ attempts: 0 })
    const list = request("list")
    expect(after(list).value).toBe("findingUser")
    const listed = after(list, userFound([phone, tablet], 4))
    expect([listed.status, listed.value, listed.context.factors, listed.context.backupCodes]).toEqual(["done", "listed", [phone, tablet], 4])
    for (const action of ["enrol", "confirm", "rename", "remove", "regenerate", undefined] as const) {
      const checking = after(request(action))
      expect([checking.value, checking.context.request?.action], String(action)).toEqual(["validatingInput", action])
    }
  })

  it("ends a request whose CSRF token is refused, and one nobody signed in made", () => {
    const rejected = after(request("enrol"), { type: "csrf.invalid" })
    expect([rejected.status, rejected.value]).toEqual(["done", "csrfRejected"])
    const out = after(request("list"), { type: "user.missing" })
    expect([out.status, out.value, out.context.userId]).toEqual(["done", "signedOut", undefined])
    expect(after(request("enrol"), valid, { type: "user.missing" }).value).toBe("signedOut")
  })

  it("keeps the signed-in user, their factors and backup codes, and counts codes against their id", () => {
    const found = after(...asked("rename", { factorId: "f1", name: "Work phone" }, userFound([phone], 7)))
    expect([found.value, found.context.userId, found.context.email, found.context.factors, found.context.backupCodes, found.context.rateLimitIdentity]).toEqual([
      "renamingFactor",
      "u1",
      "ada@example.test",
      [phone],
      7,
      "u1",
    ])
  })

  it("sends each action where it goes, and a request it cannot read to invalidRequest", () => {
    expect(after(...asked("enrol")).value).toBe("generatingSecret")
    expect(after(...asked("regenerate")).value).toBe("generatingBackupCodes")
    expect(after(...asked("rename", { factorId: "f1" })).value).toBe("renamingFactor")
    expect(after(...asked(undefined)).value).toBe("invalidRequest")
    // A confirmation without an enrolment waiting confirms nothing.
    const stray = after(...asked("confirm", { code: "123456" }))
    expect([stray.status, stray.value]).toEqual(["done", "invalidRequest"])
  })

  it("renames and removes only the user's own factors", () => {
    for (const action of ["rename", "remove"] as const) {
      const unknown = after(...asked(action, { factorId: "f9" }, userFound([phone, tablet])))
      expect([unknown.status, unknown.value], action).toEqual(["done", "unknownFactor"])
      expect(after(...asked(action, {}, userFound([phone, tablet]))).value, `${action} without a factor`).toBe("unknownFactor")
    }
    expect(after(...asked("rename", { factorId: "f2" }, userFound([phone, tablet]))).value).toBe("renamingFactor")
    expect(after(...asked("remove", { factorId: "f2" }, userFound([phone, tablet]))).value).toBe("removingFactor")
    // Any user's last factor is theirs to rename without a code.
    expect(after(...asked("rename", { factorId: "f1" }, userFound([phone]))).value).toBe("renamingFactor")
  })

  it("ends a rename or a removal done, or failed with the store's error", () => {
    const renamed = after(...asked("rename", { factorId: "f1" }), { type: "factor.renamed" })
    expect([renamed.status, renamed.value]).toEqual(["done", "done"])
    const removed = after(...asked("remove", { factorId: "f2" }, userFound([phone, tablet])), { type: "factor.removed" })
    expect([removed.status, removed.value]).toEqual(["done", "done"])
    const down = new Error("down")
    const renameFailed = after(...asked("rename", { factorId: "f1" }), { type: "write.failed", error: down })
    expect([renameFailed.value, renameFailed.context.error]).toEqual(["failed", down])
    const removeFailed = after(...asked("remove", { factorId: "f2" }, userFound([phone, tablet])), { type: "write.failed", error: down })
    expect([removeFailed.value, removeFailed.context.error]).toEqual(["failed", down])
  })

  it("removes the last factor only with a current code from it, counted against the limiter", () => {
    const last = asked("remove", { factorId: "f1", code: "123456" }, userFound([phone]))
    expect(after(...last).value).toBe("checkingRateLimit")
    const checking = after(...last, admitted)
    expect([checking.value, checking.context.codeRefused]).toEqual(["checkingFactorCode", undefined])
    expect(after(...last, admitted, { type: "code.matched", step: 9 }).value).toBe("removingFactor")
    expect(after(...last, admitted, { type: "code.matched", step: 9 }, { type: "factor.removed" }).value).toBe("done")
    const refused = after(...last, admitted, { type: "code.unmatched" })
    expect([refused.status, refused.value, refused.context.attempts]).toEqual(["done", "removalRefused", 0])
    const down = new Error("store down")
    const failed = after(...last, admitted, { type: "code.failed", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "failed", down])
    const limited = after(...last, { type: "rateLimit.counted", hits: [{ rule: "identifier", subject: "u1", count: 6, max: 5, resetAt: 0 }] })
    expect([limited.status, limited.value, limited.context.exceeded?.length]).toEqual(["done", "rateLimited", 1])
  })

  it("waits for the confirming code with the enrolment generated and no attempt counted", () => {
    const waiting = after(...enrolled)
    expect([waiting.status, waiting.value, waiting.context.enrolment, waiting.context.attempts]).toEqual(["active", "awaitingConfirmation", enrolment, 0])
    const down = new Error("down")
    const failed = after(...asked("enrol"), { type: "write.failed", error: down })
    expect([failed.status, failed.value, failed.context.error, failed.context.enrolment]).toEqual(["done", "failed", down, undefined])
  })

  it("claims the sealed enrolment once, then checks CSRF", () => {
    const resumed = after(...enrolled, request("confirm", { code: "123456" }))
    expect([resumed.value, resumed.context.request?.code]).toEqual(["claimingFlow", "123456"])
    expect(after(...enrolled, request("confirm"), { type: "flow.fresh" }).value).toBe("validatingInput")
    const replayed = after(...enrolled, request("confirm"), { type: "flow.replayed" })
    expect([replayed.status, replayed.value]).toEqual(["done", "flowReplayed"])
    const down = new Error("replay store down")
    const claimFailed = after(...enrolled, request("confirm"), { type: "flow.claimFailed", error: down })
    expect([claimFailed.status, claimFailed.value, claimFailed.context.error]).toEqual(["done", "failed", down])
  })

  it("confirms the enrolment only for the user who started it", () => {
    const own = after(...enrolled, ...confirming().slice(0, 4))
    expect(own.value).toBe("checkingRateLimit")
    expect(after(...enrolled, ...confirming()).value).toBe("checkingEnrolmentCode")
    const other = after(...enrolled, ...confirming(userFound([], 0, "u2")).slice(0, 4))
    expect([other.status, other.value, other.context.userId]).toEqual(["done", "enrolmentOfOtherUser", "u2"])
  })

  it("creates the factor on the right code, keeping its first step, and keeps the user's backup codes", () => {
    const matched = after(...enrolled, ...confirming(), { type: "code.matched", step: 42 })
    expect([matched.value, matched.context.confirmedStep]).toEqual(["creatingFactor", 42])
    const created = after(...enrolled, ...confirming(userFound([], 5)), { type: "code.matched", step: 42 }, { type: "factor.created", factor: phone })
    expect([created.status, created.value, created.context.created, created.context.newBackupCodes]).toEqual(["done", "enrolled", phone, undefined])
  })

  it("makes backup codes for a user who has none, and shows them once", () => {
    const making = after(...enrolled, ...confirming(userFound([], 0)), { type: "code.matched", step: 42 }, { type: "factor.created", factor: phone })
    expect([making.value, making.context.created]).toEqual(["generatingBackupCodes", phone])
    const codes = ["aaaa-bbbb", "cccc-dddd"]
    const shown = after(...enrolled, ...confirming(userFound([], 0)), { type: "code.matched", step: 42 }, { type: "factor.created", factor: phone }, { type: "backupCodes.generated", codes })
    expect([shown.status, shown.value, shown.context.newBackupCodes]).toEqual(["done", "backupCodesShown", codes])
    const regenerated = after(...asked("regenerate"), { type: "backupCodes.generated", codes })
    expect([regenerated.value, regenerated.context.newBackupCodes]).toEqual(["backupCodesShown", codes])
  })

  it("keeps the store's error when writing the factor or the backup codes fails", () => {
    const down = new Error("down")
    const create = after(...enrolled, ...confirming(), { type: "code.matched", step: 42 }, { type: "write.failed", error: down })
    expect([create.status, create.value, create.context.error]).toEqual(["done", "failed", down])
    const codes = after(...asked("regenerate"), { type: "write.failed", error: down })
    expect([codes.status, codes.value, codes.context.error]).toEqual(["done", "failed", down])
    const user = after(request("list"), { type: "user.failed", error: down })
    expect([user.status, user.value, user.context.error]).toEqual(["done", "failed", down])
  })

  it("waits again after a wrong code while the request's maxAttempts leaves one, and ends at the last", () => {
    const first = after(...enrolled, ...confirming(), { type: "code.unmatched" })
    expect([first.status, first.value, first.context.attempts, first.context.codeRefused, first.context.enrolment]).toEqual(["active", "awaitingConfirmation", 1, true, enrolment])
    const wrong = [...confirming(), { type: "code.unmatched" } as const]
    const second = after(...enrolled, ...wrong, ...wrong)
    expect([second.value, second.context.attempts]).toEqual(["awaitingConfirmation", 2])
    const third = after(...enrolled, ...wrong, ...wrong, ...wrong)
    expect([third.status, third.value, third.context.attempts]).toEqual(["done", "attemptsExhausted", 2])
    // The limit is read from the request that is refused.
    const lowered = after(...enrolled, ...wrong, ...confirming(userFound(), 2), { type: "code.unmatched" })
    expect(lowered.value).toBe("attemptsExhausted")
    const raised = after(...enrolled, ...wrong, ...wrong, ...confirming(userFound(), 4), { type: "code.unmatched" })
    expect([raised.value, raised.context.attempts]).toEqual(["awaitingConfirmation", 3])
  })

  it("allows five attempts when the request names no limit", () => {
    const noLimit: FactorsEvent[] = [{ type: "request.received", request: { action: "confirm", policy: {} as FactorsRequest["policy"] } }, { type: "flow.fresh" }, valid, userFound(), admitted, { type: "code.unmatched" }]
    const four = after(...enrolled, ...noLimit, ...noLimit, ...noLimit, ...noLimit)
    expect([four.value, four.context.attempts]).toEqual(["awaitingConfirmation", 4])
    expect(after(...enrolled, ...noLimit, ...noLimit, ...noLimit, ...noLimit, ...noLimit).value).toBe("attemptsExhausted")
  })

  it("clears the refusal when the next request arrives, and a new enrolment starts its attempts afresh", () => {
    const refused = [...enrolled, ...confirming(), { type: "code.unmatched" } as const]
    const next = after(...refused, request("confirm"))
    expect([next.value, next.context.codeRefused, next.context.attempts]).toEqual(["claimingFlow", undefined, 1])
    const fresh = { ...enrolment, secret: "OTHER" }
    const again = after(...refused, request("enrol"), { type: "flow.fresh" }, valid, userFound(), { type: "secret.generated", enrolment: fresh })
    expect([again.value, again.context.enrolment, again.context.attempts]).toEqual(["awaitingConfirmation", fresh, 0])
    // The list can be read while an enrolment waits: the flow is claimed and checked like any other request.
    expect(after(...enrolled, request("list"), { type: "flow.fresh" }, valid, userFound()).value).toBe("listed")
  })
})
