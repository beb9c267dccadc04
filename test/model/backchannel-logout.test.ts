/**
 * The back-channel logout machine, driven through `Auth()`: every path the model generates
 * becomes one POST /backchannel-logout/<provider> with a logout token signed by the stand-in
 * OpenID Provider (src/testing/stand-in.ts), the world scripted from the path's events: which
 * provider the request names and whether it carries a token, what discovery and the JWKS answer,
 * the token's claims (or the one claim jose refuses), and what the replay store, the revocation
 * store and the adapter answer. Each path asserts the answer, the one logged refusal, and which
 * sessions ended.
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import { backchannelLogoutEvent, backchannelLogoutMachine, type BackchannelLogoutEvent, type BackchannelLogoutPolicy, type LogoutTokenClaims } from "../../src/machines/backchannel-logout.js"
import type { LogoutTokenRefusal, LogoutTokenRefused } from "../../src/core/errors.js"
import { customFetch } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { memoryReplayStore, type ReplayStore } from "../../src/core/replay-store.js"
import { memoryRevocationStore, type RevocationStore } from "../../src/core/revocation-store.js"
import { StandInProvider } from "../../src/testing/stand-in.js"
import { signLogoutToken } from "../../src/testing/stand-in/signing.js"
import { coverageReport } from "../../src/testing/coverage.js"
import { jwksRefetchCooldown, providerKeys } from "../../src/core/oauth/jwks.js"
import type { OAuthProviderConfig } from "../../src/providers/oauth.js"
import { modelPaths, type ModelPath } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { declaredTransitions } from "../../src/testing/transitions.js"
import { FlowEndings } from "./harness.js"
import { clientId, clientSecret, opProvider } from "../support/oauth-stand-in.js"
import { CookieJar, recordingLogger, send } from "../helpers.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig, Provider } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// Each test drives the machine, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/backchannel-logout.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("backchannel-logout", await load()))
loadMachinesPerTest("backchannel-logout")

const logoutEvent = { [backchannelLogoutEvent]: {} }
/** A valid token's claims: the provider session `sid-1` of subject `ada`. */
const valid: LogoutTokenClaims = { sub: "ada", sid: "sid-1", jti: "jti-1", events: logoutEvent }
const modelIssuer = "https://op.stand-in.test"

