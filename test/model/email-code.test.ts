/**
 * The email code machine, one flow over several requests, driven through the real `Auth()` along
 * every path the model generates: Ada asks for a sign-in email in a browser (a code instead of the
 * link, or beside it), and each request to /callback/nodemailer types a code in that browser,
 * resuming the sealed flow: right, wrong, late; with the flow's cookie replayed, without CSRF, over
 * the rate limit; then the sign-in as the link does it (JWT or database sessions, a new or an
 * existing user, a browser signed in as someone, the second factor).
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest"
import type { SnapshotFrom } from "xstate"
import { emailCodeMachine, type EmailCodeEvent, type EmailCodeStart } from "../../src/machines/email-code.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import type { AdapterUser } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import type { SendVerificationRequestParams } from "../../src/providers/email-config.js"
import { modelPaths, type ModelPath } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { codeCheckEvents, codeFlowConfig, codePolicyOf, driveCodeRequests, expectFullCoverage, expectSecondFactorFinal, expectSharedFinal, faultsOn, faultyAdapter, inSecondFactorWorld, plainRetries, secondFactorFindings, secondFactorRepresentatives, secondFactorWorldOf, signInDecisionOf, signInDecisions, tailCallbacks } from "./harness.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/flow-claim.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("flow-claim", await load()))
vi.mock("../../src/machines/email-user.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("email-user", await load()))
vi.mock("../../src/machines/emailed-code.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("emailed-code", await load()))
vi.mock("../../src/machines/email-code.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("email-code", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "flow-claim", "email-user", "emailed-code", "email-code")

const secret = "model-secret"
const names = cookieNames.https
const ada = "ada@example.test"
const adaUser: AdapterUser = { id: "u-ada", name: "Ada", email: ada, emailVerified: null }
const callbackUrl = `${origin}/dashboard`
const codeCookie = `${names.flow}.email-code`
const codePage = `${origin}/auth/verify-request?provider=nodemailer&type=code`
/** The model's clock, and when the model's code expires (the engine's expires 10 minutes after it is made). */
const startsAt = Date.parse("2026-01-01T00:00:00.000Z")
const expiresAt = startsAt + 10 * 60_000

/** What the email sign-in leaves: a code instead of the link, or beside it. */
const starts = {
  instead: { identifier: ada, codeHash: "mailed", expiresAt, callbackUrl },
  beside: { identifier: ada, codeHash: "mailed", expiresAt, callbackUrl, linkTokenHash: "link" },
} satisfies Record<string, EmailCodeStart>

const databasePolicy: SignInTailPolicy = { databaseSessions: true, newUserPage: true }
const jwtPolicy: SignInTailPolicy = { databaseSessions: false, newUserPage: true }
const policies = [databasePolicy, jwtPolicy, { ...databasePolicy, secondFactor: true }, { ...jwtPolicy, secondFactor: true }]

/**
 * Payload-carrying events, given what the flow holds. The first request types a code with each
 * policy (the configuration's, the same at every request) and meets every answer; a request after
 * a wrong code types a wrong one again, within the limits, until the fifth ends the sign-in (what a
 * request meets otherwise, the first one drives).
 */
function events(snapshot: SnapshotFrom<typeof emailCodeMachine>): EmailCodeEvent[] {
  const { context } = snapshot
  return codeCheckEvents<EmailCodeEvent>(context, policies, expiresAt, () => [
    // The link mailed beside the code: still there, or it signed in first.
    { type: "token.used", row: { identifier: ada, expires: new Date(startsAt + 86_400_000) } },
    { type: "token.used", row: null },
    { type: "token.failed", error: new Error("token store down") },
    { type: "user.lookedUp", user: adaUser, newUserId: "u-new" },
    { type: "user.lookedUp", user: null, newUserId: "u-new" },
    { type: "lookup.failed", error: new Error("user store down") },
    ...signInDecisions,
    { type: "currentSession.found", userId: adaUser.id },
    { type: "currentSession.found", userId: "u-eve" },
    { type: "currentSession.none" },
    { type: "currentSession.failed", error: new Error("getSessionAndUser failed") },
    { type: "otherSession.failed", error: new Error("deleteSession failed") },
    // The first factor is the email: an emailed code is never offered as the second.
    ...secondFactorFindings(true),
    { type: "user.persisted", isNewUser: context.plan === "createUser" },
    { type: "persist.failed", error: new Error("persist failed") },
    { type: "session.failed", error: new Error("createSession failed") },
    { type: "encode.failed", error: new Error("jwt callback threw") },
  ])
}

