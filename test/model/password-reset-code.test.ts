/**
 * The reset-by-code machine, one flow over several requests, driven through the real `Auth()` along
 * every path the model generates: Ada forgets her password where resets are by code (`resetBy:
 * "code"`), is mailed a code, and each POST /reset-password/password types a code and a new password
 * in that browser, resuming the sealed flow: right, wrong, late; with the flow's cookie replayed,
 * without CSRF, over the rate limit; her password changed or her account gone meanwhile, her address
 * verified meanwhile, a refused new password (the code still good), the store failing; then the link
 * reset's own steps (the compare-and-set write, the verification mark, the sessions, the notice).
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest"
import type { SnapshotFrom } from "xstate"
import { passwordResetCodeMachine, type PasswordResetCodeEvent, type PasswordResetCodeStart } from "../../src/machines/password-reset-code.js"
import type { PasswordChangePolicy } from "../../src/machines/password-reset.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import { hashPassword } from "../../src/core/password/index.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig, PasswordMail } from "../../src/types.js"
import { modelPaths, type ModelPath } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { codeCheckEvents, codeFlowConfig, codeRetryEvents, driveCodeRequests, expectFullCoverage, expectSharedFinal, faultsOn, faultyAdapter, limiterRepresentatives, plainRetries } from "./harness.js"
import { down, resetStepEvents } from "./password-world.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/emailed-code.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("emailed-code", await load()))
vi.mock("../../src/machines/password-reset.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-reset", await load()))
vi.mock("../../src/machines/password-reset-code.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("password-reset-code", await load()))
loadMachinesPerTest("rate-limit", "csrf-check", "flow-claim", "emailed-code", "password-reset", "password-reset-code")

const secret = "model-secret-for-password-reset-codes"
const ada = "ada@example.test"
const userId = "u-ada"
const password = "correct horse battery"
const hashing = { scrypt: { ln: 10 } }
const adaHash = hashPassword(password, hashing)
const codeCookie = `${cookieNames.https.flow}.password-reset-code`
const codeForm = (query: Record<string, string> = {}) => `${origin}/auth/reset-password/password?${new URLSearchParams({ type: "code", ...query })}`
const startsAt = Date.parse("2026-01-01T00:00:00.000Z")
const expiresAt = startsAt + 10 * 60_000
const start: PasswordResetCodeStart = { link: { userId, email: ada }, bound: "bound", codeHash: "mailed", expiresAt }
const policies: PasswordChangePolicy[] = [{ endsOtherSessions: true }, { endsOtherSessions: false }]

/**
 * Payload-carrying events, given what the flow holds: the first request meets every answer; a
 * request after a wrong code types a wrong one again, until the fifth; one after a refused password
 * types the right code and a good password.
 */
function events(snapshot: SnapshotFrom<typeof passwordResetCodeMachine>): PasswordResetCodeEvent[] {
  const { context } = snapshot
  const again = (hashed: string[]): PasswordResetCodeEvent[] => [
    ...codeRetryEvents<PasswordResetCodeEvent>(context.policy!, expiresAt, hashed),
    { type: "account.found", bound: true, verified: false },
    { type: "newPassword.read" },
  ]
  if (context.attempts > 0) return again(["another"])
  if (context.refusal !== undefined) return again(["mailed"])
  // Ada as she was; verified meanwhile; her password changed meanwhile; then the reset's own steps.
  return codeCheckEvents<PasswordResetCodeEvent, PasswordChangePolicy>(context, policies, expiresAt, () => resetStepEvents)
}

type Path = ModelPath<PasswordResetCodeEvent>

const policyOf = (path: { events: readonly PasswordResetCodeEvent[] }) => (path.events[0] as Extract<PasswordResetCodeEvent, { type: "code.submitted" }>).policy
/** The account as it was all along: what changes meanwhile is walked by first requests. */
const asItWas = (events: readonly { type: string }[]) => (events as readonly PasswordResetCodeEvent[]).every((event) => event.type !== "account.missing" && (event.type !== "account.found" || (event.bound && !event.verified)))
const allPaths = modelPaths(passwordResetCodeMachine, events, { inputs: [start] })
/** Retries after plain requests only, with the default policy and the account as it was: the refusals of a first request are walked once each. */
const paths = limiterRepresentatives(allPaths.filter((path) => plainRetries(path, policies[0], asItWas)))

