/**
 * The step-up machine, driven through the real `Auth()` along every path the model generates: each
 * path is one answer `findStepUp` can give (nobody signed in, a store down, or Ada signed in with
 * an auth context that is recent or old, hers or another user's, from before a revocation or not,
 * with or without a second factor, and the second factors she can pass), under a demand for any
 * recent authentication and one for a second factor.
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest"
import { stepUpMachine, type StepUpDemand, type StepUpEvent } from "../../src/machines/step-up.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Credentials from "../../src/providers/credentials.js"
import { memoryRevocationStore } from "../../src/core/revocation-store.js"
import { encode } from "../../src/core/jwt/index.js"
import { hashBackupCode, newTotpSecret } from "../../src/core/second-factor/index.js"
import { coverageReport } from "../../src/testing/coverage.js"
import { modelPaths, type ModelPath } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { CookieJar, cookieNames, origin, recordingLogger, send } from "../helpers.js"
import { enrolledFactor, modelBackupCodes, secondFactorPage } from "./harness.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

vi.mock("../../src/machines/step-up.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("step-up", await load()))
loadMachinesPerTest("step-up")

const secret = "model-secret-for-step-up"
const names = cookieNames.https
const ada = { id: "u1", name: "Ada Lovelace", email: "ada@example.test" }
const now = Date.parse("2026-03-01T10:00:00.000Z")
const settings = `${origin}/settings`
const seconds = (count: number) => count * 1000

/** Ada signed in, as `findStepUp` finds her: by default with a recent password-and-app context and an app. */
const found = (facts: Partial<Extract<StepUpEvent, { type: "stepUp.found" }>> = {}): StepUpEvent => ({
  type: "stepUp.found",
  user: ada,
  authContext: { userId: ada.id, authTime: now - seconds(10), amr: ["pwd", "otp", "mfa"] },
  factors: 1,
  backupCodes: 0,
  emailCode: false,
  now,
  ...facts,
})

/** Every answer of `findStepUp` the real world can give. */
const events: StepUpEvent[] = [
  { type: "stepUp.signedOut" },
  { type: "stepUp.failed", error: new Error("factor store down") },
  found(),
  found({ authContext: { userId: ada.id, authTime: now - seconds(10), amr: ["pwd"] } }),
  found({ authContext: { userId: ada.id, authTime: now - seconds(600), amr: ["pwd", "otp", "mfa"] } }),
  found({ authContext: { userId: "someone-else", authTime: now - seconds(10), amr: ["pwd", "otp", "mfa"] } }),
  found({ revokedAt: now - seconds(5) }),
  found({ factors: 0, backupCodes: 3 }),
  found({ authContext: { userId: ada.id, authTime: now - seconds(600), amr: ["pwd"] }, factors: 0, emailCode: true }),
  found({ authContext: { userId: ada.id, authTime: now - seconds(600), amr: ["pwd"] }, factors: 0 }),
  found({ authContext: { userId: ada.id, authTime: now - seconds(10), amr: ["pwd"] }, factors: 0 }),
]

const demands: StepUpDemand[] = [
  { maxAge: 60, factor: "any", callbackUrl: settings },
  { maxAge: 60, factor: "second", callbackUrl: settings },
]

type Path = ModelPath<StepUpEvent>

/** The world of a path: Ada's session (a JWT), her auth-context cookie, her factors, the revocation store, and the clock. */
async function scenario(path: Path) {
  const event = path.events[0]!
  const facts = event.type === "stepUp.found" ? event : undefined
  const memory = MemoryAdapter()
  await memory.createUser({ ...ada, emailVerified: null })
  if (facts && facts.factors > 0) await memory.createFactor!(await enrolledFactor(ada.id, secret, newTotpSecret()))
  if (facts && facts.backupCodes > 0) await memory.replaceBackupCodes!(ada.id, await Promise.all(Array.from({ length: facts.backupCodes }, (_, index) => hashBackupCode(modelBackupCodes[index % modelBackupCodes.length]!, secret))))
  const adapter: Adapter = {
    ...memory,
    async listFactorsByUserId(userId) {
      if (event.type === "stepUp.failed") throw new Error("factor store down")
      return memory.listFactorsByUserId!(userId)
    },
  }
  const revocationStore = memoryRevocationStore()
  if (facts?.revokedAt !== undefined) await revocationStore.revoke(`user:${ada.id}`, facts.revokedAt, now + seconds(3600))
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    revocationStore,
    session: { strategy: "jwt" },
    providers: [Credentials({ credentials: {}, authorize: () => null })],
    secondFactor: { ...(facts?.emailCode && { required: true, sendCode: () => {} }) },
  }
  const jar = new CookieJar()
  if (event.type !== "stepUp.signedOut") {
    jar.cookies.set(names.sessionToken, await encode({ token: { name: ada.name, email: ada.email, sub: ada.id }, secret, salt: names.sessionToken }))
  }
  if (facts?.authContext) {
    const { userId, authTime, amr } = facts.authContext
    jar.cookies.set(names.authContext, await encode({ token: { u: userId, t: authTime, a: amr } as never, secret, salt: names.authContext }))
  }
  return { config, jar, facts }
}

