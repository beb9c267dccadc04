/**
 * The factor management machine (`/factors`), driven through the real `Auth()` along every path
 * the model generates: a browser signed in as Ada (or signed out) reads her factors, renames or
 * removes one (the last one only with a current code from it), makes new backup codes, or enrols
 * an authenticator app, whose sealed enrolment waits for the confirming request (a right code, a
 * wrong one and another try, a copy of its cookie sent again, or Grace confirming it in the same
 * browser). Each path's world is built for real: Ada's factors and backup codes, an adapter whose
 * write throws where the path fails, a replay store that fails to claim.
 */
import { afterAll, describe, expect, it, vi } from "vitest"
import type { SnapshotFrom } from "xstate"
import { factorsMachine, type FactorsEvent, type FactorsRequest, type FactorSummary } from "../../src/machines/factors.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import { hashBackupCode, newTotpSecret, totpCode } from "../../src/core/second-factor/index.js"
import { totpFromUri } from "../../src/testing/index.js"
import { coverageReport } from "../../src/testing/coverage.js"
import { modelPaths, type ModelPath } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { ada, CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { claimFailingReplayStore, enrolledFactor, limiterAdmitted, limiterRepresentatives, modelBackupCodes, modelClientHeaders, rateLimitOf, rateLimitOutcomes } from "./harness.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/factors.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("factors", await load()))
loadMachinesPerTest("rate-limit", "csrf-check", "flow-claim", "factors")

const secret = "model-factors-secret-at-least-32-characters"
const names = cookieNames.https
const grace = { id: "2", name: "Grace Hopper", email: "grace@example.test" }
const list = `${origin}/auth/factors`
/** Two wrong codes end an enrolment: the model walks a second try and the last one. */
const policy = { maxAttempts: 2 }

const createdAt = "2026-01-01T00:00:00.000Z"
const phone: FactorSummary = { id: "f1", name: "Phone", createdAt }
const tablet: FactorSummary = { id: "f2", name: "Tablet", createdAt }
/** A factor id that is none of Ada's. */
const foreignFactor = "f9"

/** What the first request asks for: each action with its payload (confirming is the request an enrolment waits for). */
const firstRequests: FactorsRequest[] = [
  { action: "list", policy },
  { action: "enrol", policy },
  { action: "rename", factorId: phone.id, name: "Work phone", policy },
  { action: "rename", factorId: foreignFactor, name: "Not mine", policy },
  { action: "remove", factorId: phone.id, code: "typed", policy },
  { action: "remove", factorId: foreignFactor, policy },
  { action: "regenerate", policy },
  // An action the route does not know.
  { policy },
]
const confirmRequest: FactorsRequest = { action: "confirm", code: "typed", name: "Second phone", policy }

const found = (userId: string, factors: FactorSummary[], backupCodes: number): FactorsEvent => ({ type: "user.found", userId, factors, backupCodes })

/**
 * Payload-carrying events, given what the flow holds. Ada is found with what the request needs:
 * enrolling, with no factor and no backup codes or with her phone and two codes; removing her
 * phone, as her last factor or with her tablet too; otherwise with her phone and two codes. A
 * confirmation finds Ada as the enrolment found her, or Grace (who signed in in the same browser).
 */
function events(snapshot: SnapshotFrom<typeof factorsMachine>): FactorsEvent[] {
  const { context, value } = snapshot
  if (value === "awaitingRequest") return firstRequests.map((request) => ({ type: "request.received", request }))
  if (value === "awaitingConfirmation") return [{ type: "request.received", request: confirmRequest }]
  const request = context.request
  const users =
    request?.action === "enrol"
      ? [found(ada.id, [], 0), found(ada.id, [phone], 2)]
      : request?.action === "confirm"
        ? [found(ada.id, context.factors ?? [], context.backupCodes ?? 0), found(grace.id, [], 0)]
        : request?.action === "remove" && request.factorId === phone.id
          ? [found(ada.id, [phone], 2), found(ada.id, [phone, tablet], 2)]
          : [found(ada.id, [phone], 2)]
  return [
    ...users,
    { type: "user.failed", error: new Error("factor store down") },
    { type: "secret.generated", enrolment: { userId: context.userId ?? ada.id, accountName: ada.email, secret: "sealed", algorithm: "SHA-1", digits: 6, period: 30 } },
    { type: "write.failed", error: new Error("adapter write threw") },
    { type: "flow.claimFailed", error: new Error("replay store down") },
    ...rateLimitOutcomes,
    { type: "code.matched", step: 1 },
    { type: "code.failed", error: new Error("factor store down") },
    { type: "factor.created", factor: { id: "new", name: "Second phone", createdAt } },
    { type: "backupCodes.generated", codes: ["new-codes"] },
  ]
}

type Path = ModelPath<FactorsEvent>

/** The events of each request: the request, then what its effects found. */
function requestsOf(events: readonly FactorsEvent[]): FactorsEvent[][] {
  const requests: FactorsEvent[][] = []
  for (const event of events) {
    if (event.type === "request.received") requests.push([event])
    else requests.at(-1)!.push(event)
  }
  return requests
}

/** The states each request walks: from the state it starts in to the one it ends in. */
function statesPerRequest(path: Path): string[][] {
  const starts = path.events.flatMap((event, index) => (event.type === "request.received" ? [index] : []))
  return starts.map((start, index) => path.states.slice(start, (starts[index + 1] ?? path.events.length) + 1))
}

const requestOf = (request: readonly FactorsEvent[]) => (request[0] as Extract<FactorsEvent, { type: "request.received" }>).request
/** Ada's factors and backup codes before the path: as its first request finds her, or (found by none) her phone and two codes, and nothing before an enrolment. */
function worldBefore(path: Path): { factors: FactorSummary[]; backupCodes: number } {
  const first = requestsOf(path.events)[0]!
  return userFoundIn(first) ?? (requestOf(first).action === "enrol" ? { factors: [], backupCodes: 0 } : { factors: [phone], backupCodes: 2 })
}
const userFoundIn = (request: readonly FactorsEvent[]) => request.find((event): event is Extract<FactorsEvent, { type: "user.found" }> => event.type === "user.found")

/** A confirmation that finds Ada, a fresh flow, a valid token and the limiter admitting it: only its code decides. */
function plainConfirmation(request: readonly FactorsEvent[]): boolean {
  return (
    userFoundIn(request)?.userId === ada.id &&
    limiterAdmitted(request) &&
    !request.some((event) => event.type === "flow.replayed" || event.type === "flow.claimFailed" || event.type === "csrf.invalid")
  )
}

/**
 * The confirmation's every answer is driven after the enrolment of Ada with nothing enrolled, and
 * after a wrong code (the second try) only plainly: the same refusals then walk as they do at the
 * first. An enrolment of Ada with her phone and backup codes differs only where the factor is
 * created (her codes are kept): it is driven with plain confirmations.
 */
function drivable(path: Path): boolean {
  const [first, ...confirmations] = requestsOf(path.events)
  const enrolledBefore = (userFoundIn(first!)?.factors.length ?? 0) > 0
  return confirmations.every((request, index) => (index === 0 && !enrolledBefore) || plainConfirmation(request))
}

/** Sealing a fresh secret reads nothing but the configured secret and the TOTP settings: it cannot throw through Auth(). */
const unreachableTransitions = new Map([["factors.generatingSecret:write.failed:0", "sealing a new secret reads no adapter or store and cannot fail"]])
const unreachable = (path: Path) => path.transitions.some((keys) => keys.some((key) => unreachableTransitions.has(key)))

const recorder = new TransitionRecorder([factorsMachine])
const allPaths = modelPaths(factorsMachine, events)
const paths = limiterRepresentatives(allPaths.filter((path) => !unreachable(path) && drivable(path)))

/** The writes that fail, by the state whose effect makes them (claiming the step of the code that removes the last factor, for `code.failed`). */
const writes = { checkingFactorCode: "useFactorStep", creatingFactor: "createFactor", generatingBackupCodes: "replaceBackupCodes", renamingFactor: "renameFactor", removingFactor: "deleteFactor" } as const

/** The world of a path: Ada (and Grace), Ada's factors and backup codes before it, and what fails in which request. */
async function scenario(path: Path, strategy: "jwt" | "database") {
  const world: { request: FactorsEvent[]; failingWrite?: string } = { request: [] }
  const failing = (type: FactorsEvent["type"]) => world.request.some((event) => event.type === type)
  const memory = MemoryAdapter()
  const failWrite = (method: string) => {
    if (world.failingWrite === method) throw new Error("adapter write threw")
  }
  const adapter: Adapter = {
    ...memory,
    async listFactorsByUserId(userId) {
      if (failing("user.failed")) throw new Error("factor store down")
      return memory.listFactorsByUserId!(userId)
    },
    async useFactorStep(id, step) {
      failWrite("useFactorStep")
      return memory.useFactorStep!(id, step)
    },
    async createFactor(factor) {
      failWrite("createFactor")
      return memory.createFactor!(factor)
    },
    async replaceBackupCodes(userId, hashes) {
      failWrite("replaceBackupCodes")
      return memory.replaceBackupCodes!(userId, hashes)
    },
    async renameFactor(id, name) {
      failWrite("renameFactor")
      return memory.renameFactor!(id, name)
    },
    async deleteFactor(id) {
      failWrite("deleteFactor")
      return memory.deleteFactor!(id)
    },
  }
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    replayStore: claimFailingReplayStore(adapter, () => failing("flow.claimFailed")),
    session: { strategy },
    providers: [Credentials({ credentials: { username: {} }, authorize: ({ username }) => (username === "ada" ? ada : username === "grace" ? grace : null) })],
    secondFactor: { issuer: "Example", maxAttempts: policy.maxAttempts },
  }
  await memory.createUser({ ...ada, emailVerified: null })
  await memory.createUser({ ...grace, emailVerified: null })
  const secrets = new Map<string, Uint8Array>()
  /** Ada's factors and backup codes before the path (after she signed in: with a factor, her sign-in would stop for it). */
  async function enrolBefore() {
    const { factors, backupCodes } = worldBefore(path)
    for (const factor of factors) {
      const totpSecret = newTotpSecret()
      secrets.set(factor.id, totpSecret)
      await memory.createFactor!({ ...(await enrolledFactor(ada.id, secret, totpSecret)), id: factor.id, name: factor.name })
    }
    if (backupCodes) await memory.replaceBackupCodes!(ada.id, await Promise.all(modelBackupCodes.slice(0, backupCodes).map((code) => hashBackupCode(code, secret))))
  }

  async function signIn(jar: CookieJar, username: "ada" | "grace"): Promise<void> {
    const csrfToken = await csrfTokenFor(config, jar)
    const response = await send(config, jar, "/callback/credentials", { form: { csrfToken, username, callbackUrl: "/dashboard" } })
    expect(response.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(jar.get(names.sessionToken)).toBeTruthy()
  }

  /** A code from Ada's factor outside every window the server accepts, or the current one. */
  async function factorCode(factorId: string, right: boolean): Promise<string> {
    const totpSecret = secrets.get(factorId)!
    if (right) return totpCode(totpSecret)
    const window = await Promise.all([-30_000, 0, 30_000].map((offset) => totpCode(totpSecret, { now: Date.now() + offset })))
    return ["000000", "111111", "222222", "333333"].find((code) => !window.includes(code))!
  }

  /** Sets what fails in `request`, which starts at event `start` of the path. */
  function failIn(request: FactorsEvent[], start: number) {
    world.request = request
    const at = request.findIndex((event) => event.type === "write.failed" || event.type === "code.failed")
    world.failingWrite = at < 0 ? undefined : writes[path.states[start + at] as keyof typeof writes]
  }
  function working() {
    world.request = []
    world.failingWrite = undefined
  }
  return { config, memory, signIn, enrolBefore, factorCode, failIn, working }
}

/** The final states a JSON request is refused in: the status and the error it answers. */
const refusals: Partial<Record<string, [number, string]>> = {
  signedOut: [401, "signed-out"],
  enrolmentOfOtherUser: [403, "enrolment-of-other-user"],
  unknownFactor: [404, "unknown-factor"],
  invalidRequest: [400, "invalid-request"],
  attemptsExhausted: [400, "attempts-exhausted"],
  removalRefused: [403, "removal-refused"],
}

describe("factors machine (one flow, one or more requests), driven through Auth()", () => {
  it("the model yields a path to every final state the flow can end in", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set([
        "csrfRejected",
        "rateLimited",
        "signedOut",
        "flowReplayed",
        "enrolmentOfOtherUser",
        "unknownFactor",
        "invalidRequest",
        "attemptsExhausted",
        "removalRefused",
        "listed",
        "enrolled",
        "backupCodesShown",
        "done",
        "failed",
      ]),
    )
  })

  for (const [index, path] of paths.entries()) for (const mode of ["json", "form"] as const) {
    // Every path as a single-page app sends it (JSON) and as the built-in pages do (forms); every other one with JWT sessions: the route reads the user from either.
    const strategy = (index + (mode === "form" ? 1 : 0)) % 2 === 0 ? "database" : "jwt"
    it(`${mode}, ${strategy}: ${path.description} ⇒ ${path.finalState}`, async () => {
      const s = await scenario(path, strategy)
      const { logger, errors } = recordingLogger()
      const jar = new CookieJar()
      const requests = requestsOf(path.events)
      const first = requestsOf(path.events)[0]!
      // A browser signed in as Ada, or one signed out (the first request finds no one).
      if (!first.some((event) => event.type === "user.missing")) await s.signIn(jar, "ada")
      const adaSession = jar.get(names.sessionToken)
      await s.enrolBefore()
      const before = worldBefore(path).factors
      const oldCodes = await s.memory.countBackupCodes!(ada.id)
      recorder.reset()

      const expectedRuns = statesPerRequest(path)
      let response: Response | undefined
      let app: ReturnType<typeof totpFromUri> | undefined
      let start = 0
      for (const [at, request] of requests.entries()) {
        const asked = requestOf(request)
        const has = (type: FactorsEvent["type"]) => request.some((event) => event.type === type)
        const csrf: Record<string, string> = has("csrf.invalid") ? {} : { csrfToken: await csrfTokenFor(s.config, jar) }
        const body: Record<string, string> = { ...csrf, action: asked.action ?? "format-disk" }
        if (asked.factorId) body.factorId = asked.factorId
        if (asked.name) body.name = asked.name
        if (asked.action === "remove" && asked.factorId === phone.id) body.code = await s.factorCode(phone.id, has("code.matched") || has("code.failed"))
        if (asked.action === "confirm") {
          body.code = has("code.matched") ? await app!.code() : "000000"
          if (!has("code.matched") && (await app!.code()) === "000000") body.code = "111111"
          if (has("flow.replayed")) {
            // The same enrolment cookie, sent twice: the first use claims it.
            const saved = new Map(jar.cookies)
            await send(s.config, jar, "/factors", { json: { csrfToken: await csrfTokenFor(s.config, jar), action: "confirm", code: "000000" } })
            jar.cookies.clear()
            for (const [name, value] of saved) jar.cookies.set(name, value)
          }
          const user = userFoundIn(request)
          if (user?.userId === grace.id) {
            // Grace signs in in the browser where Ada's enrolment waits, and confirms it.
            const other = new CookieJar()
            await s.signIn(other, "grace")
            jar.cookies.set(names.sessionToken, other.get(names.sessionToken)!)
          } else if (has("user.missing")) jar.cookies.delete(names.sessionToken)
        }
        s.failIn(request, start)
        const config = { ...s.config, logger, inspect: recorder.inspect, ...rateLimitOf(request, "second-factor") }
        response =
          asked.action === "list"
            ? await send(config, jar, "/factors", { headers: { ...(mode === "json" && { accept: "application/json" }), ...modelClientHeaders } })
            : await send(config, jar, "/factors", { [mode]: body, headers: modelClientHeaders })
        s.working()
        start += request.length
        // Each request walked the model's states for it.
        expect(recorder.runs.map((run) => run.states)).toEqual(expectedRuns.slice(0, at + 1))
        if (at === requests.length - 1) break
        // The enrolment waits, sealed: the key and the code to add to the app, or the code refused.
        const refused = has("code.unmatched")
        if (mode === "json") {
          expect(response.status).toBe(refused ? 400 : 200)
          const shown = (await response.json()) as { otpauthUri: string; secret: string; error?: string }
          expect(shown.error).toBe(refused ? "wrong-code" : undefined)
          expect(shown.otpauthUri).toMatch(/^otpauth:\/\/totp\/Example:ada%40example\.test\?/)
          app = totpFromUri(shown.otpauthUri)
        } else {
          // The page: the QR code, the key to type, and whether the code was refused.
          expect(response.status).toBe(200)
          const page = await response.text()
          expect(page).toContain("<svg")
          expect(page.includes("That code is not right")).toBe(refused)
          const key = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(page)![1]!.replaceAll(" ", "")
          app = totpFromUri(`otpauth://totp/Example:ada?secret=${key}&issuer=Example`)
        }
        expect(jar.get(names.secondFactor)).toBeTruthy()
        expect(await s.memory.listFactorsByUserId!(ada.id)).toHaveLength(before.length)
      }

      const last = requests.at(-1)!
      const asked = requestOf(last)
      const location = response!.headers.get("location")
      const factors = await s.memory.listFactorsByUserId!(ada.id)
      const errorNames = errors.map((error) => error.name).filter((name) => name !== "RateLimitStoreError")
      const json = async () => (await response!.json()) as Record<string, unknown>
      const page = () => response!.text()
      const factorsUnchanged = () => expect(factors.map((factor) => factor.name)).toEqual(before.map((factor) => factor.name))
      // Every end clears a waiting enrolment.
      expect(jar.get(names.secondFactor)).toBeUndefined()
      const refusal = refusals[path.finalState]
      if (refusal) {
        // Refused in JSON with its status, or back to the list with a notice (signed out: to sign in); nothing of Ada's changed.
        if (mode === "json") {
          expect(response!.status).toBe(refusal[0])
          expect(await json()).toEqual({ error: refusal[1] })
        } else expect(location).toBe(path.finalState === "signedOut" ? `${origin}/auth/signin?${new URLSearchParams({ callbackUrl: list })}` : `${list}?notice=${refusal[1]}`)
        factorsUnchanged()
      }
      switch (path.finalState) {
        case "listed":
          expect(response!.status).toBe(200)
          if (mode === "json") expect(await json()).toEqual({ factors: [{ id: phone.id, name: phone.name, createdAt: expect.any(String) }], backupCodes: 2 })
          else expect(await page()).toContain(phone.name)
          break
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          factorsUnchanged()
          break
        case "rateLimited":
          expect(location).toMatch(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`))
          expect(Number(response!.headers.get("retry-after"))).toBeGreaterThan(0)
          factorsUnchanged()
          break
        case "flowReplayed":
          // The enrolment ended with its first confirmation: the copy is told to start again.
          if (mode === "json") {
            expect(response!.status).toBe(409)
            expect(await json()).toEqual({ error: "enrolment-ended" })
          } else expect(location).toBe(`${origin}/auth/factors?notice=enrolment-ended`)
          // The first use (a wrong code) created nothing either.
          factorsUnchanged()
          break
        case "failed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          // The adapter's error, wrapped as the route's.
          expect(errorNames.filter((name) => name !== "AdapterError")).toEqual(["CallbackRouteError"])
          // A factor written before the backup codes failed stays.
          if (last.some((event) => event.type === "factor.created")) expect(factors).toHaveLength(before.length + 1)
          else factorsUnchanged()
          break
        case "enrolmentOfOtherUser":
          expect(await s.memory.listFactorsByUserId!(grace.id)).toEqual([])
          break
        case "removalRefused":
          expect(before).toHaveLength(1)
          break
        case "signedOut":
        case "unknownFactor":
        case "invalidRequest":
        case "attemptsExhausted":
          break
        case "enrolled": {
          // Enrolled without new codes only where Ada had some.
          expect(oldCodes).toBeGreaterThan(0)
          // Ada had backup codes: they stay, and the new app is hers.
          if (mode === "json") {
            expect(response!.status).toBe(200)
            expect(((await json()) as { factor: { id: string } }).factor.id).toBe(factors.at(-1)!.id)
          } else expect(location).toBe(`${list}?notice=enrolled`)
          expect(factors.map((candidate) => candidate.id).slice(0, -1)).toEqual(before.map((candidate) => candidate.id))
          expect(factors.at(-1)!.name).toBe("Second phone")
          expect(await s.memory.countBackupCodes!(ada.id)).toBe(oldCodes)
          break
        }
        case "backupCodesShown": {
          expect(response!.status).toBe(200)
          const shown =
            mode === "json"
              ? ((await json()) as { factor?: { name: string }; backupCodes: string[] })
              : { backupCodes: [...(await page()).matchAll(/<li><code>([a-z0-9-]+)<\/code><\/li>/g)].map((match) => match[1]!), factor: undefined }
          expect(shown.backupCodes).toHaveLength(10)
          expect(new Set(shown.backupCodes).size).toBe(10)
          expect(await s.memory.countBackupCodes!(ada.id)).toBe(10)
          // The codes shown are the ones stored: one of them is used once.
          const hash = await hashBackupCode(shown.backupCodes[0]!, secret)
          expect(await s.memory.useBackupCode!(ada.id, hash)).toBe(true)
          if (asked.action === "confirm") {
            // An enrolment makes backup codes only for a user with none.
            expect(oldCodes).toBe(0)
            if (mode === "json") expect(shown.factor?.name).toBe("Second phone")
            expect(factors.map((factor) => factor.name)).toEqual([...before.map((factor) => factor.name), "Second phone"])
          } else {
            if (mode === "json") expect(shown.factor).toBeUndefined()
            factorsUnchanged()
            // The old codes are gone.
            expect(await s.memory.useBackupCode!(ada.id, await hashBackupCode(modelBackupCodes[0]!, secret))).toBe(false)
          }
          break
        }
        case "done":
          if (mode === "json") {
            expect(response!.status).toBe(200)
            expect(await json()).toEqual({ ok: true })
          } else expect(location).toBe(`${list}?notice=saved`)
          if (asked.action === "rename") expect(factors.find((factor) => factor.id === asked.factorId)?.name).toBe("Work phone")
          else {
            // Only the last factor takes a code from it.
            expect(path.states.includes("checkingFactorCode")).toBe(before.length === 1)
            expect(factors.map((factor) => factor.id)).toEqual(before.map((factor) => factor.id).filter((id) => id !== asked.factorId))
          }
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "failed" && path.finalState !== "flowReplayed") expect(errorNames.filter((name) => name !== "MissingCSRF" && name !== "RateLimited")).toEqual([])
      // The session the path signed in with stays (Grace's, swapped in, where she confirmed).
      if (adaSession && !last.some((event) => event.type === "user.missing") && userFoundIn(last)?.userId !== grace.id) expect(jar.get(names.sessionToken)).toBe(adaSession)
    })
  }

  afterAll(() => {
    console.log(`factors: ${paths.length} paths driven of ${allPaths.length} generated`)
    const { line, missing } = coverageReport(factorsMachine, recorder)
    console.log(line, `(unreachable through Auth(): ${[...unreachableTransitions].map(([key, why]) => `${key}: ${why}`).join("; ")})`)
    expect(missing.filter((key) => !unreachableTransitions.has(key)), `uncovered transitions: ${missing.join(", ")}`).toEqual([])
    // A transition named unreachable is one no path took.
    expect(missing.filter((key) => unreachableTransitions.has(key))).toEqual([...unreachableTransitions.keys()])
  })
})
