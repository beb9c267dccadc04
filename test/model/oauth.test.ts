/**
 * The OAuth machine, one machine over two requests, driven through the real `Auth()` along every
 * path the model generates: the sign-in request up to the sealed `awaitingCallback`, then the
 * callback request that resumes it (claimed once: its cookie sent twice, or the replay store
 * failing in the adapter's database or elsewhere), with a stand-in OpenID Provider that can answer
 * every way the machine tells apart.
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { AdapterError } from "../../src/core/errors.js"
import type { ReplayStore } from "../../src/core/replay-store.js"
import { oauthMachine, type OAuthCallbackPolicy, type OAuthEvent } from "../../src/machines/oauth.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { coverageReport } from "../../src/testing/coverage.js"
import { modelPaths, type ModelPath } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { discoveryGoesDown, standInFaults } from "../../src/testing/drivers/oauth-events.js"
import { expectSecondFactorFinal, limiterAdmitted, limiterRepresentatives, modelClientHeaders, rateLimitOf, rateLimitOutcomes, redirectCallbackOf, secondFactorFindings, secondFactorRepresentatives, secondFactorWorld, secondFactorWorldOf, signInDecisionOf, signInDecisions, splitAt } from "./harness.js"
import { decode, encode } from "../../src/jwt.js"
import { clientId, opProvider, standInOP } from "../support/oauth-stand-in.js"
import type { AuthConfig } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/account-linking.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("account-linking", await load()))
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/oauth.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("oauth", await load()))
loadMachinesPerTest("account-linking", "sign-in-tail", "rate-limit", "csrf-check", "flow-claim", "oauth")

const flowCookie = cookieNames.https.flow
const sessionCookie = cookieNames.https.sessionToken
const flowCookieBudget = 1200
const sealedSizes: number[] = []
const ada = { name: "Ada Lovelace", email: "ada@example.test" }
const issuer = "https://op.model"
/** The signed-in user who started the sign-in, in the model (`startedBy`), and another one. */
const starter = "signed-in-before"
const latecomer = "signed-in-after"

// Each policy with pages.newUser set; database sessions (and the provider's tokens refreshed) with one of the two adapter policies, JWTs with the others; second factors on with either strategy.
const policies: Record<"linking" | "noLinking" | "noAdapter" | "secondFactorDatabase" | "secondFactorJwt", OAuthCallbackPolicy> = {
  linking: { adapter: true, emailLinking: true, databaseSessions: true, newUserPage: true, renewsStoredTokens: true },
  noLinking: { adapter: true, emailLinking: false, databaseSessions: false, newUserPage: true },
  noAdapter: { adapter: false, emailLinking: false, databaseSessions: false, newUserPage: true },
  secondFactorDatabase: { adapter: true, emailLinking: true, databaseSessions: true, newUserPage: true, renewsStoredTokens: true, secondFactor: true },
  secondFactorJwt: { adapter: true, emailLinking: false, databaseSessions: false, newUserPage: true, secondFactor: true },
}
const server = { issuer }
const received = (params: { state?: string; iss?: string; error?: string }, refused?: string) =>
  ({ type: "response.received" as const, params, expectedIssuer: issuer, issuerRequired: true, server, ...(refused !== undefined && { error: refused }) })
