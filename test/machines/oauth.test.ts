/**
 * The OAuth machine on its own, driven with the events its effects send: what the waiting flow
 * keeps, how the resumed flow is claimed once (and which claim failure is the adapter's), which check refuses the provider's response or its tokens, how account linking decides
 * who signs in (the account-linking states it spreads in), what a failed write undoes, and when a
 * database session renews the provider tokens stored for the account.
 */
import { createActor } from "xstate"
import { describe, expect, it, vi } from "vitest"
import type { AuthorizationServer } from "oauth4webapi"
import { oauthMachine, type OAuthCallbackPolicy, type OAuthEvent, type OAuthFlowChecks } from "../../src/machines/oauth.js"
import { AdapterError, AdapterTimeout } from "../../src/core/errors.js"
import { effectsByState, finalStates } from "./effects.js"
import { loadMachinesPerTest } from "./load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("./load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("./load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("./load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("./load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/account-linking.js", async (load) => (await import("./load-per-test.js")).perTestExports("account-linking", await load()))
vi.mock("../../src/machines/oauth.js", async (load) => (await import("./load-per-test.js")).perTestExports("oauth", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "flow-claim", "account-linking", "oauth")

/** The machine after these events, from its start. */
function after(...events: OAuthEvent[]) {
  const actor = createActor(oauthMachine).start()
  for (const event of events) actor.send(event)
  return actor.getSnapshot()
}

const admitted: OAuthEvent = { type: "rateLimit.counted", hits: [] }
const server = { issuer: "https://idp.example" } as AuthorizationServer
const checks: OAuthFlowChecks = { codeVerifier: "v", state: "s-1", nonce: "n", redirectUri: "https://app.example/cb", callbackUrl: "/", startedBy: "u-ada" }
const policy: OAuthCallbackPolicy = { databaseSessions: false, newUserPage: false, adapter: true, emailLinking: false }
const ada = { id: "u-ada", email: "ada@example.com", emailVerified: null }
const bob = { id: "u-bob", email: "bob@example.com", emailVerified: null }

const waiting: OAuthEvent[] = [{ type: "csrf.valid" }, admitted, { type: "discovery.done", server }, { type: "authorization.ready", checks, url: "https://idp.example/authorize?x", issued: true }]
/** The callback, with this policy, up to reading the provider's response. */
const callback = (with_: Partial<OAuthCallbackPolicy> = {}): OAuthEvent[] => [...waiting, { type: "callback.received", policy: { ...policy, ...with_ } }, { type: "flow.fresh" }, admitted]
const response = (params: { state?: string; iss?: string; error?: string }, extra: { expectedIssuer?: string; issuerRequired?: boolean; error?: unknown } = {}): OAuthEvent => ({
  type: "response.received",
  params,
  issuerRequired: false,
  server,
  ...extra,
})
const tokens = { access_token: "at", token_type: "bearer" } as never
const profile: OAuthEvent = { type: "profile.received", profile: { sub: "p-1" }, user: { id: "p-1", email: "ada@example.com" }, account: { provider: "idp", type: "oidc", providerAccountId: "p-1" } }
/** The callback up to resolving the account. */
const toAccount = (with_: Partial<OAuthCallbackPolicy> = {}): OAuthEvent[] => [
  ...callback(with_),
  response({ state: "s-1" }),
  { type: "code.exchanged", response: new Response("{}") },
  { type: "tokens.valid", tokens, server },
  profile,
]
const allowed: OAuthEvent = { type: "signIn.answered", result: true }

describe("OAuth machine", () => {
  it("ends its flows in these final states", () => {
    expect(finalStates(oauthMachine)).toEqual(["accessDenied", "accountNotLinked", "claimFailed", "csrfRejected", "flowNotResumed", "flowReplayed", "idTokenRejected", "persistFailed", "profileFailed", "providerRejected", "rateLimited", "redirected", "responseRejected", "secondFactorRequired", "secondFactorUnavailable", "sessionFailed", "signInFailed", "signedIn", "signedInNewUser", "tokensRejected"])
  })

  it("names the effect each state waits on (the engine performs it by that name)", () => {
    expect(effectsByState(oauthMachine)).toEqual({
      checkingSecondFactor: "findSecondFactor",
      validatingInput: "checkCsrf",
      checkingRateLimit: "checkRateLimit",
      discovering: "discover",
      authorizing: "authorize",
      claimingFlow: "claimFlow",
      checkingCallbackRateLimit: "checkRateLimit",
      checkingResponse: "readResponse",
      exchangingCode: "exchangeCode",
      validatingTokens: "validateTokens",
      fetchingProfile: "fetchProfile",
      resolvingAccount: "resolveAccount",
      findingEmailOwner: "findEmailOwner",
      checkingSignIn: "askSignIn",
      resolvingRedirect: "resolveRedirect",
      persistingUser: "persistUser",
      undoingCreatedUser: "undoCreatedUser",
      creatingSession: "createSession",
      encodingToken: "encodeToken",
      renewingStoredTokens: "renewStoredTokens",
    })
  })

  it("checks CSRF and the rate limit, discovers, and keeps only the checks and the answer while it waits", () => {
    expect(after({ type: "csrf.invalid" }).value).toBe("csrfRejected")
    expect(after({ type: "csrf.valid" }, admitted).value).toBe("discovering")
    expect(after({ type: "csrf.valid" }, admitted, { type: "discovery.done", server }).context.server).toBe(server)
    const down = new Error("down")
    const undiscovered = after({ type: "csrf.valid" }, admitted, { type: "discovery.failed", error: down })
    expect([undiscovered.value, undiscovered.context.error]).toEqual(["signInFailed", down])
    const unauthorized = after({ type: "csrf.valid" }, admitted, { type: "discovery.done", server }, { type: "authorization.failed", error: down })
    expect([unauthorized.value, unauthorized.context.error]).toEqual(["signInFailed", down])
    const parked = after(...waiting)
    expect(parked.value).toBe("awaitingCallback")
    expect(parked.context).toStrictEqual({ checks, authorizationUrl: "https://idp.example/authorize?x", flowIssued: true, server: undefined })
  })

  it("keeps the callback's policy, claims the flow once, and counts the callback against the rate limit", () => {
    const claiming = after(...waiting, { type: "callback.received", policy })
    expect([claiming.value, claiming.context.policy]).toEqual(["claimingFlow", policy])
    expect(after(...waiting, { type: "callback.received", policy }, { type: "flow.fresh" }).value).toBe("checkingCallbackRateLimit")
    expect(after(...callback()).value).toBe("checkingResponse")
  })

  it("refuses a replayed flow, and tells the adapter's failure to claim it (isAdapterError) from any other store's", () => {
    const resumed = [...waiting, { type: "callback.received", policy }] as OAuthEvent[]
    const replayed = after(...resumed, { type: "flow.replayed" })
    expect([replayed.value, replayed.context.error]).toEqual(["flowReplayed", undefined])
    const database = new AdapterError("the replay store could not claim a resumed flow")
    const timedOut = new AdapterTimeout("useVerificationToken timed out")
    for (const error of [database, timedOut]) {
      const failed = after(...resumed, { type: "flow.claimFailed", error })
      expect([failed.value, failed.context.error]).toEqual(["claimFailed", error])
    }
    for (const error of [new Error("redis down"), "down", undefined]) {
      const failed = after(...resumed, { type: "flow.claimFailed", error })
      expect([failed.value, failed.context.error], String(error)).toEqual(["flowNotResumed", error])
    }
    // Nothing is read of the provider's response, nor counted, after a claim that did not succeed.
    for (const end of [replayed, after(...resumed, { type: "flow.claimFailed", error: database })]) expect(end.status).toBe("done")
  })

  it("refuses a response without the issuer it must carry, with another issuer, another state, a provider error, or one oauth4webapi refused", () => {
    const refused = new Error("refused")
    const refusals: [OAuthEvent, string, string, unknown][] = [
      [response({ state: "s-1" }, { issuerRequired: true, error: refused }), "responseRejected", "iss", refused],
      [response({ state: "s-1", iss: "" }, { issuerRequired: true }), "responseRejected", "iss", undefined],
      [response({ state: "s-1", iss: "https://evil.example" }, { expectedIssuer: "https://idp.example" }), "responseRejected", "iss", undefined],
      [response({ state: "s-1", iss: "https://evil.example" }, { expectedIssuer: "https://idp.example", error: refused }), "responseRejected", "iss", refused],
      [response({ state: "s-2" }), "responseRejected", "state", undefined],
      [response({ state: "s-2" }, { error: refused }), "responseRejected", "state", refused],
      [response({}), "responseRejected", "state", undefined],
      [response({ state: "s-1", error: "access_denied" }, { error: refused }), "providerRejected", "provider-error", refused],
      [response({ state: "s-1" }, { error: refused }), "responseRejected", "response", refused],
    ]
    for (const [event, state, check, error] of refusals) {
      const snapshot = after(...callback(), event)
      expect([snapshot.value, snapshot.context.failedCheck, snapshot.context.error], JSON.stringify(event)).toEqual([state, check, error])
    }
    const unreadable = after(...callback(), { type: "response.unreadable", error: refused })
    expect([unreadable.value, unreadable.context.failedCheck, unreadable.context.error]).toEqual(["responseRejected", "response", refused])
  })

  it("exchanges the code of a response every check accepts, with the server it was checked against", () => {
    const other = { issuer: "https://idp.example/other" } as AuthorizationServer
    const accepted: OAuthEvent[] = [
      { ...response({ state: "s-1", iss: "https://idp.example" }, { expectedIssuer: "https://idp.example", issuerRequired: true }), server: other } as OAuthEvent,
      response({ state: "s-1", iss: "https://idp.example" }),
      response({ state: "s-1" }, { expectedIssuer: "https://idp.example" }),
    ]
    for (const event of accepted) expect(after(...callback(), event).value, JSON.stringify(event)).toBe("exchangingCode")
    expect(after(...callback(), accepted[0]!).context.server).toBe(other)
  })

  it("names the check that refused the code or the tokens", () => {
    const toTokens = [...callback(), response({ state: "s-1" })]
    const answer = new Response("{}")
    const exchanged = after(...toTokens, { type: "code.exchanged", response: answer })
    expect([exchanged.value, exchanged.context.tokenResponse]).toEqual(["validatingTokens", answer])
    const refusals: [OAuthEvent["type"], string, string][] = [
      ["code.refused", "tokensRejected", "code"],
      ["exchange.failed", "tokensRejected", "code"],
    ]
    const error = new Error("no")
    for (const [type, state, check] of refusals) {
      const snapshot = after(...toTokens, { type, error } as OAuthEvent)
      expect([snapshot.value, snapshot.context.failedCheck, snapshot.context.error], type).toEqual([state, check, error])
    }
    const tokenRefusals: [OAuthEvent["type"], string, string][] = [
      ["idToken.badSignature", "idTokenRejected", "signature"],
      ["idToken.wrongIssuer", "idTokenRejected", "id-token-iss"],
      ["idToken.wrongAudience", "idTokenRejected", "aud"],
      ["idToken.expired", "idTokenRejected", "exp"],
      ["idToken.nonceMismatch", "idTokenRejected", "nonce"],
      ["tokens.invalid", "tokensRejected", "tokens"],
    ]
    for (const [type, state, check] of tokenRefusals) {
      const snapshot = after(...toTokens, { type: "code.exchanged", response: answer }, { type, error } as OAuthEvent)
      expect([snapshot.value, snapshot.context.failedCheck, snapshot.context.error], type).toEqual([state, check, error])
    }
    const other = { issuer: "https://idp.example/2" } as AuthorizationServer
    const valid = after(...toTokens, { type: "code.exchanged", response: answer }, { type: "tokens.valid", tokens, server: other })
    expect([valid.value, valid.context.tokens, valid.context.server]).toEqual(["fetchingProfile", tokens, other])
  })

  it("keeps the profile, and resolves the account only with an adapter", () => {
    const resolving = after(...toAccount())
    expect([resolving.value, resolving.context.profile, resolving.context.user, resolving.context.account]).toEqual([
      "resolvingAccount",
      { sub: "p-1" },
      { id: "p-1", email: "ada@example.com" },
      { provider: "idp", type: "oidc", providerAccountId: "p-1" },
    ])
    const noDatabase = after(...toAccount({ adapter: false }))
    expect([noDatabase.value, noDatabase.context.plan, noDatabase.context.profile]).toEqual(["checkingSignIn", "noDatabase", { sub: "p-1" }])
    // Nothing to write: the session is issued straight away.
    expect(after(...toAccount({ adapter: false }), allowed).value).toBe("encodingToken")
    const down = new Error("down")
    const failed = after(...callback(), response({ state: "s-1" }), { type: "code.exchanged", response: new Response("{}") }, { type: "tokens.valid", tokens, server }, { type: "profile.failed", error: down })
    expect([failed.value, failed.context.error]).toEqual(["profileFailed", down])
  })

  it("signs in the user a linked account belongs to, unless the browser is signed in as another", () => {
    const linked = after(...toAccount(), { type: "account.linked", user: ada })
    expect([linked.value, linked.context.plan, linked.context.user]).toEqual(["checkingSignIn", "signInLinkedUser", ada])
    expect(after(...toAccount(), { type: "account.linked", user: ada, signedInAs: "u-ada" }).value).toBe("checkingSignIn")
    const other = after(...toAccount(), { type: "account.linked", user: ada, signedInAs: "u-bob" })
    expect([other.value, other.context.notLinked]).toEqual(["accountNotLinked", "linked-to-other-user"])
    expect(after(...toAccount(), { type: "account.linked", user: ada }, allowed).value).toBe("encodingToken")
  })

  it("links a new account to the signed-in user only when they started the sign-in", () => {
    const theirs = after(...toAccount(), { type: "account.new", signedIn: ada })
    expect([theirs.value, theirs.context.plan, theirs.context.linkTo]).toEqual(["checkingSignIn", "linkToSignedInUser", ada])
    const notTheirs = after(...toAccount(), { type: "account.new", signedIn: bob })
    expect([notTheirs.value, notTheirs.context.notLinked, "linkTo" in notTheirs.context]).toEqual(["accountNotLinked", "not-started-by-signed-in-user", false])
    expect(after(...toAccount(), { type: "account.new" }).value).toBe("findingEmailOwner")
    expect(after(...toAccount(), { type: "account.new", signedIn: ada }, allowed).value).toBe("persistingUser")
    const down = new Error("down")
    const failed = after(...toAccount(), { type: "lookup.failed", error: down })
    expect([failed.value, failed.context.error]).toEqual(["persistFailed", down])
  })

  it("links to the email's owner only when the provider allows it, and creates a user when nobody owns it", () => {
    const owner = [{ type: "account.new" }, { type: "emailOwner.found", user: ada }] as const
    const taken = after(...toAccount(), ...owner)
    expect([taken.value, taken.context.notLinked]).toEqual(["accountNotLinked", "email-taken"])
    const linked = after(...toAccount({ emailLinking: true }), ...owner)
    expect([linked.value, linked.context.plan, linked.context.linkTo]).toEqual(["checkingSignIn", "linkToEmailOwner", ada])
    const created = after(...toAccount(), { type: "account.new" }, { type: "emailOwner.none" })
    expect([created.value, created.context.plan, "linkTo" in created.context]).toEqual(["checkingSignIn", "createUser", false])
    const down = new Error("down")
    const failed = after(...toAccount(), { type: "account.new" }, { type: "lookup.failed", error: down })
    expect([failed.value, failed.context.error]).toEqual(["persistFailed", down])
  })

  it("keeps the user as stored, and undoes a user whose creation failed", () => {
    const creating = [...toAccount(), { type: "account.new" }, { type: "emailOwner.none" }, allowed] as const
    const stored = after(...creating, { type: "user.persisted", isNewUser: true, user: ada })
    expect([stored.value, stored.context.user, stored.context.isNewUser]).toEqual(["encodingToken", ada, true])
    const down = new Error("down")
    const undoing = after(...creating, { type: "persist.failed", error: down, creatingUserId: "u-new" })
    expect([undoing.value, undoing.context.creatingUserId, undoing.context.error]).toEqual(["undoingCreatedUser", "u-new", down])
    expect("creatingUserId" in after(...creating, { type: "persist.failed", error: down }).context).toBe(false)
    for (const outcome of [{ type: "user.undone" }, { type: "undo.failed", error: down }] as const) expect(after(...creating, { type: "persist.failed", error: down }, outcome).value).toBe("persistFailed")
    // Linking to an existing user failed: nobody to undo.
    const linking = after(...toAccount(), { type: "account.new", signedIn: ada }, allowed, { type: "persist.failed", error: down, creatingUserId: "u-new" })
    expect([linking.value, "creatingUserId" in linking.context]).toEqual(["persistFailed", false])
  })

  it("renews the stored provider tokens after a database session, when the sign-in brought them and the provider's are refreshed", () => {
    const database = { databaseSessions: true, renewsStoredTokens: true }
    const toSession = (with_: Partial<OAuthCallbackPolicy>) => [...toAccount(with_), { type: "account.linked", user: ada }, allowed] as OAuthEvent[]
    expect(after(...toSession(database)).value).toBe("creatingSession")
    expect(after(...toSession(database), { type: "session.created", providerTokens: true }).value).toBe("renewingStoredTokens")
    expect(after(...toSession(database), { type: "session.created", providerTokens: false }).value).toBe("signedIn")
    expect(after(...toSession(database), { type: "session.created" }).value).toBe("signedIn")
    expect(after(...toSession({ databaseSessions: true }), { type: "session.created", providerTokens: true }).value).toBe("signedIn")
    for (const outcome of [{ type: "storedTokens.renewed", replaced: true }, { type: "storedTokens.failed", error: new Error("down") }] as const) {
      expect(after(...toSession(database), { type: "session.created", providerTokens: true }, outcome).value).toBe("signedIn")
    }
    const newUser = [...toAccount({ ...database, newUserPage: true }), { type: "account.new" }, { type: "emailOwner.none" }, allowed, { type: "user.persisted", isNewUser: true, user: ada }, { type: "session.created", providerTokens: true }] as OAuthEvent[]
    expect(after(...newUser).value).toBe("renewingStoredTokens")
    expect(after(...newUser, { type: "storedTokens.renewed", replaced: false }).value).toBe("signedInNewUser")
    expect(after(...newUser, { type: "storedTokens.failed", error: new Error("down") }).value).toBe("signedInNewUser")
    expect(after(...toSession(database), { type: "session.failed", error: new Error("down") }).value).toBe("sessionFailed")
  })
})
