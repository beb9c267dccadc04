/**
 * The second-factor machine, one flow over several requests, driven through the real `Auth()`
 * along every path the model generates: a first factor stops in `secondFactorRequired` (a
 * credentials sign-in of a user with an authenticator app and backup codes, or of one who must be
 * emailed a code; an OAuth sign-in of a user it creates, or of one whose provider tokens are
 * stored), and each request to /second-factor resumes the sealed flow with a code or asks for one
 * by email.
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest"
import type { SnapshotFrom } from "xstate"
import { secondFactorMachine, type FirstFactor, type SecondFactorEvent, type SecondFactorPolicy } from "../../src/machines/second-factor.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import { hashBackupCode, newTotpSecret, totpCode } from "../../src/core/second-factor/index.js"
import { modelPaths, type ModelPath } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { claimFailingReplayStore, enrolledFactor, expectFullCoverage, limiterAdmitted, limiterRepresentatives, modelBackupCodes, modelClientHeaders, rateLimitOf, rateLimitOutcomes, secondFactorPage } from "./harness.js"
import { opProvider, standInOP } from "../support/oauth-stand-in.js"
import { consent, startSignIn } from "../support/oauth-harness.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/second-factor.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("second-factor", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "flow-claim", "second-factor")

const secret = "model-secret"
const names = cookieNames.https
const callbackUrl = `${origin}/dashboard`
const ada = { id: "u1", name: "Ada Lovelace", email: "ada@example.test" }
/** The model's clock: 10 seconds into a 30-second TOTP step, so that the app's code is the one the server checks. */
const startsAt = Date.parse("2026-01-01T00:00:10.000Z")
/** How long the model's slow mailer takes: the emailed code (10 minutes) then outlives the flow sealed after it (5 minutes) by less. */
const slowMail = 6 * 60_000
/** When the model's emailed code expires (the engine's own expiry is 10 minutes after it was made). */
const modelExpiresAt = startsAt + 10 * 60_000

/** Who passed the first factor and how, one per way in; the model starts the machine with each. */
const firstFactors = {
  /** A credentials sign-in of Ada, who has an authenticator app and backup codes. */
  app: { user: ada, account: { provider: "credentials", type: "credentials", providerAccountId: ada.id }, callbackUrl, methods: ["totp", "backup"] },
  /** A credentials sign-in of Ada, of whom a second factor is required, with none enrolled: she is emailed a code. */
  emailCode: { user: ada, account: { provider: "credentials", type: "credentials", providerAccountId: ada.id }, callbackUrl, methods: ["email"] },
  /** An OAuth sign-in that creates Ada (a code is required and emailed): she goes to pages.newUser once it passes. */
  newOAuthUser: { user: ada, account: { provider: "op", type: "oidc", providerAccountId: "sub" }, isNewUser: true, callbackUrl, methods: ["email"] },
  /** An OAuth sign-in of Ada, linked before with tokens of her own, which the session's tokens replace. */
  returningOAuthUser: { user: ada, account: { provider: "op", type: "oidc", providerAccountId: "sub" }, isNewUser: false, callbackUrl, methods: ["email"] },
  /** A step-up: Ada signed in with her password and app two minutes before, and a one-minute demand sends her through the app again; her session stays. */
  stepUp: { user: ada, account: { provider: "step-up", type: "credentials", providerAccountId: ada.id }, callbackUrl, methods: ["totp", "backup"], stepUp: { amr: ["pwd", "otp", "mfa"] } },
} satisfies Record<string, FirstFactor>
type FirstFactorName = keyof typeof firstFactors

const policyBase = { newUserPage: true, secondFactor: true, passkeyCountsAsTwoFactors: true, maxAttempts: 2 }
/** Database sessions with "remember this device" offered (and, after OAuth, the provider's tokens refreshed), or JWTs without it. */
const databasePolicy = (oauth: boolean): SecondFactorPolicy => ({ ...policyBase, databaseSessions: true, trustsDevices: true, ...(oauth && { renewsStoredTokens: true }) })
const jwtPolicy: SecondFactorPolicy = { ...policyBase, databaseSessions: false, trustsDevices: false }

/**
 * Payload-carrying events, given what the flow holds. A sign-in resumes with the configuration's
 * policy (the same one at every request); its first request submits a method the user has or one
 * they do not, or asks for a code by email, and every later one the method it used before (the
 * paths through a second request that the first does not take as well are its email code and its
 * last attempt).
 */
