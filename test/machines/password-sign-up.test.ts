/**
 * The password sign-up machine on its own (authflow/machines), driven with the events its effects
 * send: which forms it refuses and why (the address first), what it keeps of the new user, how a
 * taken address is answered (as a new account where verification is required, its owner told), and
 * where the policy (verification required, mailed, by code) sends a new account and a mail that
 * failed. The shared tail that issues the session is tested in test/machines/sign-in-tail.test.ts.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { passwordSignUpMachine, type PasswordSignUpEvent, type PasswordSignUpPolicy } from "../../src/machines/password-sign-up.js"
import type { PendingCode } from "../../src/machines/password-sign-in.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/password-sign-up.js", async (load) => (await import("./load-per-test.js")).perTestExports("password-sign-up", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "password-sign-up")

const open: PasswordSignUpPolicy = { databaseSessions: false, newUserPage: false, requiresVerifiedEmail: false }
const mailed: PasswordSignUpPolicy = { ...open, mailsVerification: true }
const required: PasswordSignUpPolicy = { ...open, requiresVerifiedEmail: true }
const byCode: PasswordSignUpPolicy = { ...required, verifiesByCode: true }
/** Codes verify addresses and are mailed, but an unverified address may sign in. */
const codeOptional: PasswordSignUpPolicy = { ...mailed, verifiesByCode: true }

