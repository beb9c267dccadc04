/**
 * The WebAuthn machine on its own, driven with the events its effects send: which ceremony an
 * options request gets, what the waiting flow keeps for the challenge cookie, how each finding of
 * a checked response is judged (and which check refused it), and what a registration writes or
 * undoes.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { webAuthnMachine, type CeremonyFindings, type WebAuthnEvent } from "../../src/machines/webauthn.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/webauthn.js", async (load) => (await import("./load-per-test.js")).perTestExports("webauthn", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "webauthn")

/** The machine after these events, from its start. */
function after(...events: WebAuthnEvent[]) {
  const actor = createActor(webAuthnMachine).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const admitted: WebAuthnEvent = { type: "rateLimit.counted", hits: [] }
const ada = { id: "u-ada", email: "ada@example.com", name: "Ada" }
const newcomer = { email: "new@example.com" }
const found = (signedIn: boolean, exists: boolean, user?: { id?: string; email: string; name?: string }): WebAuthnEvent => ({ type: "user.found", signedIn, exists, ...(user && { user }) })
const ready: WebAuthnEvent = { type: "options.ready", challenge: "ch-1", options: { challenge: "ch-1" }, issued: true }
const policy: SignInTailPolicy = { databaseSessions: false, newUserPage: true }

/** The options request for this action, the user found as given. */
const options = (action: string | undefined, user: WebAuthnEvent) => [{ type: "options.requested", ...(action !== undefined && { action }) } as WebAuthnEvent, admitted, user] as const
const received = (action: string): WebAuthnEvent[] => [{ type: "ceremony.received", action, policy }, { type: "csrf.valid" }, admitted, { type: "challenge.fresh" }]
/** Up to verifying the response: a registration for Ada (signed in), or an assertion. */
const registering = [...options("register", found(true, true, ada)), ready, ...received("register")]
const authenticating = [...options("authenticate", found(false, false)), ready, ...received("authenticate")]

const registration: CeremonyFindings = {
  type: "webauthn.create",
  challenge: "ch-1",
  origin: "https://app.example",
  originExpected: true,
  rpIdExpected: true,
  userPresent: true,
  userVerified: true,
  userVerificationRequired: true,
  counter: 0,
  verified: true,
  credentialTaken: false,
  signedInAs: "u-ada",
}
const assertion: CeremonyFindings = { ...registration, type: "webauthn.get", counter: 6, storedCounter: 5, signedInAs: undefined, credentialOwner: "u-ada", credentialTaken: undefined }
const checked = (findings: CeremonyFindings, extra: Partial<Extract<WebAuthnEvent, { type: "response.checked" }>> = {}): WebAuthnEvent => ({ type: "response.checked", findings, error: new Error("refused"), ...extra })

describe("WebAuthn machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(webAuthnMachine)).toEqual(["accessDenied", "accountNotLinked", "badSignature", "challengeMismatch", "challengeReplayed", "counterRegressed", "csrfRejected", "invalidAction", "invalidRequest", "optionsFailed", "persistFailed", "rateLimited", "redirected", "responseMalformed", "secondFactorRequired", "secondFactorUnavailable", "sessionFailed", "signedIn", "signedInNewUser", "unknownCredential", "userVerificationMissing", "wrongCeremony", "wrongOrigin", "wrongRpId"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(webAuthnMachine)).toEqual({
      checkingSecondFactor: "findSecondFactor",
      readingRequest: "readRequest",
      checkingRateLimit: "checkRateLimit",
      findingUser: "findUser",
      preparingRegistration: "prepareRegistration",
      preparingAuthentication: "prepareAuthentication",
      validatingInput: "checkCsrf",
      checkingCallbackRateLimit: "checkRateLimit",
      claimingChallenge: "claimChallenge",
      verifyingRegistration: "verifyRegistration",
      verifyingAuthentication: "verifyAuthentication",
      recordingCounter: "updateCounter",
      checkingSignIn: "askSignIn",
      resolvingRedirect: "resolveRedirect",
      persistingUser: "persistUser",
      undoingRegistration: "undoRegistration",
      creatingSession: "createSession",
      encodingToken: "encodeToken",
    })
  })

  it("refuses an action that is neither register nor authenticate, and keeps the one asked for", () => {
    expect(after({ type: "options.requested", action: "delete" }).value).toBe("invalidAction")
    for (const action of ["register", "authenticate", undefined]) {
      const counting = after({ type: "options.requested", action })
      expect([counting.value, counting.context.requested], String(action)).toEqual(["checkingRateLimit", action])
    }
    expect(after({ type: "options.requested" }, admitted).value).toBe("findingUser")
  })

  it("authenticates when asked to, and registers only a signed-in user or an email nobody has", () => {
    const authenticate = after(...options("authenticate", found(true, true, ada)))
    expect([authenticate.value, authenticate.context.user]).toEqual(["preparingAuthentication", ada])
    const signedIn = after(...options("register", found(true, true, ada)))
    expect([signedIn.value, signedIn.context.user]).toEqual(["preparingRegistration", ada])
    expect(after(...options("register", found(false, false, newcomer))).value).toBe("preparingRegistration")
    expect(after(...options("register", found(false, true, ada))).value).toBe("invalidRequest")
    expect(after(...options("register", found(true, false, newcomer))).value).toBe("invalidRequest")
    expect(after(...options("register", found(false, false))).value).toBe("invalidRequest")
    expect(after(...options("register", found(false, false, { email: "" }))).value).toBe("invalidRequest")
    // An effect of your own may find a user without an address: nothing to register.
    expect(after(...options("register", found(false, false, {} as never))).value).toBe("invalidRequest")
  })

  it("without an action: a signed-in user must say, a new email registers, anybody else authenticates", () => {
    expect(after(...options(undefined, found(true, true, ada))).value).toBe("invalidRequest")
    const fresh = after(...options(undefined, found(false, false, newcomer)))
    expect([fresh.value, fresh.context.user]).toEqual(["preparingRegistration", newcomer])
    const known = after(...options(undefined, found(false, true, ada)))
    expect([known.value, known.context.user]).toEqual(["preparingAuthentication", ada])
    expect(after(...options(undefined, found(false, false, { email: "" }))).value).toBe("preparingAuthentication")
    expect(after(...options(undefined, found(false, false))).value).toBe("preparingAuthentication")
    const down = new Error("down")
    const failed = after({ type: "options.requested" }, admitted, { type: "lookup.failed", error: down })
    expect([failed.value, failed.context.error]).toEqual(["optionsFailed", down])
  })

  it("keeps for the challenge cookie the ceremony, its challenge, and for a registration the user", () => {
    const waitingToRegister = after(...options("register", found(true, true, ada)), ready)
    expect(waitingToRegister.value).toBe("awaitingCeremony")
    expect(waitingToRegister.context).toStrictEqual({ flow: { ceremony: "register", challenge: "ch-1", user: ada }, user: undefined, requested: undefined, options: { challenge: "ch-1" }, flowIssued: true })
    const waitingToAuthenticate = after(...options("authenticate", found(false, true, ada)), { ...ready, issued: false } as WebAuthnEvent)
    expect(waitingToAuthenticate.context).toStrictEqual({ flow: { ceremony: "authenticate", challenge: "ch-1" }, user: undefined, requested: undefined, options: { challenge: "ch-1" }, flowIssued: false })
    const down = new Error("down")
    expect(after(...options("register", found(true, true, ada)), { type: "options.failed", error: down }).context.error).toBe(down)
    const authenticationFailed = after(...options("authenticate", found(true, true, ada)), { type: "options.failed", error: down })
    expect([authenticationFailed.value, authenticationFailed.context.error]).toEqual(["optionsFailed", down])
  })

  it("checks CSRF and the rate limit on the answer, then claims its challenge for the ceremony it was issued for", () => {
    const waiting = [...options("register", found(true, true, ada)), ready] as const
    const answered = after(...waiting, { type: "ceremony.received", action: "register", policy })
    expect([answered.value, answered.context.postedAction, answered.context.policy]).toEqual(["validatingInput", "register", policy])
    expect(after(...waiting, { type: "ceremony.received", action: "register", policy }, { type: "csrf.invalid" }).value).toBe("csrfRejected")
    expect(after(...registering).value).toBe("verifyingRegistration")
    expect(after(...authenticating).value).toBe("verifyingAuthentication")
    const mismatch = after(...waiting, ...received("authenticate"))
    expect([mismatch.value, mismatch.context.failedCheck]).toEqual(["wrongCeremony", "action"])
    const replay = new Error("replayed")
    const replayed = after(...waiting, ...received("register").slice(0, 3), { type: "challenge.replayed", error: replay })
    expect([replayed.value, replayed.context.error]).toEqual(["challengeReplayed", replay])
    const storeDown = after(...waiting, ...received("register").slice(0, 3), { type: "challenge.failed", error: replay })
    expect([storeDown.value, storeDown.context.error]).toEqual(["persistFailed", replay])
  })

  it("names the check that refused a registration, in order, and keeps the findings", () => {
    const refusals: [Partial<CeremonyFindings>, string, string | undefined][] = [
      [{ type: "webauthn.get" }, "wrongCeremony", "type"],
      [{ challenge: "ch-2" }, "challengeMismatch", undefined],
      [{ originExpected: false }, "wrongOrigin", undefined],
      [{ rpIdExpected: false }, "wrongRpId", undefined],
      [{ userPresent: false }, "userVerificationMissing", "user-presence"],
      [{ userVerified: false }, "userVerificationMissing", "user-verification"],
      [{ verified: false }, "badSignature", undefined],
      [{ credentialTaken: true }, "accountNotLinked", "credential-taken"],
      [{ signedInAs: "u-bob" }, "accountNotLinked", "signed-in-user"],
      [{ signedInAs: undefined }, "accountNotLinked", "signed-in-user"],
    ]
    for (const [change, state, check] of refusals) {
      const findings = { ...registration, ...change }
      const refused = after(...registering, checked(findings))
      expect([refused.value, refused.context.failedCheck, refused.context.findings, (refused.context.error as Error)?.message], state).toEqual([state, check, findings, "refused"])
    }
    // Not required, user verification may be missing; a registration has no counter to regress.
    expect(after(...registering, checked({ ...registration, userVerified: false, userVerificationRequired: false })).value).toBe("checkingSignIn")
    expect(after(...registering, checked({ ...registration, counter: 1, storedCounter: 5 })).value).toBe("checkingSignIn")
    const bad = new Error("bad")
    const malformed = after(...registering, { type: "response.malformed", error: bad })
    expect([malformed.value, malformed.context.error]).toEqual(["responseMalformed", bad])
  })

  it("registers a new user only in a browser signed in as nobody", () => {
    const forNewcomer = [...options("register", found(false, false, newcomer)), ready, ...received("register")]
    expect(after(...forNewcomer, checked({ ...registration, signedInAs: undefined })).value).toBe("checkingSignIn")
    const refused = after(...forNewcomer, checked({ ...registration, signedInAs: "u-bob" }))
    expect([refused.value, refused.context.failedCheck]).toEqual(["accountNotLinked", "signed-in-user"])
  })

  it("names the check that refused an assertion: a counter that does not grow, a browser signed in as another user", () => {
    const refusals: [Partial<CeremonyFindings>, string, string | undefined][] = [
      [{ type: "webauthn.create" }, "wrongCeremony", "type"],
      [{ counter: 5 }, "counterRegressed", undefined],
      [{ counter: 0 }, "counterRegressed", undefined],
      [{ counter: 0, storedCounter: 0, verified: false }, "badSignature", undefined],
      [{ signedInAs: "u-bob" }, "accountNotLinked", "signed-in-user"],
    ]
    for (const [change, state, check] of refusals) {
      const refused = after(...authenticating, checked({ ...assertion, ...change }))
      expect([refused.value, refused.context.failedCheck], state).toEqual([state, check])
    }
    const accepted: Partial<CeremonyFindings>[] = [{}, { counter: 0, storedCounter: 0 }, { counter: 3, storedCounter: 0 }, { storedCounter: undefined, counter: 0 }, { signedInAs: "u-ada" }, { credentialTaken: true }]
    for (const change of accepted) expect(after(...authenticating, checked({ ...assertion, ...change })).value, JSON.stringify(change)).toBe("recordingCounter")
    const unknown = new Error("unknown")
    const unknownCredential = after(...authenticating, { type: "credential.unknown", error: unknown })
    expect([unknownCredential.value, unknownCredential.context.error]).toEqual(["unknownCredential", unknown])
    const bad = new Error("bad")
    const malformed = after(...authenticating, { type: "response.malformed", error: bad })
    expect([malformed.value, malformed.context.error]).toEqual(["responseMalformed", bad])
  })

  it("keeps who a verified response signs in, and the authenticator it creates or was checked against", () => {
    const signIn = { user: { id: "u-ada" }, account: { provider: "passkey", type: "webauthn" as const, providerAccountId: "cred-1" } }
    const registered = { credentialID: "cred-1", providerAccountId: "cred-1", credentialPublicKey: "pk", counter: 0, credentialDeviceType: "singleDevice", credentialBackedUp: false }
    const registeredFlow = after(...registering, checked(registration, { signIn, registered } as never))
    expect([registeredFlow.context.findings, registeredFlow.context.signIn, registeredFlow.context.registered, "authenticator" in registeredFlow.context]).toEqual([registration, signIn, registered, false])
    const authenticator = { ...registered, userId: "u-ada" }
    const asserted = after(...authenticating, checked(assertion, { signIn, authenticator } as never))
    expect([asserted.context.authenticator, asserted.context.signIn, "registered" in asserted.context]).toEqual([authenticator, signIn, false])
    const unnamed = after(...registering, checked(registration))
    expect(["signIn" in unnamed.context, "registered" in unnamed.context, "authenticator" in unnamed.context]).toEqual([false, false, false])
    expect(after(...authenticating, checked(assertion), { type: "counter.updated" }).value).toBe("checkingSignIn")
    const down = new Error("down")
    const counterFailed = after(...authenticating, checked(assertion), { type: "counter.failed", error: down })
    expect([counterFailed.value, counterFailed.context.error]).toEqual(["persistFailed", down])
  })

  it("writes a registration before the session, keeps what was stored, and undoes what a failed write wrote", () => {
    const allowed: WebAuthnEvent = { type: "signIn.answered", result: true }
    expect(after(...registering, checked(registration), allowed).value).toBe("persistingUser")
    expect(after(...authenticating, checked(assertion), { type: "counter.updated" }, allowed).value).toBe("encodingToken")
    const user = { id: "u-ada", email: "ada@example.com", emailVerified: null }
    const account = { userId: "u-ada", provider: "passkey", type: "webauthn" as const, providerAccountId: "cred-1" }
    const stored = after(...registering, checked(registration), allowed, { type: "user.persisted", isNewUser: true, user, account })
    expect([stored.value, stored.context.signIn, stored.context.isNewUser]).toEqual(["encodingToken", { user, account }, true])
    expect(after(...registering, checked(registration), allowed, { type: "user.persisted", isNewUser: true, user, account }, { type: "token.encoded" }).value).toBe("signedInNewUser")
    const down = new Error("down")
    const undoing = after(...registering, checked(registration), allowed, { type: "persist.failed", error: down, undo: { account } })
    expect([undoing.value, undoing.context.undo, undoing.context.error]).toEqual(["undoingRegistration", { account }, down])
    expect("undo" in after(...registering, checked(registration), allowed, { type: "persist.failed", error: down }).context).toBe(false)
    for (const outcome of [{ type: "registration.undone" }, { type: "undo.failed", error: down }] as const) {
      expect(after(...registering, checked(registration), allowed, { type: "persist.failed", error: down, undo: { userId: "u-ada" } }, outcome).value).toBe("persistFailed")
    }
  })
})