function events(snapshot: SnapshotFrom<typeof secondFactorMachine>): SecondFactorEvent[] {
  const { context } = snapshot
  const oauth = context.account.provider === "op"
  // After OAuth, database sessions with the provider's tokens refreshed or not (a new user then goes to pages.newUser straight from the session).
  const policies = context.policy ? [context.policy] : !oauth ? [databasePolicy(false), jwtPolicy] : context.isNewUser ? [databasePolicy(true), databasePolicy(false), jwtPolicy] : [databasePolicy(true)]
  const again = context.attempts > 0 || context.emailCode !== undefined
  const list: SecondFactorEvent[] = []
  for (const policy of policies) {
    const submit = (method: "totp" | "backup" | "email", rememberDevice = false) => list.push({ type: "code.submitted", method, code: "typed", rememberDevice, policy })
    // Asking for an emailed code is an answer of every request (the model would otherwise send it without a policy).
    list.push({ type: "emailCode.requested", policy })
    if (again) submit(context.submission!.method)
    else if (context.methods.includes("totp")) {
      submit("totp")
      submit("backup")
      if (policy.trustsDevices) submit("backup", true)
    } else if (!oauth) {
      submit("email")
      submit("totp")
    }
  }
  list.push(
    { type: "flow.claimFailed", error: new Error("replay store down") },
    ...(again ? rateLimitOutcomes.slice(0, 1) : rateLimitOutcomes),
    { type: "totp.matched", factorId: "f1", step: 1 },
    { type: "totp.failed", error: new Error("factor store down") },
    { type: "step.failed", error: new Error("factor store down") },
    { type: "backupCode.failed", error: new Error("backup code store down") },
    { type: "emailCode.sent", hash: "sent", expiresAt: modelExpiresAt },
    { type: "emailCode.failed", error: new Error("mailer down") },
    { type: "device.failed", error: new Error("factor store down") },
    { type: "authContext.renewed" },
    { type: "session.created", providerTokens: oauth },
    { type: "session.failed", error: new Error("createSession threw") },
    { type: "encode.failed", error: new Error("jwt callback threw") },
    { type: "storedTokens.renewed", replaced: context.isNewUser !== true },
    { type: "storedTokens.failed", error: new Error("getAccount threw") },
  )
  // What was typed: the emailed code in time, another code (in time, unless a code expired before: the clock goes on), or the emailed code at the moment it expires.
  if (context.emailCode) {
    const { hash, expiresAt } = context.emailCode
    const now = context.refusal === "expired-email-code" ? expiresAt : expiresAt - 1
    list.push({ type: "emailCode.hashed", hashes: [hash], now }, { type: "emailCode.hashed", hashes: ["another"], now }, { type: "emailCode.hashed", hashes: [hash], now: expiresAt })
  }
  return list
}

type Path = ModelPath<SecondFactorEvent>

const firstFactorOf = (path: Path) => (Object.entries(firstFactors).find(([, firstFactor]) => firstFactor === path.input)![0] as FirstFactorName)
const isResume = (event: SecondFactorEvent) => event.type === "code.submitted" || event.type === "emailCode.requested"

/** The events of each request to /second-factor: the resume, then what its effects found. */
function requestsOf(events: readonly SecondFactorEvent[]): SecondFactorEvent[][] {
  const requests: SecondFactorEvent[][] = []
  for (const event of events) {
    if (isResume(event)) requests.push([event])
    else requests.at(-1)!.push(event)
  }
  return requests
}

/** The states each request walks: the first factor's (the flow sealed, waiting), then each request's from `awaitingCode` on. */
function statesPerRequest(path: Path): string[][] {
  const starts = path.states.flatMap((state, index) => (state === "awaitingCode" ? [index] : []))
  return [["awaitingCode"], ...starts.map((start, index) => path.states.slice(start, (starts[index + 1] ?? path.states.length - 1) + 1))]
}

/** The transitions that pass the factor: a TOTP step claimed, a backup code used, the emailed code matching. */
const passing = new Set(["second-factor.claimingStep:step.claimed:0", "second-factor.usingBackupCode:backupCode.used:0", "second-factor.checkingEmailCode:emailCode.hashed:1"])
const passedAt = (path: Path) => path.transitions.findIndex((keys) => keys.some((key) => passing.has(key)))