/** The user the provider account is linked to, or whose email the profile has; who a browser is signed in as. */
const owner = { id: "ada-id", ...ada, emailVerified: null }
const signedInAs = (id: string) => ({ id, name: "Someone Else", email: "someone@example.test", emailVerified: null })

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: OAuthEvent[] = [
  ...rateLimitOutcomes,
  { type: "discovery.failed", error: "discovery answered 500" },
  { type: "authorization.failed", error: "no authorization endpoint" },
  { type: "authorization.ready", checks: { codeVerifier: "v", state: "S", nonce: "n", redirectUri: `${origin}/auth/callback/op`, callbackUrl: `${origin}/dashboard`, startedBy: starter }, url: `${issuer}/authorize`, issued: true },
  ...Object.values(policies).map((policy) => ({ type: "callback.received" as const, policy })),
  // The replay store failing to claim the flow: in the adapter's database (its verification-token table), or a store of the configuration's own.
  { type: "flow.claimFailed", error: new AdapterError("The replay store could not claim a resumed flow") },
  { type: "flow.claimFailed", error: new Error("replay store down") },
  received({ state: "S", iss: issuer }),
  received({ state: "S" }),
  received({ state: "S", iss: "https://impostor.test" }),
  received({ state: "forged", iss: issuer }),
  received({ state: "S", iss: issuer, error: "access_denied" }),
  // Every named check passes, and oauth4webapi refuses it all the same (an id_token in the redirect: a hybrid answer).
  received({ state: "S", iss: issuer }, "implicit and hybrid flows are not supported"),
  { type: "response.unreadable", error: "discovery down at the callback" },
  { type: "code.refused", error: "invalid_grant" },
  { type: "exchange.failed", error: "ECONNREFUSED" },
  { type: "idToken.badSignature", error: "signed by another key" },
  { type: "idToken.wrongIssuer", error: "iss" },
  { type: "idToken.wrongAudience", error: "aud" },
  { type: "idToken.expired", error: "exp" },
  { type: "idToken.nonceMismatch", error: "nonce" },
  { type: "tokens.invalid", error: "no id_token" },
  { type: "profile.failed", error: "profile() threw" },
  { type: "account.linked", user: owner },
  { type: "account.linked", user: owner, signedInAs: "someone-else" },
  { type: "account.new" },
  { type: "account.new", signedIn: signedInAs(starter) },
  { type: "account.new", signedIn: signedInAs(latecomer) },
  { type: "emailOwner.found", user: owner },
  { type: "lookup.failed", error: "getUserByAccount threw" },
  ...signInDecisions,
  ...secondFactorFindings(),
  { type: "user.persisted", isNewUser: true, user: owner },
  { type: "user.persisted", isNewUser: false, user: owner },
  { type: "persist.failed", error: "linkAccount threw" },
  { type: "user.undone" },
  { type: "undo.failed", error: "deleteUser threw" },
  { type: "session.created", providerTokens: true },
  { type: "session.created", providerTokens: false },
  { type: "storedTokens.renewed", replaced: true },
  { type: "storedTokens.renewed", replaced: false },
  { type: "storedTokens.failed", error: "getAccount threw" },
  { type: "session.failed", error: "createSession threw" },
  { type: "encode.failed", error: "the jwt callback threw" },
]

type Path = ModelPath<OAuthEvent>

const find = <T extends OAuthEvent["type"]>(path: readonly OAuthEvent[], type: T) => path.find((event) => event.type === type) as Extract<OAuthEvent, { type: T }> | undefined

/** How the replay store fails to claim the flow on this path: in the adapter's database, in a store of the configuration's own, or not at all. */
function claimFailureOf(path: readonly OAuthEvent[]): "adapter" | "own store" | undefined {
  const failed = find(path, "flow.claimFailed")
  if (!failed) return undefined
  return failed.error instanceof AdapterError ? "adapter" : "own store"
}

/** Why the real world cannot produce a path the model generates, or undefined when it can. */
function unreachable(path: readonly OAuthEvent[]): string | undefined {
  if (claimFailureOf(path) === "adapter" && !find(path, "callback.received")?.policy.adapter) return "without an adapter the flow is claimed in memory (or a store of the configuration's own): the adapter's database cannot fail it"
  const persisted = find(path, "user.persisted")
  if (persisted && persisted.isNewUser !== has(path, "emailOwner.none")) return "a user is new exactly when the sign-in creates it"
  if (find(path, "storedTokens.renewed")?.replaced && !has(path, "account.linked")) return "only an account linked before has older tokens stored: a new one is linked with the tokens it brought"
  return undefined
}

const has = (path: readonly OAuthEvent[], type: OAuthEvent["type"]) => path.some((event) => event.type === type)

