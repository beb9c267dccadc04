/**
 * The sign-in tail every sign-in machine spreads in: its guards and actions on their own, and its
 * states as a machine that creates no users (credentials) meets them: the `signIn` callback's
 * answer, the session strategy, a failed session write. (The machines that create users, and the
 * renewal of stored provider tokens, are checked in email-verification, webauthn and oauth tests.)
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { contextFromInput, issuingSessionStates, signInTailGuards, type FirstFactorKind, type SecondFactorFound, type SignInOutcomeContext, type SignInTailEvent, type SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import { credentialsSignInMachine, type CredentialsSignInEvent } from "../../src/machines/credentials-sign-in.js"
import { CallbackRouteError } from "../../src/core/errors.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/credentials-sign-in.js", async (load) => (await import("./load-per-test.js")).perTestExports("credentials-sign-in", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "credentials-sign-in")

/** The credentials machine after these events, from its start with this policy. */
function after(policy: SignInTailPolicy, ...events: CredentialsSignInEvent[]) {
  const actor = createActor(credentialsSignInMachine, { input: { policy } }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const jwt: SignInTailPolicy = { databaseSessions: false, newUserPage: true }
const database: SignInTailPolicy = { databaseSessions: true, newUserPage: true }
const accepted: CredentialsSignInEvent[] = [
  { type: "csrf.valid" },
  { type: "credentials.read", identifier: "ada", nonString: [] },
  { type: "rateLimit.counted", hits: [] },
  { type: "authorize.returned", user: { id: "1" } },
  { type: "attempt.refunded" },
]
const allowed: CredentialsSignInEvent = { type: "signIn.answered", result: true }

describe("sign-in tail", () => {
  it("takes the policy from the input, when there is one", () => {
    expect(contextFromInput({ policy: jwt })).toStrictEqual({ policy: jwt })
    expect(contextFromInput({})).toStrictEqual({})
    expect(contextFromInput(undefined)).toStrictEqual({})
  })

  it("tells a URL, true and a refusal apart in the signIn callback's answer", () => {
    const guards = signInTailGuards<SignInOutcomeContext, SignInTailEvent>()
    const judge = (event: SignInTailEvent) => [guards.answeredUrl({ context: {}, event }), guards.answeredTrue({ context: {}, event })]
    expect(judge({ type: "signIn.answered", result: "/x" })).toEqual([true, false])
    expect(judge({ type: "signIn.answered", result: "" })).toEqual([true, false])
    expect(judge({ type: "signIn.answered", result: true })).toEqual([false, true])
    expect(judge({ type: "signIn.answered", result: false })).toEqual([false, false])
    // Another event carrying a result is no answer.
    expect(judge({ type: "redirect.resolved", url: "/x", result: "/x" } as never)).toEqual([false, false])
    expect(judge({ type: "redirect.resolved", url: "/x", result: true } as never)).toEqual([false, false])
  })

  it("keeps an AuthError only when a callback threw it", () => {
    const { threwAuthError } = signInTailGuards<SignInOutcomeContext, SignInTailEvent>()
    const authError = new CallbackRouteError("refused")
    expect(threwAuthError({ context: {}, event: { type: "signIn.threw", error: authError } })).toBe(true)
    expect(threwAuthError({ context: {}, event: { type: "redirect.threw", error: authError } })).toBe(true)
    expect(threwAuthError({ context: {}, event: { type: "persist.failed", error: authError } })).toBe(false)
    expect(threwAuthError({ context: {}, event: { type: "signIn.threw", error: new Error("plain") } })).toBe(false)
  })

  it("reads the policy: database sessions, the new-user page for a created user, the renewal of stored tokens", () => {
    const guards = signInTailGuards<SignInOutcomeContext, SignInTailEvent>()
    const created: SignInTailEvent = { type: "session.created", providerTokens: true }
    expect(guards.databaseSessions({ context: {}, event: created })).toBe(false)
    expect(guards.newUserPage({ context: { isNewUser: true }, event: created })).toBe(false)
    expect(guards.newUserPage({ context: { isNewUser: true, policy: jwt }, event: created })).toBe(true)
    expect(guards.newUserPage({ context: { isNewUser: false, policy: jwt }, event: created })).toBe(false)
    const renewing = { ...database, renewsStoredTokens: true }
    expect(guards.renewsStoredTokens({ context: { policy: renewing }, event: created })).toBe(true)
    expect(guards.renewsStoredTokens({ context: { policy: renewing }, event: { type: "token.encoded", providerTokens: true } as never })).toBe(false)
    expect(guards.renewsStoredTokens({ context: { policy: database }, event: created })).toBe(false)
    expect(guards.renewsStoredTokens({ context: {}, event: created })).toBe(false)
  })

  it("reads what the second-factor lookup found: a passkey, a trusted device, enrolled factors, a requirement", () => {
    const guards = signInTailGuards<SignInOutcomeContext, SignInTailEvent>()
    const nothing: SecondFactorFound = { type: "secondFactor.found", factors: 0, backupCodes: 0, required: false, emailCode: false, firstFactorEmail: false, passkeyVerified: false, current: { userId: "u1", fingerprint: "F", revokedAt: 10 } }
    const on = { policy: { ...jwt, secondFactor: true } }
    const judge = (guard: keyof typeof guards, event: SignInTailEvent, context: SignInOutcomeContext = on) => guards[guard]({ context, event })
    // Any other event finds nothing, even one that carries the same fields.
    const other = { ...nothing, type: "token.encoded", passkeyVerified: true, factors: 1, backupCodes: 1, required: true, emailCode: true } as never
    for (const guard of ["passkeyCountsAsTwoFactors", "deviceTrusted", "hasSecondFactor", "requiredByEmailCode", "requiredWithoutMethod"] as const) expect(judge(guard, other), guard).toBe(false)

    expect(judge("passkeyCountsAsTwoFactors", { ...nothing, passkeyVerified: true })).toBe(true)
    expect(judge("passkeyCountsAsTwoFactors", { ...nothing, passkeyVerified: true }, {})).toBe(true)
    expect(judge("passkeyCountsAsTwoFactors", nothing)).toBe(false)
    expect(judge("passkeyCountsAsTwoFactors", { ...nothing, passkeyVerified: true }, { policy: { ...on.policy, passkeyCountsAsTwoFactors: false } })).toBe(false)

    const device = { userId: "u1", fingerprint: "F", issuedAt: 11 }
    expect(judge("deviceTrusted", { ...nothing, trustedDevice: device })).toBe(true)
    expect(judge("deviceTrusted", nothing)).toBe(false)
    expect(judge("deviceTrusted", { ...nothing, trustedDevice: { ...device, userId: "u2" } })).toBe(false)
    expect(judge("deviceTrusted", { ...nothing, trustedDevice: { ...device, fingerprint: "G" } })).toBe(false)
    // Made before the user's sessions were last revoked: no longer trusted.
    expect(judge("deviceTrusted", { ...nothing, trustedDevice: { ...device, issuedAt: 10 } })).toBe(false)
    expect(judge("deviceTrusted", { ...nothing, trustedDevice: { ...device, issuedAt: 1 }, current: { userId: "u1", fingerprint: "F" } })).toBe(true)

    expect(judge("hasSecondFactor", { ...nothing, factors: 1 })).toBe(true)
    expect(judge("hasSecondFactor", { ...nothing, backupCodes: 1 })).toBe(true)
    expect(judge("hasSecondFactor", nothing)).toBe(false)

    expect(judge("requiredByEmailCode", { ...nothing, required: true, emailCode: true })).toBe(true)
    expect(judge("requiredByEmailCode", { ...nothing, required: true })).toBe(false)
    expect(judge("requiredByEmailCode", { ...nothing, emailCode: true })).toBe(false)
    expect(judge("requiredWithoutMethod", { ...nothing, required: true })).toBe(true)
    expect(judge("requiredWithoutMethod", nothing)).toBe(false)
  })

  it("issues the session its strategy names, and signs in (never on the new-user page) a machine that creates no users", () => {
    expect(after(jwt, ...accepted, allowed).value).toBe("encodingToken")
    expect(after(jwt, ...accepted, allowed, { type: "token.encoded" }).value).toBe("signedIn")
    expect(after(database, ...accepted, allowed).value).toBe("creatingSession")
    expect(after(database, ...accepted, allowed, { type: "session.created", providerTokens: true }).value).toBe("signedIn")
    expect(Object.keys(credentialsSignInMachine.root.states)).not.toContain("signedInNewUser")
    expect(Object.keys(credentialsSignInMachine.root.states)).not.toContain("renewingStoredTokens")
  })

  it("ends in sessionFailed, with the error, when either session write fails", () => {
    const down = new Error("down")
    const encode = after(jwt, ...accepted, allowed, { type: "encode.failed", error: down })
    expect([encode.status, encode.value, encode.context.error]).toEqual(["done", "sessionFailed", down])
    const session = after(database, ...accepted, allowed, { type: "session.failed", error: down })
    expect([session.status, session.value, session.context.error]).toEqual(["done", "sessionFailed", down])
  })

  it("names the effect of each of its states", () => {
    const effects = Object.fromEntries(Object.entries(credentialsSignInMachine.root.states).map(([name, node]) => [name, (node.meta as { effect?: string } | undefined)?.effect]))
    expect([effects.checkingSignIn, effects.resolvingRedirect, effects.creatingSession, effects.encodingToken, effects.issuingSession]).toEqual(["askSignIn", "resolveRedirect", "createSession", "encodeToken", undefined])
  })

  it("carries only the second-factor rules its first factor can meet", () => {
    const rules = (firstFactor?: FirstFactorKind) =>
      issuingSessionStates(true, firstFactor === undefined ? {} : { firstFactor }).checkingSecondFactor.on["secondFactor.found"].map((rule) => ("guard" in rule ? rule.guard : "otherwise"))
    const other = ["deviceTrusted", "hasSecondFactor", "requiredByEmailCode", "requiredWithoutMethod", "otherwise"]
    expect(rules()).toEqual(other)
    expect(rules("other")).toEqual(other)
    // A passkey verified with user verification may count as both factors.
    expect(rules("passkey")).toEqual(["passkeyCountsAsTwoFactors", ...other])
    // After an email, an emailed code would be the same factor again.
    expect(rules("email")).toEqual(["deviceTrusted", "hasSecondFactor", "requiredWithoutMethod", "otherwise"])
  })
})
