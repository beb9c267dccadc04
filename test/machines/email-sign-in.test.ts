/**
 * The email sign-in machine on its own (authflow/machines): the address it keeps (the canonical
 * form of authflow's grammar, whatever the normaliser returned) or why it refused it, and the
 * user it found.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { emailSignInMachine, type EmailSignInEvent } from "../../src/machines/email-sign-in.js"
import type { AdapterUser } from "../../src/adapters.js"
import { Concealed } from "../../src/core/concealed.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/email-sign-in.js", async (load) => (await import("./load-per-test.js")).perTestExports("email-sign-in", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "email-sign-in")

function after(...events: EmailSignInEvent[]) {
  const actor = createActor(emailSignInMachine).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const valid: EmailSignInEvent = { type: "csrf.valid" }
const admitted: EmailSignInEvent = { type: "rateLimit.counted", hits: [] }
const ada: AdapterUser = { id: "u-ada", email: "ada@xn--bcher-kva.example", emailVerified: null }

describe("email sign-in machine", () => {
  it("keeps the address in its canonical form, not as the normaliser returned it", () => {
    const normalized = after(valid, { type: "email.normalized", normalized: "ada@Bücher.Example" })
    expect([normalized.value, normalized.context.email, normalized.context.problem]).toEqual(["checkingRateLimit", "ada@xn--bcher-kva.example", undefined])
  })

  it("refuses what the grammar refuses, keeping why, even when the normaliser let it through", () => {
    const refused = after(valid, { type: "email.normalized", normalized: "x<evil@evil.test>" })
    expect([refused.status, refused.value, refused.context.problem, refused.context.email]).toEqual(["done", "emailRejected", "syntax", undefined])
    const mixed = after(valid, { type: "email.normalized", normalized: "ada@exаmple.com" })
    expect([mixed.value, mixed.context.problem]).toEqual(["emailRejected", "mixed-script"])
  })

  it("keeps what the normaliser threw", () => {
    const thrown = new TypeError("Invalid email address format.")
    const refused = after(valid, { type: "normalizer.threw", error: thrown })
    expect([refused.value, refused.context.error, refused.context.problem]).toEqual(["emailRejected", thrown, undefined])
  })

  it("keeps the user who has the address, and asks the signIn callback either way", () => {
    const address: EmailSignInEvent = { type: "email.normalized", normalized: ada.email }
    const known = after(valid, address, admitted, { type: "user.lookedUp", user: ada })
    expect([known.value, known.context.user]).toEqual(["checkingSignIn", ada])
    const unknown = after(valid, address, admitted, { type: "user.lookedUp", user: null })
    expect([unknown.value, unknown.context.user, unknown.context.email]).toEqual(["checkingSignIn", undefined, ada.email])
  })

  it("keeps what failed: the lookup, storing the token, sending the mail", () => {
    const down = new Error("down")
    const address: EmailSignInEvent = { type: "email.normalized", normalized: ada.email }
    const lookup = after(valid, address, admitted, { type: "lookup.failed", error: down })
    expect([lookup.status, lookup.value, lookup.context.error]).toEqual(["done", "lookupFailed", down])
    const allowed: EmailSignInEvent[] = [valid, address, admitted, { type: "user.lookedUp", user: null }, { type: "signIn.answered", result: true }]
    const store = after(...allowed, { type: "store.failed", error: down })
    expect([store.status, store.value, store.context.error]).toEqual(["done", "storeFailed", down])
    const mailedToken = new Concealed({ token: "hashed", expires: new Date(0) })
    const stored: EmailSignInEvent = { type: "token.stored", mailedToken }
    expect(after(...allowed, stored).context.mailedToken).toBe(mailedToken)
    const send = after(...allowed, stored, { type: "send.failed", error: down })
    expect([send.value, send.context.error]).toEqual(["revokingToken", down])
    // The mail's failure is what the user is told about, whether or not its token could be revoked.
    const revokeFailed = after(...allowed, stored, { type: "send.failed", error: down }, { type: "revoke.failed", error: new Error("revoke") })
    expect([revokeFailed.status, revokeFailed.value, revokeFailed.context.error]).toEqual(["done", "sendFailed", down])
  })
})