/** The machine with this policy (none: a context without one) after these events, from its start. */
function after(policy: PasswordSignUpPolicy | undefined, ...events: PasswordSignUpEvent[]) {
  const actor = createActor(passwordSignUpMachine, { input: { policy } as { policy: PasswordSignUpPolicy } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const email = "ada@example.test"
const read: PasswordSignUpEvent = { type: "signUp.read", email, name: "Ada" }
const counted: PasswordSignUpEvent[] = [{ type: "csrf.valid" }, read, { type: "rateLimit.counted", hits: [] }]
const created = { id: "u-new", email, name: "Ada" }
const allowed: PasswordSignUpEvent[] = [...counted, { type: "user.absent" }, { type: "signIn.answered", result: true }]
const accountCreated: PasswordSignUpEvent = { type: "account.created", user: created }
const code: PendingCode = { bound: "bound", codeHash: "code-hash", expiresAt: 1_700_000_600_000 }
const smtp = new Error("smtp down")

describe("password sign-up machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(passwordSignUpMachine)).toEqual(["accessDenied", "codeSent", "csrfRejected", "emailTaken", "rateLimited", "redirected", "secondFactorRequired", "secondFactorUnavailable", "sessionFailed", "signUpFailed", "signUpRefused", "signedIn", "signedInNewUser", "verificationRequired"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(passwordSignUpMachine)).toEqual({
      validatingInput: "checkCsrf",
      readingSignUp: "readSignUp",
      checkingRateLimit: "checkRateLimit",
      findingUser: "findUser",
      checkingSignIn: "askSignIn",
      resolvingRedirect: "resolveRedirect",
      creatingAccount: "createAccount",
      mailingVerification: "mailVerification",
      notifyingOwner: "notifyOwner",
      checkingSecondFactor: "findSecondFactor",
      creatingSession: "createSession",
      encodingToken: "encodeToken",
    })
  })

  it("refuses a form without a usable address as an invalid email, whatever its password, and otherwise keeps the password's refusal", () => {
    const cases: [PasswordSignUpEvent, string][] = [
      [{ type: "signUp.read" }, "invalid-email"],
      [{ type: "signUp.read", emailProblem: "missing" }, "invalid-email"],
      [{ type: "signUp.read", email, emailProblem: "invalid" }, "invalid-email"],
      [{ type: "signUp.read", email, emailProblem: "invalid", passwordProblem: "too-short" }, "invalid-email"],
      [{ type: "signUp.read", passwordProblem: "too-short" }, "invalid-email"],
      [{ type: "signUp.read", email, passwordProblem: "too-short" }, "too-short"],
      [{ type: "signUp.read", email, passwordProblem: "refused-password" }, "refused-password"],
    ]
    for (const [form, refusal] of cases) {
      const refused = after(open, { type: "csrf.valid" }, form)
      expect([refused.status, refused.value, refused.context.refusal, refused.context.user], JSON.stringify(form)).toEqual(["done", "signUpRefused", refusal, undefined])
    }
  })

  it("keeps the new user's address and name, and counts the sign-up against the address", () => {
    expect(after(open).context).toStrictEqual({ policy: open })
    const counting = after(open, { type: "csrf.valid" }, read)
    expect([counting.value, counting.context.user, counting.context.rateLimitIdentity, counting.context.refusal]).toEqual(["checkingRateLimit", { email, name: "Ada" }, email, undefined])
    const unnamed = after(open, { type: "csrf.valid" }, { type: "signUp.read", email })
    expect(unnamed.context.user).toStrictEqual({ email })
  })

  it("answers a taken address as taken, or as a new account whose owner is told where verification is required", () => {
    for (const policy of [open, mailed, undefined]) expect(after(policy, ...counted, { type: "user.exists" }).value, JSON.stringify(policy)).toBe("emailTaken")
    for (const policy of [required, byCode]) expect(after(policy, ...counted, { type: "user.exists" }).value, JSON.stringify(policy)).toBe("notifyingOwner")
    expect(after(open, ...counted, { type: "user.absent" }).value).toBe("checkingSignIn")
    const down = new Error("down")
    const failed = after(open, ...counted, { type: "lookup.failed", error: down })
    expect([failed.status, failed.value, failed.context.error]).toEqual(["done", "signUpFailed", down])
  })

  it("answers an address another sign-up took meanwhile as a taken one, and keeps any other failure's error", () => {
    const raced: PasswordSignUpEvent = { type: "create.failed", error: new Error("unique"), addressTaken: true }
    expect(after(open, ...allowed, raced).value).toBe("emailTaken")
    expect(after(required, ...allowed, raced).value).toBe("notifyingOwner")
    for (const policy of [open, required]) {
      const down = new Error("down")
      const failed = after(policy, ...allowed, { type: "create.failed", error: down, addressTaken: false })
      expect([failed.status, failed.value, failed.context.error], JSON.stringify(policy)).toEqual(["done", "signUpFailed", down])
    }
  })

  it("keeps the created user as new, and mails it only where the policy verifies or mails", () => {
    expect(after(open, ...allowed).value).toBe("creatingAccount")
    const issuing = after(open, ...allowed, accountCreated)
    expect([issuing.value, issuing.context.user, issuing.context.isNewUser]).toEqual(["encodingToken", created, true])
    expect(after(undefined, ...allowed, accountCreated).value).toBe("encodingToken")
    for (const policy of [mailed, required, byCode]) {
      const mailing = after(policy, ...allowed, accountCreated)
      expect([mailing.value, mailing.context.user, mailing.context.isNewUser], JSON.stringify(policy)).toEqual(["mailingVerification", created, true])
    }
  })

  it("after the verification mail, waits for the code, asks for the link, or signs the new user in", () => {
    const sent = (policy: PasswordSignUpPolicy) => after(policy, ...allowed, accountCreated, { type: "mail.sent", code })
    expect([sent(byCode).status, sent(byCode).value, sent(byCode).context.pendingCode]).toEqual(["done", "codeSent", code])
    expect([sent(codeOptional).value, sent(codeOptional).context.pendingCode]).toEqual(["codeSent", code])
    expect([sent(required).value, sent(required).context.pendingCode]).toEqual(["verificationRequired", undefined])
    expect(sent(mailed).value).toBe("encodingToken")
  })

  it("keeps a failed verification mail and answers as a sent one where verification is required; elsewhere the new user signs in", () => {
    const failed = (policy: PasswordSignUpPolicy) => after(policy, ...allowed, accountCreated, { type: "mail.failed", error: smtp, code })
    const coded = failed(byCode)
    expect([coded.status, coded.value, coded.context.mailFailed, coded.context.error, coded.context.pendingCode]).toEqual(["done", "codeSent", true, smtp, code])
    const linked = failed(required)
    expect([linked.status, linked.value, linked.context.mailFailed, linked.context.error, linked.context.pendingCode]).toEqual(["done", "verificationRequired", true, smtp, undefined])
    for (const policy of [codeOptional, mailed]) {
      const signingIn = failed(policy)
      expect([signingIn.value, signingIn.context.mailFailed, signingIn.context.error, signingIn.context.pendingCode], JSON.stringify(policy)).toEqual(["encodingToken", true, smtp, undefined])
    }
  })

  it("tells a taken address's owner and answers as a new account would be, the mail failing or not", () => {
    const toOwner = [...counted, { type: "user.exists" }] as const
    const coded = after(byCode, ...toOwner, { type: "mail.sent", code })
    expect([coded.status, coded.value, coded.context.pendingCode, coded.context.mailFailed]).toEqual(["done", "codeSent", code, undefined])
    const linked = after(required, ...toOwner, { type: "mail.sent" })
    expect([linked.status, linked.value, linked.context.mailFailed]).toEqual(["done", "verificationRequired", undefined])
    const codedFailed = after(byCode, ...toOwner, { type: "mail.failed", error: smtp, code })
    expect([codedFailed.value, codedFailed.context.mailFailed, codedFailed.context.error, codedFailed.context.pendingCode]).toEqual(["codeSent", true, smtp, code])
    const linkedFailed = after(required, ...toOwner, { type: "mail.failed", error: smtp })
    expect([linkedFailed.value, linkedFailed.context.mailFailed, linkedFailed.context.error]).toEqual(["verificationRequired", true, smtp])
  })

  it("sends the new user to the new-user page when there is one", () => {
    const signedIn = (policy: PasswordSignUpPolicy) => after(policy, ...allowed, accountCreated, { type: "token.encoded" }).value
    expect([signedIn({ ...open, newUserPage: true }), signedIn(open)]).toEqual(["signedInNewUser", "signedIn"])
  })
})