/**
 * A request after the first meets a replay, a missing CSRF token, the limiter refusing or a
 * method not offered as the first does, and asks for another emailed code as the first asks for
 * one: those paths are driven from the first request. A later request submits a code.
 */
function plainAfterFirst(path: Path): boolean {
  const { methods } = path.input as FirstFactor
  return requestsOf(path.events)
    .slice(1)
    .every(
      ([resume, ...found]) =>
        resume!.type === "code.submitted" &&
        methods.includes(resume.method) &&
        limiterAdmitted(found) &&
        !found.some((event) => event.type === "flow.replayed" || event.type === "flow.claimFailed" || event.type === "csrf.invalid"),
    )
}

/**
 * What follows a passed factor (remembering the device, the session) is driven after one way of
 * passing per first factor, policy, method and "remember this device": the shortest (the first
 * generated of those). The OAuth first factors are there for what follows (a new user, the
 * provider's tokens): their paths that do not pass are the credentials ones'.
 */
function onePassPerWay(paths: readonly Path[]): Path[] {
  const keyOf = (path: Path) => {
    const at = passedAt(path)
    if (at < 0) return undefined
    const resume = path.events.slice(0, at).filter(isResume).at(-1) as Extract<SecondFactorEvent, { type: "code.submitted" }>
    return JSON.stringify([firstFactorOf(path), resume.policy, path.transitions[at], resume.rememberDevice])
  }
  const chosen = new Map<string, Path>()
  for (const path of paths) {
    const key = keyOf(path)
    if (key === undefined) continue
    const current = chosen.get(key)
    if (!current || passedAt(current) > passedAt(path)) chosen.set(key, path)
  }
  const sameWayIn = (path: Path, chosenPath: Path) => JSON.stringify(path.events.slice(0, passedAt(path) + 1)) === JSON.stringify(chosenPath.events.slice(0, passedAt(chosenPath) + 1))
  return paths.filter((path) => {
    const key = keyOf(path)
    if (key === undefined) return firstFactorOf(path) === "app" || firstFactorOf(path) === "emailCode"
    return sameWayIn(path, chosen.get(key)!)
  })
}

const recorder = new TransitionRecorder([secondFactorMachine])
const allPaths = modelPaths(secondFactorMachine, events, { inputs: Object.values(firstFactors) })
const paths = limiterRepresentatives(onePassPerWay(allPaths.filter(plainAfterFirst)))

