/**
 * The verification-by-code machine on its own (authflow/machines), driven with the events its
 * effects send: the shared code check as this flow spreads it in (the claim, the expiry, the tries),
 * the user the code names (gone or moved to another address: `codeStale`; verified already: nothing
 * written), what it keeps of a store failure, and the sign-in that follows with the policy the
 * request brought.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { passwordVerifyCodeMachine, type PasswordCodeStart, type PasswordVerifyCodeEvent } from "../../src/machines/password-verify-code.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import { EMAIL_CODE_MAX_ATTEMPTS } from "../../src/machines/emailed-code.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("./load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/emailed-code.js", async (load) => (await import("./load-per-test.js")).perTestExports("emailed-code", await load()))
vi.mock("../../src/machines/password-verify-code.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-verify-code", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "flow-claim", "emailed-code", "password-verify-code")

const expiresAt = 1_700_000_600_000
const start: PasswordCodeStart = { email: "ada@example.test", bound: "bound-hash", codeHash: "right-hash", expiresAt, callbackUrl: "https://app.example/" }
const jwt: SignInTailPolicy = { databaseSessions: false, newUserPage: false }

/** The machine after these events, from its start. */
function after(...events: PasswordVerifyCodeEvent[]) {
  const actor = createActor(passwordVerifyCodeMachine, { input: start }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

/** One request up to its code's hashes, typed at `now`. */
const typed = (hashes: string[], now = expiresAt - 1, policy = jwt): PasswordVerifyCodeEvent[] => [
  { type: "code.submitted", code: "123456", policy },
  { type: "flow.fresh" },
  { type: "csrf.valid" },
  { type: "rateLimit.counted", hits: [] },
  { type: "emailCode.hashed", hashes, now },
]
const user = { id: "u1", email: "ada@example.test" }
const unverified: PasswordVerifyCodeEvent = { type: "user.found", user, bound: true, verified: false }

describe("password verify code machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(passwordVerifyCodeMachine)).toEqual(["accessDenied", "attemptsExhausted", "claimFailed", "codeExpired", "codeStale", "csrfRejected", "flowReplayed", "rateLimited", "redirected", "secondFactorRequired", "secondFactorUnavailable", "sessionFailed", "signedIn", "verifyFailed"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(passwordVerifyCodeMachine)).toEqual({
      claimingFlow: "claimFlow",
      validatingInput: "checkCsrf",
      checkingRateLimit: "checkRateLimit",
      checkingCode: "hashCode",
      findingUser: "findCodeUser",
      markingVerified: "markVerified",
      checkingSignIn: "askSignIn",
      resolvingRedirect: "resolveRedirect",
      checkingSecondFactor: "findSecondFactor",
      creatingSession: "createSession",
      encodingToken: "encodeToken",
    })
  })

  it("waits for the code with what the sign-up or sign-in left, and no wrong try", () => {
    const waiting = after()
    expect([waiting.status, waiting.value, waiting.context]).toEqual(["active", "awaitingCode", { ...start, attempts: 0 }])
    expect(after({ type: "code.submitted", code: "123456", policy: jwt }, { type: "flow.replayed" }).value).toBe("flowReplayed")
  })

  it("checks the code as every emailed code is checked: dead at its expiry, five wrong tries", () => {
    expect(after(...typed(["right-hash"], expiresAt)).value).toBe("codeExpired")
    expect(after(...typed(["other-secret", "right-hash"])).value).toBe("findingUser")
    const wrongTries = (count: number) => Array.from({ length: count }, () => typed(["wrong-hash"])).flat()
    expect([after(...wrongTries(EMAIL_CODE_MAX_ATTEMPTS - 1)).value, after(...wrongTries(EMAIL_CODE_MAX_ATTEMPTS - 1)).context.attempts]).toEqual(["awaitingCode", EMAIL_CODE_MAX_ATTEMPTS - 1])
    expect(after(...wrongTries(EMAIL_CODE_MAX_ATTEMPTS)).value).toBe("attemptsExhausted")
  })

  it("ends a code whose user moved to another address, or is gone, in codeStale", () => {
    for (const verified of [true, false]) {
      const stale = after(...typed(["right-hash"]), { type: "user.found", user, bound: false, verified })
      expect([stale.status, stale.value, stale.context.user], String(verified)).toEqual(["done", "codeStale", undefined])
    }
    expect(after(...typed(["right-hash"]), { type: "user.missing" }).value).toBe("codeStale")
  })

  it("keeps the code's user, marks an unverified address verified, and writes nothing for one verified already", () => {
    const marking = after(...typed(["right-hash"]), unverified)
    expect([marking.value, marking.context.user]).toEqual(["markingVerified", user])
    const already = after(...typed(["right-hash"]), { type: "user.found", user, bound: true, verified: true })
    expect([already.value, already.context.user]).toEqual(["checkingSignIn", user])
    expect(after(...typed(["right-hash"]), unverified, { type: "email.verified" }).value).toBe("checkingSignIn")
  })

  it("keeps the store's error when the lookup or the write fails", () => {
    const down = new Error("down")
    const lookup = after(...typed(["right-hash"]), { type: "lookup.failed", error: down })
    expect([lookup.status, lookup.value, lookup.context.error]).toEqual(["done", "verifyFailed", down])
    const update = after(...typed(["right-hash"]), unverified, { type: "update.failed", error: down })
    expect([update.status, update.value, update.context.error]).toEqual(["done", "verifyFailed", down])
  })

  it("signs the user in with the session strategy the request's policy names", () => {
    const verified = (policy: SignInTailPolicy) => [...typed(["right-hash"], expiresAt - 1, policy), unverified, { type: "email.verified" }, { type: "signIn.answered", result: true }] as const
    expect(after(...verified(jwt)).value).toBe("encodingToken")
    expect(after(...verified({ ...jwt, databaseSessions: true })).value).toBe("creatingSession")
    const signedIn = after(...verified(jwt), { type: "token.encoded" })
    expect([signedIn.status, signedIn.value, signedIn.context.user]).toEqual(["done", "signedIn", user])
  })
})