/** The account-linking case a path meets: who the account is linked to, who is signed in, who owns the email. */
function linkingOf(path: readonly OAuthEvent[]) {
  const linked = find(path, "account.linked")
  const fresh = find(path, "account.new")
  return {
    returning: linked !== undefined,
    /** Linked to a user, while the browser is signed in as another one. */
    linkedToOther: linked?.signedInAs !== undefined,
    /** New, in a browser signed in as the user who started the sign-in, or as one who signed in while it waited. */
    newSignedInBefore: fresh?.signedIn?.id === starter,
    newSignedInAfter: fresh?.signedIn?.id === latecomer,
    emailTaken: has(path, "emailOwner.found"),
    /** The lookup that fails: the email's owner (after a new account), or the account. */
    failingLookup: has(path, "lookup.failed") ? (fresh ? "getUserByEmail" : "getUserByAccount") : undefined,
  }
}

/** The real configuration, database, browser and provider answers that make the engine meet exactly these events. */
async function scenario(path: readonly OAuthEvent[]) {
  const has = (type: OAuthEvent["type"]) => path.some((event) => event.type === type)
  const policy = find(path, "callback.received")?.policy ?? policies.linking
  const response = find(path, "response.received")
  const linking = linkingOf(path)
  // This test's own profile() fails a profile.failed path, not the provider's userinfo.
  // The provider issues a refresh token on the paths whose sign-in brings provider tokens.
  const op = standInOP(standInFaults(path.filter((event) => event.type !== "profile.failed"), true), find(path, "session.created")?.providerTokens === true)
  const memory = MemoryAdapter()
  const claimFailure = claimFailureOf(path)
  const adapter = {
    ...memory,
    // The replay store claims the flow issued at the sign-in by deleting its verification-token row.
    async useVerificationToken(params: Parameters<typeof memory.useVerificationToken>[0]) {
      if (claimFailure === "adapter") throw new Error("database unreachable")
      return memory.useVerificationToken(params)
    },
    async getUserByAccount(account: Parameters<typeof memory.getUserByAccount>[0]) {
      if (linking.failingLookup === "getUserByAccount") throw new Error("database unreachable")
      return memory.getUserByAccount(account)
    },
    async getUserByEmail(email: string) {
      if (linking.failingLookup === "getUserByEmail") throw new Error("database unreachable")
      return memory.getUserByEmail(email)
    },
    async linkAccount(account: Parameters<typeof memory.linkAccount>[0]) {
      if (has("persist.failed")) throw new Error("database unreachable")
      return memory.linkAccount(account)
    },
    async deleteUser(userId: string) {
      if (has("undo.failed")) throw new Error("database unreachable")
      return memory.deleteUser(userId)
    },
    async createSession(session: Parameters<typeof memory.createSession>[0]) {
      if (has("session.failed")) throw new Error("database unreachable")
      return memory.createSession(session)
    },
    async getAccount(providerAccountId: string, provider: string) {
      if (has("storedTokens.failed")) throw new Error("database unreachable")
      return memory.getAccount(providerAccountId, provider)
    },
  }
  // The database as this path finds it.
  const other = policy.adapter ? await memory.createUser({ id: "", name: "Someone Else", email: "someone@example.test", emailVerified: null }) : undefined
  // A returning user: the provider account is linked to them (and, for linkedToOther, the browser is signed in as someone else).
  if (linking.returning) {
    const owner = await memory.createUser({ id: "", ...ada, emailVerified: null })
    // Linked before with tokens of its own, which the sign-in's replace (storedTokens.renewed, replaced).
    const stored = find(path, "storedTokens.renewed")?.replaced ? { refresh_token: "rt-stored-before", expires_at: Math.floor(Date.now() / 1000) - 60 } : {}
    await memory.linkAccount({ userId: owner.id, type: "oidc", provider: "op", providerAccountId: op.subject, ...stored })
  }
  if (linking.emailTaken) await memory.createUser({ id: "", ...ada, emailVerified: null })

  const provider = opProvider(op, {
    allowDangerousEmailAccountLinking: policy.emailLinking,
    ...(policy.renewsStoredTokens && { refresh: true }),
    profile(profile) {
      if (has("profile.failed")) throw new Error("unexpected profile shape")
      return { id: String(profile.sub), name: profile.name as string, email: profile.email as string }
    },
  })
  const signInEvents: { isNewUser?: boolean }[] = []
  /** A replay store of the configuration's own (Redis, say) that is down. */
  const storeDown: ReplayStore = {
    markUsed: () => Promise.reject(new Error("replay store down")),
  }
  const config: AuthConfig = {
    secret: "model-secret",
    trustHost: true,
    providers: [provider],
    ...(policy.adapter && { adapter }),
    ...(claimFailure === "own store" && { replayStore: storeDown }),
    session: { strategy: policy.databaseSessions ? ("database" as const) : ("jwt" as const) },
    pages: { newUser: "/welcome-aboard" },
    callbacks: {
      signIn: () => signInDecisionOf(path),
      ...redirectCallbackOf(path),
      jwt({ token }) {
        if (has("encode.failed")) throw new Error("the jwt callback threw")
        return token
      },
    },
    events: { signIn: (message) => void signInEvents.push(message) },
  }

  /** Signs the browser in as `other` with a session of the configured strategy (what a signed-in visitor has). */
  const signInAsOther = async (jar: CookieJar) => {
    if (!policy.databaseSessions) {
      jar.cookies.set(sessionCookie, await encode({ token: { sub: other!.id, email: other!.email }, secret: "model-secret", salt: sessionCookie }))
      return
    }
    const sessionToken = `session-${Math.random()}`
    await memory.createSession({ sessionToken, userId: other!.id, expires: new Date(Date.now() + 3600_000) })
    jar.cookies.set(sessionCookie, sessionToken)
  }
  const signedInBefore = linking.linkedToOther || linking.newSignedInBefore
  const signedInAfter = linking.newSignedInAfter

  /** The provider's redirect back to the app, as this path has it. */
  function redirectBack(authorizationUrl: URL): URLSearchParams {
    const iss = response?.params.iss
    return op.redirectBack(authorizationUrl, {
      ...(response?.params.error && { error: response.params.error }),
      ...(response?.error !== undefined && { hybrid: true }),
      ...(response?.params.state === "forged" && { state: "forged-state" }),
      iss: !iss ? "omit" : iss === issuer ? op.issuer : iss,
    })
  }
  /** Between the two requests: the provider goes down for a path whose callback cannot read it; a copy of the browser uses the flow first for a replayed one. */
  async function betweenRequests(jar: CookieJar) {
    if (has("response.unreadable")) discoveryGoesDown(op)
    if (has("flow.replayed")) {
      // The same flow cookie, sent twice: the first use claims it (that one is sent without the provider's answer, so it writes nothing).
      const copy = new CookieJar()
      for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
      await send({ ...config, logger: recordingLogger().logger }, copy, `${origin}/auth/callback/op`)
    }
  }
  return { config, op, memory, signInEvents, redirectBack, betweenRequests, signInAsOther, signedInBefore, signedInAfter, other }
}