const recorder = new TransitionRecorder([stepUpMachine])
const paths = modelPaths(stepUpMachine, events, { inputs: demands })

describe("step-up machine, driven through Auth()", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["recent", "secondFactorRequired", "secondFactorUnavailable", "reauthenticationRequired", "signInRequired", "failed"]))
  })

  for (const path of paths) {
    const demand = path.input as StepUpDemand
    it(`factor ${demand.factor}: ${path.description} ⇒ ${path.finalState}`, async () => {
      vi.useFakeTimers({ toFake: ["Date"], now })
      const s = await scenario(path)
      const query = `/step-up?${new URLSearchParams({ maxAge: String(demand.maxAge), factor: demand.factor, callbackUrl: "/settings" })}`
      const { logger, errors } = recordingLogger()
      recorder.reset()
      // Asked as JSON first: nothing starts, and the answer says what a browser would meet.
      const asked = await send({ ...s.config, logger, inspect: recorder.inspect }, s.jar, query, { headers: { accept: "application/json" } })
      const response = await send({ ...s.config, logger, inspect: recorder.inspect }, s.jar, query)
      // Both requests walked exactly the model's path (the second also started the second-factor flow, another machine).
      expect(recorder.runs.map((run) => run.states)).toEqual([path.states, path.states])
      // Only a failure and an unmeetable demand are logged: once per request that ends in one.
      const logged = { failed: ["AdapterError", "AdapterError"], secondFactorUnavailable: ["SecondFactorUnavailable"] }[path.finalState] ?? []
      expect(errors.map((error) => error.name)).toEqual(logged)
      const location = response.headers.get("location")
      const status = path.finalState === "failed" ? undefined : await asked.json()
      const methods = s.facts ? [...(s.facts.factors > 0 ? ["totp"] : []), ...(s.facts.backupCodes > 0 ? ["backup"] : []), ...(s.facts.emailCode ? ["email"] : [])].join(",") : ""
      switch (path.finalState) {
        case "recent":
          expect(status).toEqual({ recent: true, authTime: new Date(s.facts!.authContext!.authTime).toISOString(), amr: s.facts!.authContext!.amr })
          expect(location).toBe(settings)
          break
        case "secondFactorRequired":
          expect(status).toEqual({ recent: false, next: "second-factor" })
          expect(location).toBe(secondFactorPage(origin, methods))
          expect(s.jar.get(names.secondFactor)).toBeTruthy()
          expect(s.jar.get(names.sessionToken)).toBeTruthy()
          break
        case "secondFactorUnavailable":
          expect(status).toEqual({ recent: false, next: "unavailable" })
          expect(location).toBe(`${origin}/auth/error?error=SecondFactorUnavailable`)
          break
        case "reauthenticationRequired":
        case "signInRequired":
          expect(status).toEqual({ recent: false, next: "signin" })
          expect(location).toBe(`${origin}/auth/signin?${new URLSearchParams({ callbackUrl: settings })}`)
          break
        case "failed":
          expect(asked.status).toBe(302)
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "secondFactorRequired") expect(s.jar.get(names.secondFactor)).toBeUndefined()
    })
  }

  afterAll(() => {
    console.log(`step-up: ${paths.length} paths driven`)
    const { line, missing } = coverageReport(stepUpMachine, recorder)
    console.log(line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
