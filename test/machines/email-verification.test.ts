/**
 * The email verification machine on its own, driven with the events its effects send: how each
 * answer about the link's token is judged, who the link signs in, where a failure after the token
 * was used ends once the token is put back, and the sign-in tail it shares (the `signIn` and
 * `redirect` callbacks' answers, the session strategy, the new-user page).
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import { emailVerificationMachine, type EmailVerificationEvent } from "../../src/machines/email-verification.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import { AccessDenied, AuthError, CallbackRouteError } from "../../src/core/errors.js"
import { effectsByState, finalStates } from "./effects.js"
import { emailUserEffects } from "./email-user.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the sign-in tail it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/email-verification.js", async (load) => (await import("./load-per-test.js")).perTestExports("email-verification", await load()))
loadMachinesPerTest("sign-in-tail", "email-verification")

const jwt: SignInTailPolicy = { databaseSessions: false, newUserPage: false }
const database: SignInTailPolicy = { databaseSessions: true, newUserPage: false }

/** The machine after these events, from its start with this policy. */
function after(policy: SignInTailPolicy | undefined, ...events: EmailVerificationEvent[]) {
  const actor = createActor(emailVerificationMachine, { input: policy ? { policy } : undefined }).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const checkedAt = new Date("2026-01-01T00:00:00Z")
const expires = new Date("2026-01-01T00:10:00Z")
const ada = { id: "u-ada", email: "ada@example.com", emailVerified: null }
const read: EmailVerificationEvent = { type: "link.read", hasToken: true, email: "ada@example.com" }
const used: EmailVerificationEvent = { type: "token.used", row: { identifier: "ada@example.com", expires }, checkedAt }
const known: EmailVerificationEvent = { type: "user.lookedUp", user: ada, newUserId: "u-new" }
const unknown: EmailVerificationEvent = { type: "user.lookedUp", user: null, newUserId: "u-new" }
const allowed: EmailVerificationEvent = { type: "signIn.answered", result: true }
const toSignIn = [read, used, known] as const

describe("email verification machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(emailVerificationMachine)).toEqual(["accessDenied", "identifierInvalid", "identifierMismatch", "linkIncomplete", "lookupFailed", "persistFailed", "redirected", "secondFactorRequired", "secondFactorUnavailable", "sessionFailed", "signedIn", "signedInNewUser", "tokenExpired", "tokenLookupFailed", "tokenUnknown"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(emailVerificationMachine)).toEqual({
      readingLink: "readLink",
      usingToken: "useToken",
      lookingUpUser: "lookUpUser",
      restoringToken: "restoreToken",
      ...emailUserEffects,
    })
  })

  it("starts with the policy it is given, and without one when it is given none", () => {
    expect(after(database).context).toStrictEqual({ policy: database })
    expect(after(undefined).context).toStrictEqual({})
  })

  it("uses the link's token only when it carries one, and keeps the link's address", () => {
    expect(after(jwt, { type: "link.read", hasToken: false, email: "ada@example.com" }).value).toBe("linkIncomplete")
    const reading = after(jwt, read)
    expect([reading.value, reading.context.linkEmail]).toEqual(["usingToken", "ada@example.com"])
    expect("linkEmail" in after(jwt, { type: "link.read", hasToken: true }).context).toBe(false)
  })

  it("refuses a token the database does not have, an expired one, one for another address, and one for an address outside the grammar", () => {
    expect(after(jwt, read, { type: "token.used", row: null, checkedAt }).value).toBe("tokenUnknown")
    expect(after(jwt, read, { type: "token.used", row: { identifier: "ada@example.com", expires: new Date(checkedAt.getTime() - 1) }, checkedAt }).value).toBe("tokenExpired")
    expect(after(jwt, read, { type: "token.used", row: { identifier: "ada@example.com", expires: new Date("not a date") }, checkedAt }).value).toBe("tokenExpired")
    // Expiring the moment the database answered: still valid.
    expect(after(jwt, read, { type: "token.used", row: { identifier: "ada@example.com", expires: checkedAt }, checkedAt }).value).toBe("lookingUpUser")
    expect(after(jwt, read, { type: "token.used", row: { identifier: "bob@example.com", expires }, checkedAt }).value).toBe("identifierMismatch")
    // A link without an address: the token's address is taken.
    const noEmail = after(jwt, { type: "link.read", hasToken: true }, { type: "token.used", row: { identifier: "bob@example.com", expires }, checkedAt })
    expect([noEmail.value, noEmail.context.identifier]).toEqual(["lookingUpUser", "bob@example.com"])
    const outside = { type: "link.read", hasToken: true } as const
    expect(after(jwt, outside, { type: "token.used", row: { identifier: "not an address", expires }, checkedAt }).value).toBe("identifierInvalid")
    expect(after(jwt, outside, { type: "token.used", row: { identifier: "ada@Example.com", expires }, checkedAt }).value).toBe("identifierInvalid")
    const down = new Error("down")
    const failed = after(jwt, read, { type: "token.failed", error: down })
    expect([failed.value, failed.context.error]).toEqual(["tokenLookupFailed", down])
  })

  it("keeps the address the token was issued for and when it expires", () => {
    const looking = after(jwt, read, { type: "token.used", row: { identifier: "ada@example.com", expires: expires.toISOString() as unknown as Date }, checkedAt })
    expect([looking.value, looking.context.identifier, looking.context.tokenExpires]).toEqual(["lookingUpUser", "ada@example.com", expires])
  })

  it("verifies the user who has the address, or creates one with the id the lookup drew", () => {
    const existing = after(jwt, ...toSignIn)
    expect([existing.value, existing.context.plan, existing.context.user]).toEqual(["checkingSignIn", "verifyExistingUser", ada])
    const created = after(jwt, read, used, unknown)
    expect([created.value, created.context.plan, created.context.user]).toEqual(["checkingSignIn", "createUser", { id: "u-new", email: "ada@example.com", emailVerified: null }])
  })

  it("with database sessions, signs a browser out of another user's session before verifying an existing user", () => {
    expect(after(jwt, ...toSignIn, allowed).value).toBe("persistingUser")
    expect(after(database, read, used, unknown, allowed).value).toBe("persistingUser")
    expect(after(database, ...toSignIn, allowed).value).toBe("findingCurrentSession")
    expect(after(database, ...toSignIn, allowed, { type: "currentSession.found", userId: "u-bob" }).value).toBe("endingOtherSession")
    expect(after(database, ...toSignIn, allowed, { type: "currentSession.found", userId: "u-ada" }).value).toBe("persistingUser")
    expect(after(database, ...toSignIn, allowed, { type: "currentSession.none" }).value).toBe("persistingUser")
    expect(after(database, ...toSignIn, allowed, { type: "currentSession.found", userId: "u-bob" }, { type: "otherSession.ended" }).value).toBe("persistingUser")
  })

  it("puts the token back after a failure, and ends in the failure it came from however the restore went", () => {
    const down = new Error("down")
    for (const restore of [{ type: "token.restored" }, { type: "restore.failed", error: new Error("still down") }] as const) {
      const lookup = after(jwt, read, used, { type: "lookup.failed", error: down })
      expect([lookup.value, lookup.context.failure, lookup.context.error]).toEqual(["restoringToken", "lookupFailed", down])
      expect(after(jwt, read, used, { type: "lookup.failed", error: down }, restore).value).toBe("lookupFailed")
      const persist = after(jwt, ...toSignIn, allowed, { type: "persist.failed", error: down })
      expect([persist.value, persist.context.failure, persist.context.error]).toEqual(["restoringToken", "persistFailed", down])
      expect(after(jwt, ...toSignIn, allowed, { type: "persist.failed", error: down }, restore).value).toBe("persistFailed")
      expect(after(database, ...toSignIn, allowed, { type: "currentSession.failed", error: down }, restore).value).toBe("persistFailed")
      expect(after(database, ...toSignIn, allowed, { type: "currentSession.found", userId: "u-bob" }, { type: "otherSession.failed", error: down }, restore).value).toBe("persistFailed")
      const persisted = { type: "user.persisted", isNewUser: false, user: ada } as const
      const encode = after(jwt, ...toSignIn, allowed, persisted, { type: "encode.failed", error: down })
      expect([encode.value, encode.context.failure, encode.context.error]).toEqual(["restoringToken", "sessionFailed", down])
      expect(after(jwt, ...toSignIn, allowed, persisted, { type: "encode.failed", error: down }, restore).value).toBe("sessionFailed")
      expect(after(database, read, used, unknown, allowed, { type: "user.persisted", isNewUser: true }, { type: "session.failed", error: down }, restore).value).toBe("sessionFailed")
    }
  })

  it("keeps the user as written, and issues the session its strategy names", () => {
    const written = { ...ada, emailVerified: new Date(0) }
    const encoding = after(jwt, ...toSignIn, allowed, { type: "user.persisted", isNewUser: false, user: written })
    expect([encoding.value, encoding.context.user, encoding.context.isNewUser]).toEqual(["encodingToken", written, false])
    expect(after(jwt, ...toSignIn, allowed, { type: "user.persisted", isNewUser: false }).context.user).toEqual(ada)
    expect(after(database, read, used, unknown, allowed, { type: "user.persisted", isNewUser: true }).value).toBe("creatingSession")
    expect(after(undefined, read, used, unknown, allowed, { type: "user.persisted", isNewUser: true }).value).toBe("encodingToken")
  })

  it("sends a new user to the new-user page when there is one, anybody else signed in", () => {
    const newUserPage = { databaseSessions: false, newUserPage: true }
    const persistedNew = { type: "user.persisted", isNewUser: true } as const
    expect(after(newUserPage, read, used, unknown, allowed, persistedNew, { type: "token.encoded" }).value).toBe("signedInNewUser")
    expect(after(jwt, read, used, unknown, allowed, persistedNew, { type: "token.encoded" }).value).toBe("signedIn")
    expect(after(newUserPage, ...toSignIn, allowed, { type: "user.persisted", isNewUser: false }, { type: "token.encoded" }).value).toBe("signedIn")
    expect(after({ ...database, newUserPage: true }, read, used, unknown, allowed, persistedNew, { type: "session.created" }).value).toBe("signedInNewUser")
    expect(after(database, read, used, unknown, allowed, persistedNew, { type: "session.created" }).value).toBe("signedIn")
  })

  it("goes on for any truthy answer of the signIn callback that is not a URL, and refuses the others with AccessDenied", () => {
    for (const result of [true, 1, {}]) expect(after(jwt, ...toSignIn, { type: "signIn.answered", result }).value, String(result)).toBe("persistingUser")
    for (const result of [false, undefined, null, 0]) {
      const refused = after(jwt, ...toSignIn, { type: "signIn.answered", result })
      expect([refused.value, refused.context.error instanceof AccessDenied, (refused.context.error as Error).message], String(result)).toEqual(["accessDenied", true, "AccessDenied"])
    }
  })

  it("resolves the URL the signIn callback answered through the redirect callback", () => {
    const resolving = after(jwt, ...toSignIn, { type: "signIn.answered", result: "/elsewhere" })
    expect([resolving.value, resolving.context.requestedRedirect]).toEqual(["resolvingRedirect", "/elsewhere"])
    // An empty URL is a URL too.
    expect(after(jwt, ...toSignIn, { type: "signIn.answered", result: "" }).value).toBe("resolvingRedirect")
    const redirected = after(jwt, ...toSignIn, { type: "signIn.answered", result: "/elsewhere" }, { type: "redirect.resolved", url: "https://app.example/elsewhere" })
    expect([redirected.value, redirected.context.redirectTo]).toEqual(["redirected", "https://app.example/elsewhere"])
  })

  it("keeps an AuthError either callback throws, and wraps anything else in AccessDenied", () => {
    const own = new CallbackRouteError("refused here")
    const thrownBy = [(error: unknown) => after(jwt, ...toSignIn, { type: "signIn.threw", error }), (error: unknown) => after(jwt, ...toSignIn, { type: "signIn.answered", result: "/x" }, { type: "redirect.threw", error })]
    for (const asThrown of thrownBy) {
      const kept = asThrown(own)
      expect([kept.value, kept.context.error]).toEqual(["accessDenied", own])
      const plain = new Error("boom")
      const wrapped = asThrown(plain)
      expect([wrapped.value, wrapped.context.error instanceof AccessDenied, (wrapped.context.error as AuthError).cause?.err]).toEqual(["accessDenied", true, plain])
      const text = asThrown("a string")
      expect([(text.context.error as AuthError).cause?.err?.message]).toEqual(["a string"])
    }
  })
})