/** Payload-carrying events: each is one way the request, the provider, jose, the stores or the adapter can answer an effect. */
const events: BackchannelLogoutEvent[] = [
  { type: "request.read", providerType: "oauth", backchannelLogout: false, hasToken: true },
  { type: "request.read", providerType: "oidc", backchannelLogout: false, hasToken: true },
  { type: "request.read", providerType: "oidc", backchannelLogout: true, hasToken: false },
  { type: "request.read", providerType: "oidc", backchannelLogout: true, hasToken: true },
  { type: "issuer.discovered", issuer: modelIssuer, jwksUri: `${modelIssuer}/jwks` },
  { type: "issuer.discovered", issuer: modelIssuer },
  { type: "discovery.failed", error: "discovery down" },
  { type: "token.verified", claims: valid },
  { type: "token.verified", claims: { ...valid, sid: undefined } },
  { type: "token.verified", claims: { ...valid, sub: undefined } },
  { type: "token.verified", claims: { ...valid, events: undefined } },
  { type: "token.verified", claims: { ...valid, events: { "urn:another-event": {} } } },
  { type: "token.verified", claims: { ...valid, events: { [backchannelLogoutEvent]: [] } } },
  { type: "token.verified", claims: { ...valid, nonce: "n-1" } },
  { type: "token.verified", claims: { ...valid, sub: undefined, sid: undefined } },
  { type: "token.verified", claims: { ...valid, jti: undefined } },
  // No key matches: in a key set fetched just now (refused at once), or in one a minute old (fetched again first).
  { type: "verify.failed", code: "ERR_JWKS_NO_MATCHING_KEY", message: "no applicable key found in the JSON Web Key Set", keysAge: 0 },
  { type: "verify.failed", code: "ERR_JWKS_NO_MATCHING_KEY", message: "no applicable key found in the JSON Web Key Set", keysAge: 60_000 },
  { type: "verify.failed", code: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED", message: "signature verification failed" },
  { type: "verify.failed", message: "JWKS request answered 500" },
  { type: "verify.failed", code: "ERR_JWT_CLAIM_VALIDATION_FAILED", claim: "iss", message: 'unexpected "iss" claim value' },
  { type: "verify.failed", code: "ERR_JWT_CLAIM_VALIDATION_FAILED", claim: "aud", message: 'unexpected "aud" claim value' },
  { type: "verify.failed", code: "ERR_JWT_CLAIM_VALIDATION_FAILED", claim: "nbf", message: '"nbf" claim timestamp check failed' },
  { type: "verify.failed", code: "ERR_JWT_EXPIRED", claim: "iat", message: '"iat" claim timestamp check failed (too far in the past)' },
  { type: "verify.failed", code: "ERR_JWT_EXPIRED", claim: "exp", message: '"exp" claim timestamp check failed' },
  { type: "jti.failed", error: "replay store down" },
  { type: "revoke.failed", error: "revocation store down" },
  { type: "user.found", userId: "u1" },
  { type: "lookup.failed", error: "adapter down" },
  { type: "delete.failed", error: "adapter down" },
]

/** The configurations the model walks: no adapter; an adapter with JWT sessions; an adapter with database sessions. */
const policies: BackchannelLogoutPolicy[] = [
  { linksUsers: false, databaseSessions: false, deletesUserSessions: false },
  { linksUsers: true, databaseSessions: false, deletesUserSessions: true },
  { linksUsers: true, databaseSessions: true, deletesUserSessions: true },
]

/** The refusal each final state answers (and logs). */
const refusalOf: Record<string, LogoutTokenRefusal | undefined> = {
  providerNotAccepting: "provider",
  tokenMissing: "missing",
  discoveryFailed: "provider",
  jwksMissing: "provider",
  signatureInvalid: "signature",
  issuerMismatch: "issuer",
  audienceMismatch: "audience",
  tokenExpired: "expired",
  issuedAtInvalid: "issued-at",
  eventMissing: "events",
  nonceForbidden: "nonce",
  subjectMissing: "subject",
  jtiMissing: "jti",
  tokenReplayed: "replayed",
  logoutFailed: "provider",
}

type Verdict = Extract<BackchannelLogoutEvent, { type: "token.verified" | "verify.failed" }>

/** A token signed by the stand-in's key, with `claims` over a valid token's. */
async function logoutToken(issuer: string, claims: Record<string, unknown>): Promise<string> {
  return signLogoutToken({ iss: issuer, aud: clientId, ...claims })
}

/** The token whose verification jose answers with the path's last verdict. */
async function tokenFor(issuer: string, verdict: Verdict | undefined): Promise<string> {
  if (verdict?.type === "token.verified") return logoutToken(issuer, verdict.claims)
  const now = Math.floor(Date.now() / 1000)
  switch (verdict?.claim) {
    case "iss":
      return logoutToken(issuer, { ...valid, iss: "https://impostor.stand-in.test" })
    case "aud":
      return logoutToken(issuer, { ...valid, aud: "another-client" })
    case "nbf":
      return logoutToken(issuer, { ...valid, nbf: now + 3600 })
    case "exp":
      return logoutToken(issuer, { ...valid, exp: now - 3600 })
    case "iat": {
      // Signed an hour ago: older than the 10 minutes a logout token may be.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 3600_000 })
      try {
        return await logoutToken(issuer, valid)
      } finally {
        vi.useRealTimers()
      }
    }
  }
  const token = await logoutToken(issuer, valid)
  if (verdict?.code !== "ERR_JWS_SIGNATURE_VERIFICATION_FAILED") return token
  // Another signature: one character of it changed.
  const [header, payload, signature] = token.split(".") as [string, string, string]
  const at = Math.floor(signature.length / 2)
  return `${header}.${payload}.${signature.slice(0, at)}${signature[at] === "A" ? "B" : "A"}${signature.slice(at + 1)}`
}

let scenarios = 0

/** The real configuration and world that make the engine meet exactly these events. */
async function scenario(path: ModelPath<BackchannelLogoutEvent>) {
  const policy = (path.input as { policy: BackchannelLogoutPolicy }).policy
  const byType = (type: string) => path.events.filter((event) => event.type === type)
  const has = (type: string) => byType(type).length > 0
  const read = byType("request.read")[0] as Extract<BackchannelLogoutEvent, { type: "request.read" }>
  const route = read.providerType !== "oidc" ? "gh" : read.backchannelLogout ? "op" : "plain"

  // A stand-in of its own, so that no discovery or key set cached by another path is used.
  const op = new StandInProvider({ id: `op-${++scenarios}`, type: "oidc", clientId, clientSecret, claims: { name: "Ada Lovelace" } })
  if (has("discovery.failed")) op.faults.discovery = "down"
  const discovered = byType("issuer.discovered")[0] as Extract<BackchannelLogoutEvent, { type: "issuer.discovered" }> | undefined
  // What the key set answers on each fetch: none of the token's key, unreachable, or the stand-in's keys.
  const verdicts = path.events.filter((event): event is Verdict => event.type === "token.verified" || event.type === "verify.failed")
  const jwksAnswers = verdicts.map((verdict) => (verdict.type === "verify.failed" && verdict.code === "ERR_JWKS_NO_MATCHING_KEY" ? "empty" : verdict.type === "verify.failed" && verdict.code === undefined ? "down" : "keys"))
  const jwksFetches: string[] = []
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.href === `${op.issuer}/jwks`) {
      const answer = jwksAnswers[jwksFetches.length] ?? "keys"
      jwksFetches.push(answer)
      if (answer === "empty") return Response.json({ keys: [] })
      if (answer === "down") return new Response("unavailable", { status: 500 })
    }
    const response = await op.fetch(input, init)
    if (discovered && !discovered.jwksUri && url.pathname.endsWith("/.well-known/openid-configuration")) {
      const { jwks_uri: _, ...metadata } = (await response.json()) as Record<string, unknown>
      return Response.json(metadata)
    }
    return response
  }
  const installed = (options: Record<string, unknown>) => ({ ...(opProvider(op, options) as object), [customFetch]: fetch }) as unknown as Provider
  const providers: Provider[] = [
    installed({ backchannelLogout: true }),
    installed({ id: "plain", backchannelLogout: false }),
    { id: "gh", name: "GH", type: "oauth", clientId, clientSecret, authorization: "https://gh.test/authorize", token: "https://gh.test/token", userinfo: "https://gh.test/userinfo" } as unknown as Provider,
  ]

  // The replay store: a jti seen already, a store that is down, or one that remembers.
  const replays = memoryReplayStore()
  const marked: string[] = []
  const replayStore: ReplayStore = {
    async markUsed(key, expiresAt) {
      marked.push(key)
      if (has("jti.failed")) throw new Error("replay store down")
      if (has("jti.seen")) await replays.markUsed(key, expiresAt)
      return replays.markUsed(key, expiresAt)
    },
  }

  // The revocation store, failing at the revocation the path's `revoke.failed` names.
  const failingRevocation = has("revoke.failed") ? path.events.slice(0, path.events.findIndex((event) => event.type === "revoke.failed")).filter((event) => event.type === "revoked").length : -1
  const revocations = memoryRevocationStore()
  const revoked: string[] = []
  const revocationStore: RevocationStore = {
    async revoke(key, at, expiresAt) {
      if (revoked.length === failingRevocation) throw new Error("revocation store down")
      revoked.push(key)
      return revocations.revoke(key, at, expiresAt)
    },
    revokedAt: (keys) => revocations.revokedAt(keys),
  }

  // The adapter: Ada's account is linked to a user with a database session, unless the path finds nobody.
  const memory = MemoryAdapter()
  const found = byType("user.found")[0] as Extract<BackchannelLogoutEvent, { type: "user.found" }> | undefined
  const user = await memory.createUser({ id: "", name: "Ada", email: "ada@example.test", emailVerified: null })
  if (found) await memory.linkAccount({ userId: user.id, provider: "op", providerAccountId: "ada", type: "oidc" } as never)
  await memory.createSession({ sessionToken: "session-of-ada", userId: user.id, expires: new Date(Date.now() + 60_000) })
  const adapter: Adapter = {
    ...memory,
    async getUserByAccount(account) {
      if (has("lookup.failed")) throw new Error("adapter down")
      return memory.getUserByAccount(account)
    },
    async deleteUserSessions(userId) {
      if (has("delete.failed")) throw new Error("adapter down")
      return memory.deleteUserSessions!(userId)
    },
  }

  const config: AuthConfig = {
    secret: "model-backchannel-secret",
    trustHost: true,
    providers,
    replayStore,
    revocationStore,
    ...(policy.linksUsers && { adapter }),
    // With an adapter, sessions default to database rows: JWT sessions are asked for.
    session: { strategy: policy.databaseSessions ? "database" : "jwt" },
  }
  const token = read.hasToken ? await tokenFor(op.issuer, verdicts[verdicts.length - 1]) : undefined
  // Keys the path finds a minute old: fetched (and cached) a minute before the request.
  const firstVerdict = verdicts[0]
  if (firstVerdict?.type === "verify.failed" && firstVerdict.keysAge !== undefined && firstVerdict.keysAge >= jwksRefetchCooldown) {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - firstVerdict.keysAge })
    try {
      await providerKeys(providers[0] as unknown as OAuthProviderConfig, `${op.issuer}/jwks`)
    } finally {
      vi.useRealTimers()
    }
  }
  return { config, route, token, op, jwksFetches, marked, revoked, memory, user }
}