async function scenario(path: Path) {
  const policy = policyOf(path)
  const world: { request: PasswordResetCodeEvent[] } = { request: [] }
  const now = (type: PasswordResetCodeEvent["type"]) => world.request.some((event) => event.type === type)
  const memory = MemoryAdapter()
  const hash = await adaHash
  await memory.createUser({ id: userId, email: ada, emailVerified: null })
  await memory.linkAccount({ userId, type: "credentials" as never, provider: "password", providerAccountId: userId, refresh_token: hash })
  await memory.createSession({ sessionToken: "session-ada", userId, expires: new Date(startsAt + 3600_000) })
  const mails: PasswordMail[] = []
  const adapter: Adapter = {
    ...faultyAdapter(
      memory,
      faultsOn(now, {
        getUser: ["lookup.failed", "user store down"],
        updateUser: ["verify.failed", "user update down"],
        deleteUserSessions: ["sessions.failed", "session store down"],
      }),
    ),
    async updateAccountTokens(account, expected, tokens) {
      if (now("write.failed")) throw down("account store")
      // Another change of the password lands first.
      if (now("password.raced")) await memory.updateAccountTokens!(account, expected, { refresh_token: "$scrypt$raced" })
      return memory.updateAccountTokens!(account, expected, tokens)
    },
  }
  const config: AuthConfig = {
    ...codeFlowConfig(secret, adapter, now, true),
    providers: [
      Password({
        hashing,
        resetBy: "code",
        endOtherSessions: policy.endsOtherSessions,
        sendMail: (mail) => {
          if (now("mail.failed")) throw down("SMTP")
          mails.push(mail)
        },
      }),
    ],
  }
  return { config, memory, world, mails, hash }
}

const recorder = new TransitionRecorder([passwordResetCodeMachine])

describe("password reset code machine (one flow, several requests), driven through Auth()", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set(["passwordReset", "flowReplayed", "claimFailed", "csrfRejected", "rateLimited", "codeExpired", "attemptsExhausted", "codeStale", "resetFailed"]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      vi.useFakeTimers({ toFake: ["Date"], now: startsAt })
      const s = await scenario(path)
      const { logger, errors } = recordingLogger()
      const jar = new CookieJar()
      // Ada forgot her password: a code is mailed and this browser waits for it.
      const asked = await send(s.config, jar, "/forgot-password/password", { form: { csrfToken: await csrfTokenFor(s.config, jar), email: ada } })
      expect(asked.headers.get("location")).toBe(codeForm())
      const code = (s.mails[0] as { code?: string }).code!
      expect(code).toMatch(/^\d{6}$/)
      // What changed meanwhile, where the path says so.
      const found = path.events.find((event) => event.type === "account.found")
      if (found?.type === "account.found" && found.verified) await s.memory.updateUser({ id: userId, emailVerified: new Date(startsAt) })
      if (found?.type === "account.found" && !found.bound) await s.memory.updateAccountTokens!({ provider: "password", providerAccountId: userId }, s.hash, { refresh_token: "$scrypt$changed-meanwhile" })
      if (path.events.some((event) => event.type === "account.missing")) await s.memory.deleteUser!(userId)
      s.mails.length = 0

      const refusedIn = (request: readonly PasswordResetCodeEvent[]) => request.some((event) => event.type === "newPassword.read" && event.problem !== undefined)
      const response = await driveCodeRequests(path, jar, recorder, {
        config: s.config,
        world: s.world,
        logger,
        route: "/reset-password/password",
        limited: "password-reset",
        code,
        expiresAt,
        cookie: codeCookie,
        fields: (request) => ({ password: refusedIn(request) ? "short" : "a brand new password" }),
        retryPage: (index, requests) => {
          const wrongs = requests.slice(0, index + 1).filter((earlier) => !earlier.some((event) => event.type === "newPassword.read")).length
          return refusedIn(requests[index]!) ? codeForm({ error: "PasswordResetRefused", reason: "too-short" }) : codeForm({ error: "Verification", reason: "wrong-code", left: String(5 - wrongs) })
        },
      })

      const location = response.headers.get("location")
      const refusal = errors.find((error) => (error as { type?: string }).type === "PasswordCodeInvalid")?.cause as { refusal?: string } | undefined
      const account = await s.memory.getAccount(userId, "password")
      expect(jar.get(codeCookie)).toBeUndefined()
      const written = path.finalState === "passwordReset"
      if (account && found?.type === "account.found" && found.bound && !path.events.some((event) => event.type === "password.raced")) expect(account.refresh_token === s.hash).toBe(!written)
      expect(s.mails.map((mail) => mail.kind)).toEqual(path.states.includes("notifying") && !path.events.some((event) => event.type === "mail.failed") ? ["password-changed"] : [])
      const sessionKept = (await s.memory.getSessionAndUser("session-ada")) !== null
      if (account) expect(sessionKept).toBe(!(path.states.includes("endingOtherSessions") && !path.events.some((event) => event.type === "sessions.failed")))
      if (!expectSharedFinal(path.finalState, location, errors, ["claimFailed", "resetFailed"])) switch (path.finalState) {
        case "passwordReset":
          expect(location).toBe(`${origin}/auth/signin?notice=password-reset`)
          expect((await s.memory.getUser(userId))?.emailVerified).toEqual(path.events.some((event) => event.type === "verify.failed") ? null : expect.any(Date))
          break
        case "flowReplayed":
        case "attemptsExhausted":
        case "codeStale":
          expect(location).toBe(`${origin}/auth/forgot-password/password?error=PasswordCodeInvalid`)
          expect(refusal?.refusal).toBe(path.finalState)
          break
        case "codeExpired":
          expect(location).toBe(`${origin}/auth/forgot-password/password?error=PasswordCodeExpired`)
          break
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
    })
  }

  afterAll(() => expectFullCoverage("password-reset-code", passwordResetCodeMachine, recorder, paths.length, { generated: allPaths.length }))
})
