/**
 * The password sign-in machine on its own (authflow/machines), driven with the events its effects
 * send: what it keeps of the credentials and the account, and its own decisions after the password
 * check, in their order: a wrong password (or an unknown address, checked against a dummy hash) is
 * refused before anything is said of the address, an unverified address is refused only where the
 * policy requires verification (or mailed a fresh code where addresses are verified by code), an
 * outdated hash is replaced without stopping the sign-in. The shared tail after the attempt is taken
 * back is tested in test/machines/sign-in-tail.test.ts.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { passwordSignInMachine, type PasswordSignInEvent, type PasswordSignInPolicy, type PendingCode } from "../../src/machines/password-sign-in.js"
import { sharedIdentity } from "../../src/core/rate-limit/limiter.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/credentials-read.js", async (load) => (await import("./load-per-test.js")).perTestExports("credentials-read", await load()))
vi.mock("../../src/machines/password-sign-in.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-sign-in", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "credentials-read", "password-sign-in")

const open: PasswordSignInPolicy = { databaseSessions: false, newUserPage: false, requiresVerifiedEmail: false }
const required: PasswordSignInPolicy = { ...open, requiresVerifiedEmail: true }
const byCode: PasswordSignInPolicy = { ...required, verifiesByCode: true }

/** The machine with this policy (none: a context without one) after these events, from its start. */
function after(policy: PasswordSignInPolicy | undefined, ...events: PasswordSignInEvent[]) {
  const actor = createActor(passwordSignInMachine, { input: { policy } as { policy: PasswordSignInPolicy } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const email = "ada@example.test"
const user = { id: "u1", email }
const counted: PasswordSignInEvent[] = [{ type: "csrf.valid" }, { type: "credentials.read", identifier: email, nonString: [] }, { type: "rateLimit.counted", hits: [] }]
const found = (emailVerified: boolean): PasswordSignInEvent => ({ type: "account.found", user, hash: "$argon2id$stored", emailVerified })
const matched: PasswordSignInEvent = { type: "password.checked", valid: true, needsRehash: false }

describe("password sign-in machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(passwordSignInMachine)).toEqual(["accessDenied", "codeSent", "credentialsMalformed", "credentialsRejected", "csrfRejected", "emailUnverified", "rateLimited", "redirected", "secondFactorRequired", "secondFactorUnavailable", "sessionFailed", "signInFailed", "signedIn"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(passwordSignInMachine)).toEqual({
      validatingInput: "checkCsrf",
      readingCredentials: "readCredentials",
      checkingRateLimit: "checkRateLimit",
      findingAccount: "findAccount",
      checkingPassword: "checkPassword",
      mailingCode: "mailCode",
      checkingDummyPassword: "checkDummyPassword",
      rehashingPassword: "rehashPassword",
      refundingAttempt: "refundAttempt",
      checkingSignIn: "askSignIn",
      resolvingRedirect: "resolveRedirect",
      checkingSecondFactor: "findSecondFactor",
      creatingSession: "createSession",
      encodingToken: "encodeToken",
    })
  })

  it("counts the attempt against the address it read, or the shared budget without one, and refuses fields that are not strings", () => {
    expect(after(open).context).toStrictEqual({ policy: open })
    const named = after(open, { type: "csrf.valid" }, { type: "credentials.read", identifier: email, nonString: [] })
    expect([named.value, named.context.rateLimitIdentity]).toEqual(["checkingRateLimit", email])
    expect(after(open, { type: "csrf.valid" }, { type: "credentials.read", nonString: [] }).context.rateLimitIdentity).toBe(sharedIdentity)
    const malformed = after(open, { type: "csrf.valid" }, { type: "credentials.read", identifier: email, nonString: ["password"] })
    expect([malformed.status, malformed.value, malformed.context.nonStringFields, malformed.context.rateLimitIdentity]).toEqual(["done", "credentialsMalformed", ["password"], undefined])
  })

  it("keeps the account it found, and checks an unknown address against a dummy hash, ending as a wrong password does", () => {
    const checking = after(open, ...counted, found(false))
    expect([checking.value, checking.context.user, checking.context.hash, checking.context.emailVerified]).toEqual(["checkingPassword", user, "$argon2id$stored", false])
    expect(after(open, ...counted, { type: "account.unknown" }).value).toBe("checkingDummyPassword")
    const unknown = after(open, ...counted, { type: "account.unknown" }, { type: "dummyPassword.checked" })
    const wrong = after(open, ...counted, found(true), { type: "password.checked", valid: false, needsRehash: false })
    expect([unknown.status, unknown.value, wrong.status, wrong.value]).toEqual(["done", "credentialsRejected", "done", "credentialsRejected"])
  })

  it("keeps the store's error when the lookup fails", () => {
    const down = new Error("down")
    const failed = after(open, ...counted, { type: "account.failed", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "signInFailed", down])
  })

  it("refuses a wrong password before it says anything of the address, however outdated its hash", () => {
    for (const policy of [open, required, byCode]) {
      for (const needsRehash of [false, true]) {
        const refused = after(policy, ...counted, found(false), { type: "password.checked", valid: false, needsRehash })
        expect(refused.value, `${JSON.stringify(policy)} ${needsRehash}`).toBe("credentialsRejected")
      }
    }
  })

  it("refuses an unverified address only where the policy requires verification, and a verified one never", () => {
    const cases: [PasswordSignInPolicy | undefined, boolean, string][] = [
      [open, false, "refundingAttempt"],
      [undefined, false, "refundingAttempt"],
      [required, false, "emailUnverified"],
      [required, true, "refundingAttempt"],
      [{ ...required, verifiesByCode: false }, false, "emailUnverified"],
      [byCode, false, "mailingCode"],
      [byCode, true, "refundingAttempt"],
      // Codes verify addresses, but verification is not required: the sign-in goes on.
      [{ ...open, verifiesByCode: true }, false, "refundingAttempt"],
    ]
    for (const [policy, verified, state] of cases) expect(after(policy, ...counted, found(verified), matched).value, `${JSON.stringify(policy)} ${verified}`).toBe(state)
  })

  it("mails an unverified address a fresh code and keeps it, and refuses the address when the mail fails", () => {
    const code: PendingCode = { bound: "bound", codeHash: "code-hash", expiresAt: 1_700_000_600_000 }
    const sent = after(byCode, ...counted, found(false), matched, { type: "mail.sent", code })
    expect([sent.status, sent.value, sent.context.pendingCode]).toEqual(["done", "codeSent", code])
    const smtp = new Error("smtp down")
    const failed = after(byCode, ...counted, found(false), matched, { type: "mail.failed", error: smtp, code })
    expect([failed.status, failed.value, failed.context.error, failed.context.pendingCode]).toEqual(["done", "emailUnverified", smtp, undefined])
  })

  it("replaces an outdated hash of the right password, and signs in whether that worked or not", () => {
    expect(after(open, ...counted, found(true), { type: "password.checked", valid: true, needsRehash: true }).value).toBe("rehashingPassword")
    // An unverified address where verification is required is refused first.
    expect(after(required, ...counted, found(false), { type: "password.checked", valid: true, needsRehash: true }).value).toBe("emailUnverified")
    for (const event of [{ type: "password.rehashed" }, { type: "rehash.failed", error: new Error("down") }] as const) {
      const refunding = after(open, ...counted, found(true), { type: "password.checked", valid: true, needsRehash: true }, event)
      expect([refunding.value, refunding.context.error], event.type).toEqual(["refundingAttempt", undefined])
    }
  })

  it("takes the attempt back and signs the user in through the shared tail", () => {
    const refunded = [...counted, found(true), matched, { type: "attempt.refunded" }] as const
    expect(after(open, ...refunded).value).toBe("checkingSignIn")
    expect(after(open, ...refunded, { type: "signIn.answered", result: true }).value).toBe("encodingToken")
    expect(after({ ...open, databaseSessions: true }, ...refunded, { type: "signIn.answered", result: true }).value).toBe("creatingSession")
    const signedIn = after(open, ...refunded, { type: "signIn.answered", result: true }, { type: "token.encoded" })
    expect([signedIn.status, signedIn.value, signedIn.context.user]).toEqual(["done", "signedIn", user])
  })
})