type Path = ModelPath<EmailCodeEvent>

const policyOfPath = codePolicyOf
const startOf = (path: Path) => (path.input === starts.beside ? "beside" : "instead")

/** The way in to the second-factor check: Ada, who exists (with her factors), types the code in a browser signed in as nobody. */
const adaTypesTheCode = (events: readonly { type: string }[]) =>
  events.some((event) => event.type === "user.lookedUp" && "user" in event && event.user !== null) && !events.some((event) => event.type === "currentSession.found" || event.type === "currentSession.failed")
const allPaths = modelPaths(emailCodeMachine, events, { inputs: [starts.instead, starts.beside] })
const paths = secondFactorRepresentatives(allPaths.filter((path) => plainRetries(path, jwtPolicy)), { acceptable: adaTypesTheCode, policy: policyOfPath })

async function scenario(path: Path) {
  const policy = policyOfPath(path)!
  const start = startOf(path)
  const world: { request: EmailCodeEvent[] } = { request: [] }
  const now = (type: EmailCodeEvent["type"]) => world.request.some((event) => event.type === type)
  const memory = MemoryAdapter()
  const mails: SendVerificationRequestParams[] = []
  const adapter = faultyAdapter(
    memory,
    faultsOn(now, {
      useVerificationToken: ["token.failed", "token store down"],
      getUserByEmail: ["lookup.failed", "user store down"],
      getSessionAndUser: ["currentSession.failed", "getSessionAndUser failed"],
      deleteSession: ["otherSession.failed", "deleteSession failed"],
      createUser: ["persist.failed", "persist failed"],
      updateUser: ["persist.failed", "persist failed"],
      createSession: ["session.failed", "createSession failed"],
    }),
  )
  const config: AuthConfig = {
    ...codeFlowConfig(secret, adapter, now, policy.databaseSessions),
    pages: { newUser: "/welcome-aboard" },
    providers: [Nodemailer({ code: start, sendVerificationRequest: (params) => void mails.push(params) })],
    callbacks: {
      signIn({ email }) {
        // Asking for the email is always allowed: this machine is about typing its code.
        if (email?.verificationRequest) return true
        return signInDecisionOf(world.request)
      },
      ...tailCallbacks(path.events, () => now("encode.failed")),
    },
  }
  const existingUser = path.events.some((event) => event.type === "user.lookedUp" && event.user !== null)
  if (existingUser) await memory.createUser({ ...adaUser, id: "" })
  const found = path.events.find((event) => event.type === "currentSession.found")
  const signedInAs = found?.type === "currentSession.found" ? (found.userId === adaUser.id ? "ada" : "eve") : path.events.some((event) => event.type === "currentSession.failed" || event.type === "otherSession.failed") ? "eve" : undefined
  return { config, memory, world, mails, existingUser, signedInAs, secondFactor: secondFactorWorldOf(path.events), secondFactorOn: policy.secondFactor === true, start }
}

const recorder = new TransitionRecorder([emailCodeMachine])