const recorder = new TransitionRecorder([oauthMachine])
const allPaths = modelPaths(oauthMachine, events)
/** The way in to the second-factor check: a returning user (whose factors exist before the sign-in), in a browser signed in as nobody, the limiter admitting. */
const returningUser = (events: readonly { type: string }[]) =>
  events.some((event) => event.type === "account.linked" && !("signedInAs" in event && event.signedInAs)) &&
  limiterAdmitted(events)
const paths = limiterRepresentatives(
  secondFactorRepresentatives(
    allPaths.filter((path) => !unreachable(path.events)),
    { acceptable: returningUser, policy: (path) => find(path.events as OAuthEvent[], "callback.received")?.policy },
  ),
)
const skipped = allPaths.filter((path) => unreachable(path.events))
const callbackRefusals = new Set(["providerRejected", "responseRejected", "tokensRejected", "idTokenRejected"])

function flowCookieCleared(response: Response): boolean {
  return response.headers.getSetCookie().some((header) => header.startsWith(`${flowCookie}=;`) && /max-age=0/i.test(header))
}

/** A path's events, short: the payloads that tell variants apart, nothing else. */
function titleOf(path: Path): string {
  return path.events
    .map((event) => {
      if (event.type === "callback.received") return `callback.received(${Object.entries(policies).find(([, policy]) => policy === event.policy)![0]})`
      if (event.type === "response.received") return `response.received(${JSON.stringify(event.params)}${event.error === undefined ? "" : ", refused"})`
      if (event.type === "account.new") return event.signedIn ? `account.new(signed in as ${event.signedIn.id})` : "account.new"
      if (event.type === "account.linked") return event.signedInAs ? `account.linked(signed in as ${event.signedInAs})` : "account.linked"
      if (event.type === "user.persisted") return `user.persisted(${event.isNewUser ? "new" : "existing"})`
      if (event.type === "session.created") return `session.created(${event.providerTokens ? "with provider tokens" : "without"})`
      if (event.type === "storedTokens.renewed") return `storedTokens.renewed(${event.replaced ? "replaced" : "kept"})`
      if (event.type === "signIn.answered") return `signIn.answered(${JSON.stringify(event.result)})`
      if (event.type === "signIn.threw" || event.type === "redirect.threw" || event.type === "flow.claimFailed") return `${event.type}(${(event.error as Error).constructor.name})`
      return event.type
    })
    .join(" → ")
}

