/**
 * The credentials sign-in machine on its own (authflow/machines), driven with the events an effect
 * of your own may send: what its context keeps for the next effect, and the answers the engine's
 * effects never give but a JavaScript one can.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { credentialsSignInMachine, type CredentialsSignInEvent } from "../../src/machines/credentials-sign-in.js"
import { sharedIdentity } from "../../src/core/rate-limit/limiter.js"
import { CredentialsSignin } from "../../src/errors.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/credentials-read.js", async (load) => (await import("./load-per-test.js")).perTestExports("credentials-read", await load()))
vi.mock("../../src/machines/credentials-sign-in.js", async (load) => (await import("./load-per-test.js")).perTestExports("credentials-sign-in", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "credentials-read", "credentials-sign-in")

/** The machine after these events, from its start. */
function after(...events: CredentialsSignInEvent[]) {
  const actor = createActor(credentialsSignInMachine, { input: { policy: { databaseSessions: false, newUserPage: false } } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const valid: CredentialsSignInEvent = { type: "csrf.valid" }
const admitted: CredentialsSignInEvent = { type: "rateLimit.counted", hits: [] }

describe("credentials sign-in machine", () => {
  it("counts the attempt against the identity it read, or against the shared budget when it read none", () => {
    const named = after(valid, { type: "credentials.read", identifier: "ada", nonString: [] })
    expect([named.value, named.context.rateLimitIdentity]).toEqual(["checkingRateLimit", "ada"])
    const unnamed = after(valid, { type: "credentials.read", nonString: [] })
    expect([unnamed.value, unnamed.context.rateLimitIdentity]).toEqual(["checkingRateLimit", sharedIdentity])
  })

  it("refuses fields that are not strings before counting or authorizing, and keeps their names", () => {
    const malformed = after(valid, { type: "credentials.read", identifier: "ada", nonString: ["password", "otp"] })
    expect([malformed.status, malformed.value, malformed.context.nonStringFields, malformed.context.rateLimitIdentity]).toEqual(["done", "credentialsMalformed", ["password", "otp"], undefined])
  })

  it("accepts only a user object from authorize, and keeps it", () => {
    const read: CredentialsSignInEvent = { type: "credentials.read", identifier: "ada", nonString: [] }
    const accepted = after(valid, read, admitted, { type: "authorize.returned", user: { id: "1", name: "Ada" } })
    expect([accepted.value, accepted.context.user]).toEqual(["refundingAttempt", { id: "1", name: "Ada" }])
    // An effect of your own may pass on what a JavaScript authorize returned: anything but an object is a refusal.
    for (const user of [null, true, "ada", 1]) {
      const refused = after(valid, read, admitted, { type: "authorize.returned", user } as never)
      expect([refused.status, refused.value, refused.context.user], String(user)).toEqual(["done", "credentialsRejected", undefined])
    }
  })

  it("keeps what authorize threw: a CredentialsSignin (the app's own subclass too) refuses, anything else fails", () => {
    class InvalidLogin extends CredentialsSignin {
      override code = "invalid_login"
    }
    const read: CredentialsSignInEvent = { type: "credentials.read", identifier: "ada", nonString: [] }
    const invalid = new InvalidLogin()
    const refused = after(valid, read, admitted, { type: "authorize.threw", error: invalid })
    expect([refused.value, refused.context.error]).toEqual(["credentialsRejected", invalid])
    const down = new Error("database down")
    const failed = after(valid, read, admitted, { type: "authorize.threw", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "authorizeFailed", down])
  })
})