describe("email code machine (one flow, several requests), driven through Auth()", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set([
        "signedIn",
        "signedInNewUser",
        "redirected",
        "accessDenied",
        "flowReplayed",
        "claimFailed",
        "csrfRejected",
        "rateLimited",
        "codeExpired",
        "attemptsExhausted",
        "linkUsed",
        "tokenLookupFailed",
        "lookupFailed",
        "persistFailed",
        "sessionFailed",
        "secondFactorRequired",
        "secondFactorUnavailable",
      ]),
    )
  })

  for (const path of paths) {
    it(`${startOf(path)}: ${path.description} ⇒ ${path.finalState}`, async () => {
      vi.useFakeTimers({ toFake: ["Date"], now: startsAt })
      const s = await scenario(path)
      const { logger, errors } = recordingLogger()
      // Ada asks for the email in this browser (signed in as someone already, where the path says so).
      const jar = new CookieJar()
      const config = s.secondFactorOn ? await inSecondFactorWorld(s.config, s.secondFactor, jar, { userId: (await s.memory.getUserByEmail(ada))!.id, secret, sendCode: true }) : s.config
      if (s.signedInAs) {
        const user = s.signedInAs === "ada" ? await s.memory.getUserByEmail(ada) : await s.memory.createUser({ id: "", name: "Eve", email: "eve@example.test", emailVerified: null })
        await s.memory.createSession({ sessionToken: `session-of-${s.signedInAs}`, userId: user!.id, expires: new Date(Date.now() + 3_600_000) })
        jar.cookies.set(names.sessionToken, `session-of-${s.signedInAs}`)
      }
      const sessionBefore = jar.get(names.sessionToken)
      const asked = await send(config, jar, "/signin/nodemailer", { form: { csrfToken: await csrfTokenFor(config, jar), email: ada, callbackUrl: "/dashboard" } })
      expect(asked.headers.get("location")).toBe(codePage)
      const mail = s.mails[0]!
      expect(mail.code).toMatch(/^\d{6}$/)
      expect(Boolean(mail.token)).toBe(s.start === "beside")
      if (path.events.some((event) => event.type === "token.used" && event.row === null)) {
        // The link mailed beside the code signs in first, on another device.
        await send({ ...config, logger: recordingLogger().logger }, new CookieJar(), mail.url)
      }

      const response = await driveCodeRequests(path, jar, recorder, {
        config,
        world: s.world,
        logger,
        route: "/callback/nodemailer",
        limited: "email-code",
        code: mail.code!,
        expiresAt,
        cookie: codeCookie,
        // A wrong code: the page again, saying so, the flow sealed anew.
        retryPage: () => `${codePage}&error=Verification&reason=wrong-code`,
      })

      const location = response.headers.get("location")
      const refusal = errors.find((error) => error.name === "Verification")?.cause as { refusal?: string } | undefined
      const user = await s.memory.getUserByEmail(ada)
      // Every end clears the flow.
      expect(jar.get(codeCookie)).toBeUndefined()
      if (path.finalState === "rateLimited") expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0)
      if (!expectSharedFinal(path.finalState, location, errors, ["claimFailed", "tokenLookupFailed", "lookupFailed", "persistFailed", "sessionFailed"])) switch (path.finalState) {
        case "signedIn":
        case "signedInNewUser": {
          expect(location).toBe(path.finalState === "signedInNewUser" ? `/welcome-aboard?callbackUrl=${encodeURIComponent(callbackUrl)}` : callbackUrl)
          expect(path.finalState === "signedInNewUser").toBe(!s.existingUser)
          const session = (await (await send(config, jar, "/session")).json()) as { user?: { email?: string } } | null
          expect(session?.user?.email).toBe(ada)
          expect(user?.emailVerified).toBeInstanceOf(Date)
          if (s.signedInAs === "eve") expect(await s.memory.getSessionAndUser(sessionBefore!)).toBeNull()
          if (s.start === "beside") {
            // The link of the same mail works no more.
            expect((await send({ ...config, logger: recordingLogger().logger }, new CookieJar(), mail.url)).headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
          }
          break
        }
        case "flowReplayed":
        case "codeExpired":
        case "attemptsExhausted":
        case "linkUsed":
          expect(location).toBe(`${origin}/auth/error?error=Verification`)
          expect(refusal?.refusal).toBe(path.finalState)
          break
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          break
        case "secondFactorRequired":
        case "secondFactorUnavailable":
          expectSecondFactorFinal(path.finalState, s.secondFactor, response, jar, origin)
          expect(user?.emailVerified).toBeInstanceOf(Date)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "signedIn" && path.finalState !== "signedInNewUser") expect(jar.get(names.sessionToken)).toBe(sessionBefore)
    })
  }

  afterAll(() => expectFullCoverage("email-code", emailCodeMachine, recorder, paths.length, { generated: allPaths.length }))
})