/** The states each request walks: the sign-in up to `awaitingCallback`, then the callback from there. */
function statesPerRequest(path: Path): string[][] {
  const waiting = path.states.indexOf("awaitingCallback")
  if (waiting < 0) return [path.states]
  return [path.states.slice(0, waiting + 1), path.states.slice(waiting)]
}

describe("OAuth machine (one flow, two requests), driven through Auth()", () => {
  it("the model yields a path to every final state, and says why the paths it skips cannot happen", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set([
        "csrfRejected", "signInFailed", "providerRejected", "responseRejected", "tokensRejected", "idTokenRejected", "profileFailed",
        "accountNotLinked", "signedIn", "signedInNewUser", "accessDenied", "redirected", "persistFailed", "sessionFailed", "rateLimited",
        "secondFactorRequired", "secondFactorUnavailable", "flowReplayed", "claimFailed", "flowNotResumed",
      ]),
    )
    for (const path of skipped) expect(unreachable(path.events)).toBeTruthy()
  })

  for (const path of paths) {
    it(`${titleOf(path)} ⇒ ${path.finalState}`, async () => {
      const world = await scenario(path.events)
      const secondFactor = secondFactorWorldOf(path.events)
      const jar = new CookieJar()
      if (find(path.events, "callback.received")?.policy.secondFactor) {
        // The returning user's factors (and trusted device), as they were before this sign-in.
        const user = await world.memory.getUserByAccount({ provider: "op", providerAccountId: world.op.subject })
        const built = await secondFactorWorld(secondFactor, world.config.adapter!, { userId: user!.id, secret: "model-secret" })
        world.config = { ...world.config, secondFactor: built.secondFactor, adapter: built.adapter }
        for (const [name, value] of built.cookies) jar.cookies.set(name, value)
      }
      const { logger, errors } = recordingLogger()
      // Each request meets its own limiter outcome: the sign-in's, then the callback's.
      const [signInEvents, callbackEvents] = splitAt(path.events, "callback.received")
      const observed = { ...world.config, logger, inspect: recorder.inspect, ...rateLimitOf(signInEvents, "oauth") }
      const observedCallback = { ...world.config, logger, inspect: recorder.inspect, ...rateLimitOf(callbackEvents, "oauth") }
      if (world.signedInBefore) await world.signInAsOther(jar)
      const csrfToken = await csrfTokenFor(world.config, jar)
      const csrfValid = !path.events.some((event) => event.type === "csrf.invalid")
      recorder.reset()
      const signIn = await send(observed, jar, "/signin/op", { form: { callbackUrl: "/dashboard", ...(csrfValid && { csrfToken }) }, headers: modelClientHeaders })
      expect(signIn.status).toBe(302)
      const [first, second] = statesPerRequest(path)
      expect(recorder.runs.map((run) => run.states)).toEqual([first])

      if (!second) {
        expect(jar.cookies.has(flowCookie)).toBe(false)
        const expected = { csrfRejected: "MissingCSRF", rateLimited: "RateLimited" }[path.finalState as string] ?? "Configuration"
        const wait = path.finalState === "rateLimited" ? `&retryAfter=${signIn.headers.get("retry-after")}` : ""
        expect(signIn.headers.get("location")).toBe(`${origin}/auth/signin?error=${expected}${wait}`)
        expect(errors.map((error) => error.name).filter((name) => name !== "RateLimitStoreError")).toEqual([expected === "Configuration" ? "OAuthSignInError" : expected])
        if (path.finalState === "rateLimited") expect(Number(signIn.headers.get("retry-after"))).toBeGreaterThan(0)
        return
      }
      // The user goes to the provider with PKCE, state and nonce; the flow waits in its cookie, which does not reveal them.
      const query = new URL(signIn.headers.get("location")!).searchParams
      expect(query.get("client_id")).toBe(clientId)
      expect(query.get("redirect_uri")).toBe(`${origin}/auth/callback/op`)
      expect(query.get("code_challenge_method")).toBe("S256")
      for (const check of ["state", "nonce", "code_challenge"]) expect(query.get(check)).toMatch(/^[\w-]{32,}$/)
      const sealed = jar.cookies.get(flowCookie)!
      expect(sealed).not.toContain(query.get("state")!)
      sealedSizes.push(Buffer.byteLength(sealed))
      // Only the checks are sealed: nothing else the sign-in request found (its authorization URL, the provider's endpoints).
      const payload = (await decode({ token: sealed, secret: "model-secret", salt: flowCookie })) as unknown as { s: { context: Record<string, unknown> } }
      expect(Object.keys(payload.s.context)).toEqual(["checks"])
      expect(Buffer.byteLength(sealed)).toBeLessThan(flowCookieBudget)

      // The callback request resumes the same flow from its sealed waiting state.
      await world.betweenRequests(jar)
      if (world.signedInAfter) await world.signInAsOther(jar)
      recorder.reset()
      const response = await send(observedCallback, jar, `${origin}/auth/callback/op?${world.redirectBack(new URL(signIn.headers.get("location")!))}`, { headers: modelClientHeaders })
      expect(recorder.runs.map((run) => run.states)).toEqual([second])
      expect(response.status).toBe(302)
      expect(flowCookieCleared(response)).toBe(true)

      const location = response.headers.get("location")
      const exchanged = world.op.seen.includes(`POST ${world.op.issuer}/token`)
      const linked = await world.memory.getUserByAccount({ provider: "op", providerAccountId: world.op.subject })
      // A store that failed open is logged, and the flow goes on as if admitted.
      const errorNames = errors.map((error) => error.name).filter((name) => name !== "RateLimitStoreError")
      const sessionSet = response.headers.getSetCookie().some((header) => header.startsWith(`${sessionCookie}=`) && !/max-age=0/i.test(header))
      if (callbackRefusals.has(path.finalState)) {
        expect(location).toBe(`${origin}/auth/signin?error=OAuthCallbackError`)
        expect(errorNames).toEqual(["OAuthCallbackError"])
        // Response refusals stop before the code is redeemed.
        expect(exchanged).toBe(!["providerRejected", "responseRejected"].includes(path.finalState))
      }
      switch (path.finalState) {
        case "signedIn":
        case "signedInNewUser": {
          const isNewUser = find(path.events, "user.persisted")?.isNewUser ?? false
          expect(path.finalState === "signedInNewUser").toBe(isNewUser)
          expect(location).toBe(isNewUser ? `/welcome-aboard?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}` : `${origin}/dashboard`)
          expect(sessionSet).toBe(true)
          expect(world.signInEvents).toEqual([expect.objectContaining({ isNewUser })])
          // Stored tokens that could not be renewed are logged (the database's error); the user is signed in anyway.
          if (path.events.some((event) => event.type === "storedTokens.failed")) expect(new Set(errorNames)).toEqual(new Set(["AdapterError"]))
          else expect(errorNames).toEqual([])
          const renewed = find(path.events, "storedTokens.renewed")
          if (renewed?.replaced || (renewed && isNewUser)) {
            // The row holds the tokens the sign-in brought: they replaced older ones, or the account was linked with them.
            const row = await world.memory.getAccount(world.op.subject, "op")
            expect(row?.refresh_token).toMatch(/^rt-/)
            expect(row?.refresh_token).not.toBe("rt-stored-before")
          }
          if (linkingOf(path.events).newSignedInBefore) expect(linked?.id).toBe(world.other!.id)
          else if (find(path.events, "callback.received")!.policy.adapter) expect(linked).toMatchObject(ada)
          break
        }
        case "profileFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errorNames).toEqual(["OAuthProfileParseError"])
          break
        case "accessDenied":
          expect(location).toBe(`${origin}/auth/error?error=AccessDenied`)
          expect(errorNames).toEqual(["AccessDenied"])
          break
        case "redirected":
          expect(location).toBe(`${origin}/welcome`)
          expect(errorNames).toEqual([])
          break
        case "flowReplayed":
        case "flowNotResumed": {
          // Refused before anything else: nothing is read of the provider's answer, nothing counted, nothing exchanged.
          expect(location).toBe(`${origin}/auth/signin?error=OAuthCallbackError`)
          expect(errorNames).toEqual(["OAuthCallbackError"])
          const cause = (errors.find((error) => error.name === "OAuthCallbackError")!.cause as { err: Error & { reason?: string }; provider: string })
          expect(cause.provider).toBe("op")
          if (path.finalState === "flowReplayed") expect([cause.err.name, cause.err.reason]).toEqual(["FlowCookieRefused", "replayed"])
          else expect(cause.err.message).toBe("replay store down")
          expect(exchanged).toBe(false)
          break
        }
        case "claimFailed":
          // The replay store's database failing is a server fault, answered and logged as every adapter failure is.
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errorNames).toEqual(["AdapterError"])
          expect(exchanged).toBe(false)
          break
        case "rateLimited":
          // Over the budget (or the store down, failing closed) at the callback: nothing is exchanged.
          expect(location).toMatch(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`))
          expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0)
          expect(errorNames).toEqual(["RateLimited"])
          expect(exchanged).toBe(false)
          break
        case "accountNotLinked": {
          expect(location).toBe(`${origin}/auth/signin?error=OAuthAccountNotLinked`)
          // Refused links leave the provider account with whoever had it (nobody, or the other user).
          if (linkingOf(path.events).linkedToOther) expect(linked).toMatchObject(ada)
          else expect(linked).toBeNull()
          break
        }
        case "persistFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(new Set(errorNames)).toEqual(new Set(["AdapterError"]))
          expect(linked).toBeNull()
          if (path.events.some((event) => event.type === "undo.failed")) {
            // The delete failed too (logged): the created user is left, the one thing a second fault can leave.
            expect(errorNames.filter((name) => name === "AdapterError")).toHaveLength(2)
            expect(await world.memory.getUserByEmail(ada.email)).toMatchObject(ada)
          } else {
            // Nothing half-written: a user created for the link is removed again (undoingCreatedUser).
            expect(path.states.includes("undoingCreatedUser")).toBe(has(path.events, "emailOwner.none"))
            expect(await world.memory.getUserByEmail(ada.email)).toEqual(linkingOf(path.events).emailTaken ? expect.objectContaining(ada) : null)
          }
          break
        case "sessionFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          // A failing database is logged as the adapter's error; a throwing jwt callback as the callback route's.
          // A failing factor store too.
          expect(new Set(errorNames)).toEqual(new Set([path.events.some((event) => event.type === "session.failed") || secondFactor === "failing" ? "AdapterError" : "CallbackRouteError"]))
          break
        case "secondFactorRequired":
        case "secondFactorUnavailable":
          expectSecondFactorFinal(path.finalState, secondFactor, response, jar, origin)
          break
      }
      if (path.finalState !== "signedIn" && path.finalState !== "signedInNewUser") {
        expect(sessionSet).toBe(false)
        expect(world.signInEvents).toHaveLength(0)
      }
      // Nothing is written before the signIn callback allows it.
      const returning = linkingOf(path.events).returning
      if (!path.events.some((event) => event.type === "signIn.answered" && event.result === true) && !returning) {
        expect(linked).toBeNull()
      }
    })
  }

  afterAll(() => {
    console.log(`oauth flow cookie: max ${Math.max(0, ...sealedSizes)} bytes over ${sealedSizes.length} sealed (budget ${flowCookieBudget})`)
    console.log(`oauth: ${paths.length} paths driven, ${skipped.length} generated paths the real world cannot produce`)
    const { line, missing } = coverageReport(oauthMachine, recorder)
    console.log(line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
