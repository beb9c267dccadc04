/**
 * The email code machine on its own (authflow/machines), driven with the events its effects send:
 * the shared code check as this flow spreads it in (the claim, the code dead at the very
 * millisecond it expires, the right code under any secret, five wrong tries), the link mailed
 * beside the code (used up by the code; a link that signed in first ends it), who the code signs in
 * (the user who has the address, or one created for it), what it keeps of each failure, and the
 * sign-in tail with the policy the typed code came with.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { emailCodeMachine, EMAIL_CODE_MAX_ATTEMPTS, type EmailCodeEvent, type EmailCodeStart } from "../../src/machines/email-code.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import type { AdapterUser } from "../../src/adapters.js"
import { Concealed } from "../../src/core/concealed.js"
import { effectsByState, finalStates } from "./effects.js"
import { emailUserEffects } from "./email-user.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("./load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/emailed-code.js", async (load) => (await import("./load-per-test.js")).perTestExports("emailed-code", await load()))
vi.mock("../../src/machines/email-user.js", async (load) => (await import("./load-per-test.js")).perTestExports("email-user", await load()))
vi.mock("../../src/machines/email-code.js", async (load) => (await import("./load-per-test.js")).perTestExports("email-code", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "flow-claim", "emailed-code", "email-user", "email-code")

const expiresAt = 1_700_000_600_000
const start: EmailCodeStart = { identifier: "ada@example.test", codeHash: "right-hash", expiresAt, callbackUrl: "https://app.example/" }
const withLink: EmailCodeStart = { ...start, linkTokenHash: "link-hash" }
const jwt: SignInTailPolicy = { databaseSessions: false, newUserPage: false }
const ada: AdapterUser = { id: "u-ada", email: "ada@example.test", emailVerified: null }

/** The machine started with `input` after these events. */
function afterFrom(input: EmailCodeStart, ...events: EmailCodeEvent[]) {
  const actor = createActor(emailCodeMachine, { input }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}
/** The machine after these events, from the start without a link. */
const after = (...events: EmailCodeEvent[]) => afterFrom(start, ...events)

/** One request up to the code's hashes, typed at `now`. */
const typed = (hashes: string[], now = expiresAt - 1, policy = jwt): EmailCodeEvent[] => [
  { type: "code.submitted", code: "123456", policy },
  { type: "flow.fresh" },
  { type: "csrf.valid" },
  { type: "rateLimit.counted", hits: [] },
  { type: "emailCode.hashed", hashes, now },
]
const right = (policy = jwt) => typed(["right-hash"], expiresAt - 1, policy)
const lookedUp = (user: AdapterUser | null): EmailCodeEvent => ({ type: "user.lookedUp", user, newUserId: "u-new" })
const allowed: EmailCodeEvent = { type: "signIn.answered", result: true }

describe("email code machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(emailCodeMachine)).toEqual(["accessDenied", "attemptsExhausted", "claimFailed", "codeExpired", "csrfRejected", "flowReplayed", "linkUsed", "lookupFailed", "persistFailed", "rateLimited", "redirected", "secondFactorRequired", "secondFactorUnavailable", "sessionFailed", "signedIn", "signedInNewUser", "tokenLookupFailed"])
  })

  it("is named email-code (the sealed cookie and the replay key name the flow's machine by it)", () => {
    expect(emailCodeMachine.id).toBe("email-code")
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(emailCodeMachine)).toEqual({
      claimingFlow: "claimFlow",
      validatingInput: "checkCsrf",
      checkingRateLimit: "checkRateLimit",
      checkingCode: "hashCode",
      usingToken: "useLinkToken",
      lookingUpUser: "lookUpUser",
      ...emailUserEffects,
    })
  })

  it("waits for the code with what the email sign-in left, and no wrong try", () => {
    const waiting = afterFrom(withLink)
    expect([waiting.status, waiting.value]).toEqual(["active", "awaitingCode"])
    expect(waiting.context).toStrictEqual({ ...withLink, attempts: 0 })
    expect(after().context).toStrictEqual({ ...start, attempts: 0 })
  })

  it("keeps the typed code concealed and the policy it came with, then claims the flow once", () => {
    const claiming = after({ type: "code.submitted", code: "654321", policy: jwt })
    expect([claiming.value, claiming.context.policy, claiming.context.typed instanceof Concealed, claiming.context.typed?.reveal()]).toEqual(["claimingFlow", jwt, true, "654321"])
    // A code that is not a string is not kept.
    const odd = after({ type: "code.submitted", code: 123456 as unknown as string, policy: jwt })
    expect([odd.value, odd.context.typed, odd.context.policy]).toEqual(["claimingFlow", undefined, jwt])
    const replayed = after({ type: "code.submitted", code: "654321", policy: jwt }, { type: "flow.replayed" })
    expect([replayed.status, replayed.value]).toEqual(["done", "flowReplayed"])
    const down = new Error("replay store down")
    const failed = after({ type: "code.submitted", code: "654321", policy: jwt }, { type: "flow.claimFailed", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "claimFailed", down])
  })

  it("checks CSRF, then counts the request against the limiter, before hashing the code", () => {
    const submitted: EmailCodeEvent[] = [{ type: "code.submitted", code: "123456", policy: jwt }, { type: "flow.fresh" }]
    expect(after(...submitted).value).toBe("validatingInput")
    expect(after(...submitted, { type: "csrf.invalid" }).value).toBe("csrfRejected")
    expect(after(...submitted, { type: "csrf.valid" }).value).toBe("checkingRateLimit")
    expect(after(...submitted, { type: "csrf.valid" }, { type: "rateLimit.counted", hits: [] }).value).toBe("checkingCode")
    const limited = after(...submitted, { type: "csrf.valid" }, { type: "rateLimit.failed", error: new Error("down"), failOpen: false })
    expect([limited.status, limited.value, limited.context.limiterFailed]).toEqual(["done", "rateLimited", true])
  })

  it("refuses the code from the millisecond it expires, and takes the right one under any secret before", () => {
    const expired = after(...typed(["right-hash"], expiresAt))
    expect([expired.status, expired.value, expired.context.attempts]).toEqual(["done", "codeExpired", 0])
    expect(after(...typed(["wrong-hash"], expiresAt + 1)).value).toBe("codeExpired")
    expect(after(...typed(["right-hash"], expiresAt - 1)).value).toBe("lookingUpUser")
    expect(after(...typed(["old-secret-hash", "right-hash"])).value).toBe("lookingUpUser")
    // What is not 6 digits has no hash: a wrong try.
    expect(after(...typed([])).value).toBe("awaitingCode")
  })

  it("waits again after a wrong code, counting it, and ends at the fifth", () => {
    const first = after(...typed(["wrong-hash"]))
    expect([first.status, first.value, first.context.attempts]).toEqual(["active", "awaitingCode", 1])
    const wrongTries = (count: number) => Array.from({ length: count }, () => typed(["wrong-hash"])).flat()
    const fourth = after(...wrongTries(EMAIL_CODE_MAX_ATTEMPTS - 1))
    expect([fourth.value, fourth.context.attempts]).toEqual(["awaitingCode", EMAIL_CODE_MAX_ATTEMPTS - 1])
    const fifth = after(...wrongTries(EMAIL_CODE_MAX_ATTEMPTS))
    expect([fifth.status, fifth.value, fifth.context.attempts]).toEqual(["done", "attemptsExhausted", EMAIL_CODE_MAX_ATTEMPTS - 1])
    expect(EMAIL_CODE_MAX_ATTEMPTS).toBe(5)
    // The right code after wrong ones still signs in.
    expect(after(...wrongTries(EMAIL_CODE_MAX_ATTEMPTS - 1), ...right()).value).toBe("lookingUpUser")
  })

  it("uses up the link mailed beside the code, and ends in linkUsed when the link signed in first", () => {
    expect(afterFrom(withLink, ...right()).value).toBe("usingToken")
    const used = afterFrom(withLink, ...right(), { type: "token.used", row: { identifier: start.identifier, expires: new Date(expiresAt) } })
    expect(used.value).toBe("lookingUpUser")
    const first = afterFrom(withLink, ...right(), { type: "token.used", row: null })
    expect([first.status, first.value, first.context.user]).toEqual(["done", "linkUsed", undefined])
    const down = new Error("db down")
    const failed = afterFrom(withLink, ...right(), { type: "token.failed", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "tokenLookupFailed", down])
  })

  it("verifies the user who has the address, and creates one for an address nobody has", () => {
    const known = after(...right(), lookedUp(ada))
    expect([known.value, known.context.plan, known.context.user]).toEqual(["checkingSignIn", "verifyExistingUser", ada])
    const unknown = after(...right(), lookedUp(null))
    expect([unknown.value, unknown.context.plan, unknown.context.user]).toEqual(["checkingSignIn", "createUser", { id: "u-new", email: start.identifier, emailVerified: null }])
    const down = new Error("db down")
    const failed = after(...right(), { type: "lookup.failed", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "lookupFailed", down])
  })

  it("writes the user once the signIn callback allows it, and ends in persistFailed keeping the error of a failed write", () => {
    const allowedJwt = [...right(), lookedUp(ada), allowed]
    expect(after(...allowedJwt).value).toBe("persistingUser")
    const persisted = after(...allowedJwt, { type: "user.persisted", isNewUser: false, user: { ...ada, emailVerified: new Date(0) } })
    expect([persisted.value, persisted.context.user?.emailVerified]).toEqual(["encodingToken", new Date(0)])
    const down = new Error("db down")
    const failed = after(...allowedJwt, { type: "persist.failed", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "persistFailed", down])
    expect(after(...right(), lookedUp(ada), { type: "signIn.answered", result: false }).value).toBe("accessDenied")
  })

  it("signs a browser holding another user's database session out of it first, and keeps the error when that fails", () => {
    const database: SignInTailPolicy = { databaseSessions: true, newUserPage: false }
    const allowedDb = [...right(database), lookedUp(ada), allowed]
    expect(after(...allowedDb).value).toBe("findingCurrentSession")
    expect(after(...allowedDb, { type: "currentSession.found", userId: "u-eve" }).value).toBe("endingOtherSession")
    expect(after(...allowedDb, { type: "currentSession.found", userId: "u-eve" }, { type: "otherSession.ended" }).value).toBe("persistingUser")
    expect(after(...allowedDb, { type: "currentSession.none" }).value).toBe("persistingUser")
    const down = new Error("db down")
    for (const failure of [[{ type: "currentSession.failed", error: down }], [{ type: "currentSession.found", userId: "u-eve" }, { type: "otherSession.failed", error: down }]] as EmailCodeEvent[][]) {
      const failed = after(...allowedDb, ...failure)
      expect([failed.status, failed.value, failed.context.error], failure.at(-1)?.type).toEqual(["done", "persistFailed", down])
    }
    // A created user has no session to end.
    expect(after(...right(database), lookedUp(null), allowed).value).toBe("persistingUser")
  })

  it("signs in with the session strategy and the new-user page the typed code's policy names", () => {
    const signedIn = after(...right(), lookedUp(ada), allowed, { type: "user.persisted", isNewUser: false }, { type: "token.encoded" })
    expect([signedIn.status, signedIn.value, signedIn.context.user]).toEqual(["done", "signedIn", ada])
    const newUser: SignInTailPolicy = { databaseSessions: true, newUserPage: true }
    const created = after(...right(newUser), lookedUp(null), allowed, { type: "user.persisted", isNewUser: true }, { type: "session.created" })
    expect([created.status, created.value, created.context.isNewUser]).toEqual(["done", "signedInNewUser", true])
  })
})
