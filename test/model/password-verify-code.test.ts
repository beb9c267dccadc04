/**
 * The Password verification code machine, one flow over several requests, driven through the real
 * `Auth()` along every path the model generates: Ada, whose address is not verified, signs in with
 * her password where addresses are verified by code (`verifyBy: "code"`), is mailed a code, and
 * each POST /verify-email/password types a code in that browser, resuming the sealed flow: right,
 * wrong, late; with the flow's cookie replayed, without CSRF, over the rate limit; her account gone
 * or replaced meanwhile, her address verified meanwhile, the store failing; then the sign-in tail
 * (JWT or database sessions, the second factor).
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest"
import type { SnapshotFrom } from "xstate"
import { passwordVerifyCodeMachine, type PasswordCodeStart, type PasswordVerifyCodeEvent } from "../../src/machines/password-verify-code.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import { hashPassword } from "../../src/core/password/index.js"
import type { AdapterUser } from "../../src/adapters.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import { modelPaths, type ModelPath } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { codeCheckEvents, codeFlowConfig, codePolicyOf, driveCodeRequests, expectFullCoverage, expectSecondFactorFinal, expectSharedFinal, faultsOn, faultyAdapter, inSecondFactorWorld, plainRetries, secondFactorFindings, secondFactorRepresentatives, secondFactorWorldOf, signInDecisionOf, signInDecisions, tailCallbacks } from "./harness.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/emailed-code.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("emailed-code", await load()))
vi.mock("../../src/machines/password-verify-code.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-verify-code", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "flow-claim", "emailed-code", "password-verify-code")

const secret = "model-secret-for-password-codes"
const names = cookieNames.https
const ada = "ada@example.test"
const adaUser: AdapterUser = { id: "u-ada", name: "Ada", email: ada, emailVerified: null }
const password = "correct horse battery"
const hashing = { scrypt: { ln: 10 } }
const adaHash = hashPassword(password, hashing)
const callbackUrl = `${origin}/dashboard`
const codeCookie = `${names.flow}.password-code`
const codePage = `${origin}/auth/verify-request?provider=password&type=code`
const startsAt = Date.parse("2026-01-01T00:00:00.000Z")
const expiresAt = startsAt + 10 * 60_000
const start: PasswordCodeStart = { email: ada, bound: "bound", codeHash: "mailed", expiresAt, callbackUrl }

const databasePolicy: SignInTailPolicy = { databaseSessions: true, newUserPage: false }
const jwtPolicy: SignInTailPolicy = { databaseSessions: false, newUserPage: false }
const policies = [databasePolicy, jwtPolicy, { ...databasePolicy, secondFactor: true }, { ...jwtPolicy, secondFactor: true }]

/**
 * Payload-carrying events, given what the flow holds: the first request meets every answer; a
 * request after a wrong code types a wrong one again, within the limits, until the fifth.
 */
function events(snapshot: SnapshotFrom<typeof passwordVerifyCodeMachine>): PasswordVerifyCodeEvent[] {
  const { context } = snapshot
  return codeCheckEvents<PasswordVerifyCodeEvent>(context, policies, expiresAt, () => [
    // Ada as she was; verified meanwhile (the link, or a code in another flow); replaced by another account at the address; gone.
    { type: "user.found", user: adaUser, bound: true, verified: false },
    { type: "user.found", user: adaUser, bound: true, verified: true },
    { type: "user.found", user: { ...adaUser, id: "u-other" }, bound: false, verified: false },
    { type: "user.missing" },
    { type: "lookup.failed", error: new Error("user store down") },
    { type: "email.verified" },
    { type: "update.failed", error: new Error("user store down") },
    ...signInDecisions,
    ...secondFactorFindings(),
    { type: "session.failed", error: new Error("createSession failed") },
    { type: "encode.failed", error: new Error("jwt callback threw") },
  ])
}

type Path = ModelPath<PasswordVerifyCodeEvent>

const policyOfPath = codePolicyOf

/** The second factor is looked up for Ada as she was (found, bound). */
const adaAsSheWas = (events: readonly { type: string }[]) => events.some((event) => event.type === "user.found" && (event as { bound?: boolean }).bound === true)
const allPaths = modelPaths(passwordVerifyCodeMachine, events, { inputs: [start] })
const paths = secondFactorRepresentatives(allPaths.filter((path) => plainRetries(path, jwtPolicy)), { acceptable: adaAsSheWas, policy: policyOfPath })