/** The world of a path: the configuration, the database, the provider, the mailer, and what fails in which request. */
async function scenario(path: Path) {
  const firstFactor = firstFactorOf(path)
  const oauth = firstFactor === "newOAuthUser" || firstFactor === "returningOAuthUser"
  const hasApp = firstFactor === "app" || firstFactor === "stepUp"
  const policy = (path.events.find(isResume) as { policy: SecondFactorPolicy }).policy
  /** The events of the request being sent (none between requests: the world then works). */
  const world: { request: SecondFactorEvent[]; expiresLater: boolean } = { request: [], expiresLater: path.events.some((event) => event.type === "emailCode.hashed" && event.now >= modelExpiresAt) }
  const failing = (type: SecondFactorEvent["type"]) => world.request.some((event) => event.type === type)
  const sent: { code: string; expires: Date }[] = []
  const memory = MemoryAdapter()
  const adapter: Adapter = {
    ...memory,
    async listFactorsByUserId(userId) {
      if (failing("totp.failed") || failing("device.failed")) throw new Error("factor store down")
      return memory.listFactorsByUserId!(userId)
    },
    async useFactorStep(id, step) {
      if (failing("step.failed")) throw new Error("factor store down")
      return memory.useFactorStep!(id, step)
    },
    async useBackupCode(userId, hash) {
      if (failing("backupCode.failed")) throw new Error("backup code store down")
      return memory.useBackupCode!(userId, hash)
    },
    async createSession(session) {
      if (failing("session.failed")) throw new Error("createSession threw")
      return memory.createSession!(session)
    },
    async getAccount(providerAccountId, provider) {
      if (failing("storedTokens.failed")) throw new Error("getAccount threw")
      return memory.getAccount!(providerAccountId, provider)
    },
  }
  const op = standInOP({}, true)
  const totpSecret = newTotpSecret()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    replayStore: claimFailingReplayStore(adapter, () => failing("flow.claimFailed")),
    session: { strategy: policy.databaseSessions ? "database" : "jwt" },
    pages: { newUser: "/welcome-aboard" },
    providers: oauth ? [opProvider(op, { refresh: policy.renewsStoredTokens === true })] : [Credentials({ credentials: { username: {} }, authorize: () => ({ ...ada }) })],
    secondFactor: {
      maxAttempts: policy.maxAttempts,
      trustedDeviceDays: policy.trustsDevices ? 30 : 0,
      // Ada with her app is offered it and backup codes; Ada without one is required to pass a factor, and emailed a code.
      ...(!hasApp && {
        required: true,
        async sendCode({ code, expires }) {
          if (failing("emailCode.failed")) throw new Error("mailer down")
          sent.push({ code, expires })
          // A slow mailer, on the path where the code expires: it is typed the moment it does.
          if (world.expiresLater) vi.setSystemTime(Date.now() + slowMail)
        },
      }),
    },
    callbacks: {
      jwt({ token }) {
        if (failing("encode.failed")) throw new Error("jwt callback threw")
        return token
      },
    },
  }

  // The database before the sign-in.
  if (!oauth) await memory.createUser({ ...ada, emailVerified: null })
  if (hasApp) {
    await memory.createFactor!(await enrolledFactor(ada.id, secret, totpSecret))
    await memory.replaceBackupCodes!(ada.id, await Promise.all(modelBackupCodes.map((code) => hashBackupCode(code, secret))))
  }
  if (firstFactor === "returningOAuthUser") {
    const user = await memory.createUser({ id: "", name: ada.name, email: ada.email, emailVerified: null })
    await memory.linkAccount({ userId: user.id, type: "oidc", provider: "op", providerAccountId: op.subject, refresh_token: "rt-stored-before", expires_at: Math.floor(startsAt / 1000) - 60 })
  }

  /** The first factor, in `jar`'s browser: it stops for the second. */
  async function signIn(jar: CookieJar, observed: AuthConfig = config): Promise<Response> {
    if (firstFactor === "stepUp") {
      // Ada signs in with her password and app; two minutes on (the same second of a 30-second step), a one-minute demand stops her.
      await send(config, jar, "/callback/credentials", { form: { csrfToken: await csrfTokenFor(config, jar), username: "ada", callbackUrl: "/dashboard" } })
      await send(config, jar, "/second-factor", { form: { csrfToken: await csrfTokenFor(config, jar), method: "totp", code: await totpCode(totpSecret) } })
      expect(jar.get(names.sessionToken)).toBeTruthy()
      vi.setSystemTime(Date.now() + 2 * 60_000)
      return send(observed, jar, `/step-up?${new URLSearchParams({ maxAge: "60", callbackUrl: "/dashboard" })}`)
    }
    if (oauth) {
      const authorization = await startSignIn(config, jar, `${origin}/auth/signin/op?${new URLSearchParams({ callbackUrl: "/dashboard" })}`)
      return send(observed, jar, consent(op, authorization))
    }
    const csrfToken = await csrfTokenFor(config, jar)
    return send(observed, jar, "/callback/credentials", { form: { csrfToken, username: "ada", callbackUrl: "/dashboard" } })
  }

  /** The form a request posts, and what the world does before it: the code its effects find right, wrong, used or expired. */
  async function formOf(request: SecondFactorEvent[]): Promise<Record<string, string>> {
    const resume = request[0]!
    if (resume.type === "emailCode.requested") return { method: "email", send: "true" }
    if (resume.type !== "code.submitted") throw new Error(`a request starts with ${resume.type}`)
    const has = (type: SecondFactorEvent["type"]) => request.some((event) => event.type === type)
    const fields = { method: resume.method, ...(resume.rememberDevice && { remember: "true" }) }
    if (resume.method === "totp") {
      const current = await totpCode(totpSecret)
      // Another sign-in used this step's code first.
      if (has("step.taken")) await memory.useFactorStep!("f1", Math.floor(Date.now() / 30_000))
      if (has("totp.matched")) return { ...fields, code: current }
      const window = await Promise.all([-30_000, 0, 30_000].map((offset) => totpCode(totpSecret, { now: Date.now() + offset })))
      return { ...fields, code: ["000000", "111111", "222222", "333333"].find((code) => !window.includes(code))! }
    }
    if (resume.method === "backup") return { ...fields, code: has("backupCode.used") ? modelBackupCodes[0]! : "hhhhh-hhhhh" }
    const hashed = request.find((event) => event.type === "emailCode.hashed")
    if (!hashed || hashed.type !== "emailCode.hashed") return { ...fields, code: "123456" }
    const { code, expires } = sent.at(-1)!
    // Typed the moment the code expires (the flow, sealed after the slow mailer, still waits).
    if (hashed.now >= modelExpiresAt) vi.setSystemTime(expires)
    if (hashed.hashes[0] !== "sent") return { ...fields, code: String((Number(code) + 1) % 1_000_000).padStart(6, "0") }
    return { ...fields, code }
  }
  return { config, memory, op, world, sent, policy, oauth, firstFactor, signIn, formOf }
}