const recorder = new TransitionRecorder([backchannelLogoutMachine])
const endings = new FlowEndings(recorder, "backchannel-logout")
const paths = modelPaths(backchannelLogoutMachine, events, { inputs: policies.map((policy) => ({ policy })) })

describe("back-channel logout machine, driven through Auth()", () => {
  it("the model yields a path to every final state, and its paths take every transition", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["loggedOut", ...Object.keys(refusalOf)]))
    const walked = new Set(paths.flatMap((path) => path.transitions.flat()))
    expect([...declaredTransitions(backchannelLogoutMachine)].filter((key) => !walked.has(key))).toEqual([])
  })

  for (const path of paths) {
    it(`${JSON.stringify((path.input as { policy: BackchannelLogoutPolicy }).policy)} ${path.description} ⇒ ${path.finalState}`, async () => {
      const s = await scenario(path)
      const { logger, errors } = recordingLogger()
      endings.reset()
      const response = await send({ ...s.config, logger, inspect: endings.inspect }, new CookieJar(), `/backchannel-logout/${s.route}`, {
        method: "POST",
        form: s.token === undefined ? {} : { logout_token: s.token },
      })
      // The real run walked exactly the model's path, and ended there: every way the flow ends is a final state.
      expect(recorder.runs.map((run) => run.states)).toEqual([path.states])
      expect(endings.statuses).toEqual(["done"])
      expect(response.headers.get("cache-control")).toBe("no-store")
      const body = (await response.json()) as { error?: string; error_description?: string }
      const row = await s.memory.getSessionAndUser("session-of-ada")
      // The key set is fetched once per verification (the one a minute old before the request): again
      // only when the cached one lacked the token's key and was old enough to fetch again.
      expect(s.jwksFetches).toHaveLength(path.states.filter((state) => state.includes("verifyingToken")).length)
      const reason = refusalOf[path.finalState]
      if (reason === undefined) {
        expect(path.finalState).toBe("loggedOut")
        expect(response.status).toBe(200)
        expect(body).toEqual({})
        expect(errors).toEqual([])
        const claims = (path.events.find((event) => event.type === "token.verified") as Extract<BackchannelLogoutEvent, { type: "token.verified" }>).claims
        const found = path.events.find((event) => event.type === "user.found") as { userId: string } | undefined
        // The sessions the token names end: its provider session, its subject, and the linked user's.
        expect(s.revoked).toEqual([
          ...(claims.sid !== undefined ? ["sid:op:sid-1"] : []),
          ...(claims.sub !== undefined ? ["sub:op:ada"] : []),
          ...(found ? [`user:${s.user.id}`] : []),
        ])
        // Database rows of the linked user are deleted at once.
        if (path.states.includes("deletingSessions")) expect(row).toBeNull()
        else expect(row).not.toBeNull()
        return
      }
      expect(response.status).toBe(400)
      expect(body).toEqual({ error: "invalid_request", error_description: reason })
      // One refusal logged, with its reason (an adapter that failed is logged by the adapter's wrapper too).
      const refusals = errors.filter((error) => (error as LogoutTokenRefused).type === "LogoutTokenRefused") as LogoutTokenRefused[]
      expect(refusals.map((error) => error.reason)).toEqual([reason])
      const adapterFailed = path.events.some((event) => event.type === "lookup.failed" || event.type === "delete.failed")
      expect(errors.filter((error) => !refusals.includes(error as LogoutTokenRefused)).map((error) => error.name)).toEqual(adapterFailed ? ["AdapterError"] : [])
      expect(refusals[0]!.message.startsWith(`Back-channel logout token refused: ${reason}`)).toBe(true)
      expect(row).not.toBeNull()
      switch (path.finalState) {
        case "providerNotAccepting":
          expect(refusals[0]!.message).toContain("the provider does not accept back-channel logouts")
          expect(s.op.seen).toEqual([])
          break
        case "tokenMissing":
          expect(s.op.seen).toEqual([])
          break
        case "jwksMissing":
          expect(refusals[0]!.message).toContain("the issuer publishes no jwks_uri")
          expect(s.jwksFetches).toEqual([])
          break
        case "signatureInvalid":
          // jose's message, or the key set's failure, is kept in the log.
          expect(refusals[0]!.message).toMatch(/\(.+\)$/)
          break
        case "issuedAtInvalid":
          if (path.events.some((event) => event.type === "verify.failed" && event.claim === "nbf")) expect(refusals[0]!.message).toContain('"nbf" claim timestamp check failed')
          else expect(refusals[0]!.message).toBe("Back-channel logout token refused: issued-at")
          break
        case "logoutFailed":
          expect(refusals[0]!.message).toMatch(/store down|adapter down/)
          break
      }
      // A refused token ends nobody's sessions; a failure ends those it reached before it.
      if (path.finalState !== "logoutFailed") expect(s.revoked).toEqual([])
      // The jti is marked only once the token's claims passed.
      expect(s.marked.length > 0).toBe(path.states.includes("markingJti"))
    })
  }

  afterAll(() => {
    const { line, missing } = coverageReport(backchannelLogoutMachine, recorder)
    console.log(line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