async function scenario(path: Path) {
  const policy = policyOfPath(path)!
  const world: { request: PasswordVerifyCodeEvent[] } = { request: [] }
  const now = (type: PasswordVerifyCodeEvent["type"]) => world.request.some((event) => event.type === type)
  const memory = MemoryAdapter()
  await memory.createUser(adaUser)
  await memory.linkAccount({ userId: adaUser.id, type: "credentials" as never, provider: "password", providerAccountId: adaUser.id, refresh_token: await adaHash })
  const mails: PasswordMail[] = []
  const adapter = faultyAdapter(
    memory,
    faultsOn(now, {
      getUserByEmail: ["lookup.failed", "user store down"],
      updateUser: ["update.failed", "user store down"],
      createSession: ["session.failed", "createSession failed"],
    }),
  )
  const config: AuthConfig = {
    ...codeFlowConfig(secret, adapter, now, policy.databaseSessions),
    providers: [Password({ hashing, verification: "required", verifyBy: "code", sendMail: (mail) => void mails.push(mail) })],
    callbacks: {
      signIn: () => (world.request.length === 0 ? true : signInDecisionOf(world.request)),
      ...tailCallbacks(path.events, () => now("encode.failed")),
    },
  }
  return { config, memory, world, mails, secondFactor: secondFactorWorldOf(path.events), secondFactorOn: policy.secondFactor === true }
}

const recorder = new TransitionRecorder([passwordVerifyCodeMachine])

describe("password verification code machine (one flow, several requests), driven through Auth()", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set([
        "signedIn",
        "redirected",
        "accessDenied",
        "flowReplayed",
        "claimFailed",
        "csrfRejected",
        "rateLimited",
        "codeExpired",
        "attemptsExhausted",
        "codeStale",
        "verifyFailed",
        "sessionFailed",
        "secondFactorRequired",
        "secondFactorUnavailable",
      ]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      vi.useFakeTimers({ toFake: ["Date"], now: startsAt })
      const s = await scenario(path)
      const { logger, errors } = recordingLogger()
      const jar = new CookieJar()
      const config = s.secondFactorOn ? await inSecondFactorWorld(s.config, s.secondFactor, jar, { userId: adaUser.id, secret }) : s.config
      // Ada signs in with her password: her address is not verified, so a code is mailed and this browser waits for it.
      const signedIn = await send(config, jar, "/callback/password", { form: { csrfToken: await csrfTokenFor(config, jar), email: ada, password, callbackUrl: "/dashboard" } })
      expect(signedIn.headers.get("location")).toBe(codePage)
      const code = (s.mails[0] as { code?: string }).code!
      expect(code).toMatch(/^\d{6}$/)
      // What changed meanwhile, where the path says so.
      const found = path.events.find((event) => event.type === "user.found")
      if (found?.type === "user.found" && found.verified) await s.memory.updateUser({ id: adaUser.id, emailVerified: new Date(startsAt) })
      if (found?.type === "user.found" && !found.bound) {
        await s.memory.deleteUser!(adaUser.id)
        await s.memory.createUser({ id: "u-other", email: ada, emailVerified: null })
      }
      if (path.events.some((event) => event.type === "user.missing")) await s.memory.deleteUser!(adaUser.id)

      const response = await driveCodeRequests(path, jar, recorder, {
        config,
        world: s.world,
        logger,
        route: "/verify-email/password",
        limited: "email-code",
        code,
        expiresAt,
        cookie: codeCookie,
        retryPage: (index) => `${codePage}&error=Verification&reason=wrong-code&left=${4 - index}`,
      })

      const location = response.headers.get("location")
      const refusal = errors.find((error) => (error as { type?: string }).type === "PasswordCodeInvalid")?.cause as { refusal?: string } | undefined
      const user = await s.memory.getUser(adaUser.id)
      expect(jar.get(codeCookie)).toBeUndefined()
      // The address is verified once the right code found Ada and the write went through.
      expect(user?.emailVerified instanceof Date).toBe(path.states.includes("checkingSignIn") || (found?.type === "user.found" && found.bound && found.verified))
      if (!expectSharedFinal(path.finalState, location, errors, ["claimFailed", "verifyFailed", "sessionFailed"])) switch (path.finalState) {
        case "signedIn": {
          expect(location).toBe(callbackUrl)
          const session = (await (await send(config, jar, "/session")).json()) as { user?: { email?: string } } | null
          expect(session?.user?.email).toBe(ada)
          break
        }
        case "flowReplayed":
        case "attemptsExhausted":
        case "codeStale":
          expect(location).toBe(`${origin}/auth/signin?error=PasswordCodeInvalid`)
          expect(refusal?.refusal).toBe(path.finalState)
          break
        case "codeExpired":
          expect(location).toBe(`${origin}/auth/signin?error=PasswordCodeExpired`)
          break
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          break
        case "secondFactorRequired":
        case "secondFactorUnavailable":
          expectSecondFactorFinal(path.finalState, s.secondFactor, response, jar, origin)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "signedIn") expect(jar.get(names.sessionToken)).toBeUndefined()
    })
  }

  afterAll(() => expectFullCoverage("password-verify-code", passwordVerifyCodeMachine, recorder, paths.length, { generated: allPaths.length }))
})