/** The page a waiting flow shows after a request: refused with a reason, or a code emailed. */
function waitingPage(methods: readonly string[], refusal?: string, emailSent = false): string {
  const url = new URL(secondFactorPage(origin, methods.join(",")))
  if (refusal) {
    url.searchParams.set("error", "SecondFactorRefused")
    url.searchParams.set("reason", refusal)
  }
  if (emailSent) url.searchParams.set("sent", "email")
  return url.href
}

/** Why a request that goes back to `awaitingCode` was refused, from the transition that refused it. */
const refusals: Record<string, string> = {
  "second-factor.verifying:always:3": "no-email-code",
  "second-factor.checkingTotp:totp.unmatched:0": "wrong-code",
  "second-factor.claimingStep:step.taken:0": "replayed-code",
  "second-factor.usingBackupCode:backupCode.unknown:0": "unknown-backup-code",
  "second-factor.checkingEmailCode:emailCode.hashed:0": "expired-email-code",
  "second-factor.checkingEmailCode:emailCode.hashed:2": "wrong-code",
}

describe("second-factor machine (one flow, several requests), driven through Auth()", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("the model yields a path to every final state the flow can end in", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set(["flowReplayed", "csrfRejected", "methodUnavailable", "rateLimited", "emailCodeFailed", "verifyFailed", "attemptsExhausted", "signedIn", "signedInNewUser", "sessionFailed", "steppedUp"]),
    )
  })

  for (const path of paths) {
    it(`${firstFactorOf(path)}: ${path.description} ⇒ ${path.finalState}`, async () => {
      vi.useFakeTimers({ toFake: ["Date"], now: startsAt })
      const s = await scenario(path)
      const { logger, errors } = recordingLogger()
      const jar = new CookieJar()
      recorder.reset()
      const stopped = await s.signIn(jar, { ...s.config, logger, inspect: recorder.inspect })
      // The first factor stopped: the flow waits, sealed, and no session exists (a step-up's session stays as it was).
      const methods = firstFactors[s.firstFactor].methods
      const stepUp = s.firstFactor === "stepUp"
      const session = jar.get(names.sessionToken)
      expect(stopped.headers.get("location")).toBe(secondFactorPage(origin, methods.join(",")))
      expect(jar.get(names.secondFactor)).toBeTruthy()
      expect(session).toEqual(stepUp ? expect.any(String) : undefined)

      const requests = requestsOf(path.events)
      const expectedRuns = statesPerRequest(path)
      let response: Response | undefined
      /** How many of the path's events the requests sent so far took. */
      let taken = 0
      for (const [index, request] of requests.entries()) {
        taken += request.length
        const form = await s.formOf(request)
        const csrf: Record<string, string> = request.some((event) => event.type === "csrf.invalid") ? {} : { csrfToken: await csrfTokenFor(s.config, jar) }
        if (request.some((event) => event.type === "flow.replayed")) {
          // The same flow cookie, sent twice: the first use claims it.
          const saved = new Map(jar.cookies)
          await send(s.config, jar, "/second-factor", { form: { ...csrf, method: "totp", code: "000000" } })
          jar.cookies.clear()
          for (const [name, value] of saved) jar.cookies.set(name, value)
        }
        s.world.request = request
        response = await send({ ...s.config, logger, inspect: recorder.inspect, ...rateLimitOf(request, "second-factor") }, jar, "/second-factor", { form: { ...csrf, ...form }, headers: modelClientHeaders })
        s.world.request = []
        expect(response.status).toBe(302)
        // Each request walked the model's states for it.
        expect(recorder.runs.map((run) => run.states)).toEqual(expectedRuns.slice(0, index + 2))
        if (index === requests.length - 1) break
        // A request that waits again shows the page: why the code was refused, or that one was emailed; the flow is sealed anew.
        const refusedBy = path.transitions[taken - 1]!.find((key) => key in refusals)
        expect(response.headers.get("location")).toBe(waitingPage(methods, refusedBy && refusals[refusedBy], request[0]!.type === "emailCode.requested"))
        expect(jar.get(names.secondFactor)).toBeTruthy()
        expect(jar.get(names.sessionToken)).toBe(session)
      }

      const location = response!.headers.get("location")
      const errorNames = errors.map((error) => error.name).filter((name) => name !== "RateLimitStoreError")
      const signedIn = path.finalState === "signedIn" || path.finalState === "signedInNewUser"
      // Every end clears the flow.
      expect(jar.get(names.secondFactor)).toBeUndefined()
      switch (path.finalState) {
        case "signedIn":
        case "signedInNewUser": {
          expect(location).toBe(path.finalState === "signedInNewUser" ? `/welcome-aboard?callbackUrl=${encodeURIComponent(callbackUrl)}` : callbackUrl)
          expect(path.finalState === "signedInNewUser").toBe(s.firstFactor === "newOAuthUser")
          const session = (await (await send(s.config, jar, "/session")).json()) as { user?: { email?: string } } | null
          expect(session?.user?.email).toBe(ada.email)
          const remembered = path.events.some((event) => event.type === "device.trusted")
          if (path.events.some((event) => event.type === "device.failed" || event.type === "storedTokens.failed")) expect(new Set(errorNames)).toEqual(new Set(["AdapterError"]))
          else expect(errorNames).toEqual([])
          if (remembered) {
            // The next sign-in in this browser skips the second factor.
            jar.cookies.delete(names.sessionToken)
            expect((await s.signIn(jar)).headers.get("location")).toBe(callbackUrl)
          }
          if (path.events.some((event) => event.type === "storedTokens.renewed")) {
            // The row holds the tokens this sign-in brought.
            const row = await s.memory.getAccount!(s.op.subject, "op")
            expect(row?.refresh_token).toMatch(/^rt-/)
            expect(row?.refresh_token).not.toBe("rt-stored-before")
          }
          break
        }
        case "steppedUp": {
          // The session is the one Ada had; when and how she authenticated is renewed.
          expect(location).toBe(callbackUrl)
          expect(jar.get(names.sessionToken)).toBe(session)
          const status = (await (await send(s.config, jar, "/step-up?maxAge=60", { headers: { accept: "application/json" } })).json()) as { recent: boolean; amr?: string[] }
          const passedWith = path.events.some((event) => event.type === "backupCode.used") ? "backup-code" : "otp"
          expect(status).toEqual({ recent: true, authTime: new Date(Date.now()).toISOString(), amr: [...new Set(["pwd", "otp", passedWith, "mfa"])] })
          expect(errorNames).toEqual([])
          break
        }
        case "flowReplayed":
          // The sign-in starts again, the replayed flow cookie named in the log.
          expect(location).toBe(`${origin}/auth/signin?error=SecondFactorRefused`)
          expect(errorNames).toEqual(["SecondFactorRefused"])
          break
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          break
        case "rateLimited":
          expect(location).toMatch(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`))
          expect(Number(response!.headers.get("retry-after"))).toBeGreaterThan(0)
          break
        case "methodUnavailable":
          expect(location).toBe(`${origin}/auth/signin?error=SecondFactorRefused`)
          break
        case "emailCodeFailed":
          expect(location).toBe(`${origin}/auth/signin?error=Configuration`)
          expect(errorNames).toEqual(["EmailSignInError"])
          break
        case "attemptsExhausted":
          expect(location).toBe(`${origin}/auth/signin?error=SecondFactorAttemptsExhausted`)
          break
        case "verifyFailed":
        case "sessionFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errorNames.length).toBeGreaterThan(0)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (!signedIn && path.finalState !== "steppedUp") expect(jar.get(names.sessionToken)).toBe(session)
      // The device is remembered once the factor passed and the browser asked, and only by a sign-in that ends signed in.
      expect(Boolean(jar.get(names.trustedDevice))).toBe(signedIn && path.events.some((event) => event.type === "device.trusted"))
    })
  }

  afterAll(() => expectFullCoverage("second-factor", secondFactorMachine, recorder, paths.length, { generated: allPaths.length }))
})
