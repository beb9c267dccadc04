/**
 * The sign-out machine on its own (authflow/machines): what its context keeps of the session that
 * ended for the next effect (the provider, its ID token, the row's user, the end-session URL), and
 * how the policy it is given decides whether the provider's session ends too.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { signOutMachine, type SignOutEvent, type SignOutPolicy } from "../../src/machines/sign-out.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/sign-out.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-out", await load()))
loadMachinesPerTest("csrf-check", "sign-out")

const endsAtOp: SignOutPolicy = { providersEndingSession: ["op"], listsAccounts: true }

/** The machine with this policy (none: the machine's default) after these events, from its start. */
function after(policy: SignOutPolicy | undefined, ...events: SignOutEvent[]) {
  const actor = createActor(signOutMachine, { input: policy && { policy } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const jwt: SignOutEvent[] = [{ type: "csrf.valid" }, { type: "session.found", strategy: "jwt" }]
const database: SignOutEvent[] = [{ type: "csrf.valid" }, { type: "session.found", strategy: "database" }]

describe("sign-out machine", () => {
  it("without a policy, ends no provider's session and lists no accounts", () => {
    const decoded = after(undefined, ...jwt, { type: "token.decoded", provider: "op", idToken: "id" })
    expect([decoded.value, decoded.context.policy]).toEqual(["signedOut", { providersEndingSession: [], listsAccounts: false }])
  })

  it("keeps the provider and ID token a JWT session recorded, for the end-session request", () => {
    const decoded = after(endsAtOp, ...jwt, { type: "token.decoded", provider: "op", idToken: "id-token" })
    expect([decoded.value, decoded.context.ended]).toEqual(["findingEndSession", { provider: "op", idToken: "id-token", userId: undefined }])
    const found = after(endsAtOp, ...jwt, { type: "token.decoded", provider: "op", idToken: "id-token" }, { type: "endSession.found", url: "https://op.test/end?x=1" })
    expect([found.status, found.value, found.context.endSessionUrl]).toEqual(["done", "signedOutAtProvider", "https://op.test/end?x=1"])
  })

  it("ends the provider's session only for a provider the policy names, and not for a session without one", () => {
    expect(after(endsAtOp, ...jwt, { type: "token.decoded", provider: "other", idToken: "id-token" }).value).toBe("signedOut")
    expect(after(endsAtOp, ...jwt, { type: "token.decoded" }).value).toBe("signedOut")
    expect(after(endsAtOp, ...database, { type: "session.deleted" }).value).toBe("signedOut")
    expect(after(endsAtOp, ...database, { type: "session.deleted", provider: "other", userId: "u1" }).value).toBe("signedOut")
  })

  it("looks for a database session's ID token only when the row named its user and the adapter lists accounts", () => {
    const named = after(endsAtOp, ...database, { type: "session.deleted", provider: "op", userId: "u1" })
    expect([named.value, named.context.ended]).toEqual(["findingIdToken", { provider: "op", idToken: undefined, userId: "u1" }])
    const unnamed = after(endsAtOp, ...database, { type: "session.deleted", provider: "op" })
    expect([unnamed.value, unnamed.context.ended?.provider]).toEqual(["findingEndSession", "op"])
    const unlisted = after({ ...endsAtOp, listsAccounts: false }, ...database, { type: "session.deleted", provider: "op", userId: "u1" })
    expect([unlisted.value, unlisted.context.ended?.userId]).toEqual(["findingEndSession", "u1"])
  })

  it("hints with the ID token only when exactly one account at the provider holds one", () => {
    const deleted: SignOutEvent = { type: "session.deleted", provider: "op", userId: "u1" }
    const one = after(endsAtOp, ...database, deleted, { type: "accounts.listed", idTokens: ["only"] })
    expect([one.value, one.context.ended]).toEqual(["findingEndSession", { provider: "op", idToken: "only", userId: "u1" }])
    for (const idTokens of [[], ["first", "second"]]) {
      const none = after(endsAtOp, ...database, deleted, { type: "accounts.listed", idTokens })
      expect([none.value, none.context.ended?.idToken], idTokens.join()).toEqual(["findingEndSession", undefined])
    }
    const failed = after(endsAtOp, ...database, deleted, { type: "accounts.failed", error: new Error("down") })
    expect([failed.value, failed.context.ended?.idToken, failed.context.error]).toEqual(["findingEndSession", undefined, undefined])
  })

  it("keeps why the provider's session could not be ended, or the session itself", () => {
    const down = new Error("discovery down")
    const local = after(endsAtOp, ...jwt, { type: "token.decoded", provider: "op" }, { type: "discovery.failed", error: down })
    expect([local.status, local.value, local.context.error]).toEqual(["done", "signedOutLocally", down])
    const missing = after(endsAtOp, ...jwt, { type: "token.decoded", provider: "op" }, { type: "endSession.missing" })
    expect([missing.value, missing.context.error]).toEqual(["signedOutLocally", undefined])
    const decodeFailed = after(endsAtOp, ...jwt, { type: "decode.failed", error: down })
    expect([decodeFailed.status, decodeFailed.value, decodeFailed.context.error]).toEqual(["done", "endFailed", down])
    const deleteFailed = after(endsAtOp, ...database, { type: "delete.failed", error: down })
    expect([deleteFailed.value, deleteFailed.context.error]).toEqual(["endFailed", down])
  })
})
