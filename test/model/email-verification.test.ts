import { afterAll, afterEach, describe, expect, it, vi } from "vitest"
import type { InspectionEvent, SnapshotFrom } from "xstate"
import { emailVerificationMachine, type EmailVerificationEvent } from "../../src/machines/email-verification.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import type { Adapter, AdapterUser } from "../../src/adapters.js"
import type { AuthConfig, User } from "../../src/types.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { expectFullCoverage, expectSecondFactorFinal, expectTailFinal, policyOf, tailCallbacks, secondFactorFindings, secondFactorInputs, secondFactorRepresentatives, secondFactorWorld, secondFactorWorldOf, signInDecisionOf, signInDecisions, tailInputs } from "./harness.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/email-user.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("email-user", await load()))
vi.mock("../../src/machines/email-verification.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("email-verification", await load()))
loadMachinesPerTest("sign-in-tail", "email-user", "email-verification")

const ada = "ada@example.test"
const eve = "eve@example.test"
/** An address outside the grammar, as an older version (or other code) may have stored a token for. */
const hostile = "x<evil@evil.test>"
const secret = "model-secret"
const sessionCookie = cookieNames.https.sessionToken
const adaUser: AdapterUser = { id: "u-ada", name: "Ada", email: ada, emailVerified: null }

// The model's clock: the guards compare the row's `expires` with the moment the database answered.
const checkedAt = new Date("2026-01-01T00:00:00.000Z")
const later = new Date(checkedAt.getTime() + 60_000)
const earlier = new Date(checkedAt.getTime() - 1_000)

/**
 * Payload-carrying events: each is one way the real world can answer an effect. What the database
 * answers depends on the link (a link for a hostile address finds a hostile row), and what the
 * write reports on what the machine planned.
 */
function events(snapshot: SnapshotFrom<typeof emailVerificationMachine>): EmailVerificationEvent[] {
  const { linkEmail, plan } = snapshot.context
  return [
    { type: "link.read", hasToken: true, email: ada },
    { type: "link.read", hasToken: true, email: hostile },
    { type: "link.read", hasToken: false, email: ada },
    ...(linkEmail === hostile
      ? [{ type: "token.used" as const, row: { identifier: hostile, expires: later }, checkedAt }]
      : [
          { type: "token.used" as const, row: null, checkedAt },
          { type: "token.used" as const, row: { identifier: ada, expires: earlier }, checkedAt },
          { type: "token.used" as const, row: { identifier: eve, expires: later }, checkedAt },
          { type: "token.used" as const, row: { identifier: ada, expires: later }, checkedAt },
        ]),
    { type: "token.failed", error: new Error("token store down") },
    { type: "user.lookedUp", user: adaUser, newUserId: "u-new" },
    { type: "user.lookedUp", user: null, newUserId: "u-new" },
    { type: "lookup.failed", error: new Error("user store down") },
    ...signInDecisions,
    // Whom the browser following the link is signed in as (database sessions): the user the link is for, or someone else.
    { type: "currentSession.found", userId: adaUser.id },
    { type: "currentSession.found", userId: "u-eve" },
    { type: "currentSession.failed", error: new Error("getSessionAndUser failed") },
    { type: "otherSession.failed", error: new Error("deleteSession failed") },
    // The first factor is the email link: an emailed code is never offered as the second.
    ...secondFactorFindings(true),
    { type: "user.persisted", isNewUser: plan === "createUser" },
    { type: "persist.failed", error: new Error(plan === "createUser" ? "createUser failed" : "updateUser failed") },
    { type: "session.failed", error: new Error("createSession failed") },
    { type: "encode.failed", error: new Error("jwt callback threw") },
    { type: "token.restored" },
    { type: "restore.failed", error: new Error("token store down on restore") },
  ]
}

function errorOf(event: EmailVerificationEvent | undefined): string | undefined {
  return event && "error" in event && event.error instanceof Error ? event.error.message : undefined
}

/** The real configuration and request that make the engine meet exactly these events. */
function scenario(path: EmailVerificationEvent[], policy: SignInTailPolicy) {
  const byType = new Map(path.map((event) => [event.type, event]))
  const link = byType.get("link.read") as Extract<EmailVerificationEvent, { type: "link.read" }>
  const used = byType.get("token.used") as Extract<EmailVerificationEvent, { type: "token.used" }> | undefined
  const refusal = !link.hasToken
    ? "no token"
    : used?.row === null
      ? "used already"
      : used?.row?.identifier === eve
        ? "another address"
        : used && used.row && used.row.expires < used.checkedAt
          ? "expired"
          : link.email === hostile
            ? "hostile address"
            : undefined
  const lookedUp = byType.get("user.lookedUp")
  const existingUser = lookedUp !== undefined && "user" in lookedUp && lookedUp.user !== null
  const persistFailure = errorOf(byType.get("persist.failed")) ?? errorOf(byType.get("currentSession.failed")) ?? errorOf(byType.get("otherSession.failed"))
  const current = byType.get("currentSession.found") as Extract<EmailVerificationEvent, { type: "currentSession.found" }> | undefined
  /** The browser following the link is signed in already (database sessions): as the user the link is for, or as someone else. */
  const signedInAs = current ? (current.userId === adaUser.id ? "ada" : "eve") : persistFailure?.startsWith("getSessionAndUser") || persistFailure?.startsWith("deleteSession") ? "eve" : undefined
  const sessionFailure = errorOf(byType.get("session.failed")) ?? errorOf(byType.get("encode.failed"))
  const world = { followingLink: false }
  const links: string[] = []
  const signInEvents: { isNewUser?: boolean; user: User }[] = []
  const userEvents: string[] = []
  /** Which address each stored hash was issued for, for the token-keyed adapter. */
  const issuedFor = new Map<string, string>()

  const memory = MemoryAdapter()
  const adapter: Adapter = {
    ...memory,
    async createVerificationToken(token) {
      if (world.followingLink && byType.has("restore.failed")) throw new Error("token store down on restore")
      issuedFor.set(token.token, token.identifier)
      return memory.createVerificationToken(token)
    },
    async useVerificationToken(params) {
      if (byType.has("token.failed")) throw new Error("token store down")
      // An adapter that finds tokens by the token alone (the identifier is not part of its key):
      // the machine, not the database, notices that the link names another address.
      if (refusal === "another address") return memory.useVerificationToken({ ...params, identifier: issuedFor.get(params.token) ?? params.identifier })
      return memory.useVerificationToken(params)
    },
    async getUserByEmail(email) {
      if (world.followingLink && byType.has("lookup.failed")) throw new Error("user store down")
      return memory.getUserByEmail(email)
    },
    async createUser(user) {
      if (persistFailure === "createUser failed") throw new Error("createUser failed")
      return memory.createUser(user)
    },
    async updateUser(user) {
      if (persistFailure === "updateUser failed") throw new Error("updateUser failed")
      return memory.updateUser(user)
    },
    async createSession(session) {
      if (sessionFailure === "createSession failed") throw new Error("createSession failed")
      return memory.createSession(session)
    },
    async getSessionAndUser(sessionToken) {
      if (world.followingLink && persistFailure === "getSessionAndUser failed") throw new Error("getSessionAndUser failed")
      return memory.getSessionAndUser(sessionToken)
    },
    async deleteSession(sessionToken) {
      if (world.followingLink && persistFailure === "deleteSession failed") throw new Error("deleteSession failed")
      return memory.deleteSession(sessionToken)
    },
  }

  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: policy.databaseSessions ? ("database" as const) : ("jwt" as const) },
    ...(policy.newUserPage && { pages: { newUser: "/welcome-aboard" } }),
    providers: [Nodemailer({ maxAge: 60, sendVerificationRequest: ({ url }) => void links.push(url) })],
    callbacks: {
      signIn({ email }) {
        // The request for the link is always allowed: this machine is about following it.
        if (email?.verificationRequest) return true
        return signInDecisionOf(path)
      },
      ...tailCallbacks(path, () => world.followingLink && sessionFailure === "jwt callback threw"),
    },
    events: {
      signIn: ({ user, isNewUser }) => void signInEvents.push({ user, isNewUser }),
      createUser: () => void userEvents.push("createUser"),
      updateUser: () => void userEvents.push("updateUser"),
    },
  }

  /** The link as the user follows it, after whatever happened to it first. */
  async function linkToFollow(): Promise<string> {
    if (refusal === "hostile address") {
      // A token stored for an address no mail can have gone to as written.
      const token = "f".repeat(64)
      const { createHash } = await import("node:crypto")
      await memory.createVerificationToken({ identifier: hostile, token: createHash("sha256").update(`${token}${secret}`).digest("hex"), expires: new Date(Date.now() + 60_000) })
      return `${origin}/auth/callback/nodemailer?${new URLSearchParams({ callbackUrl: `${origin}/dashboard`, token, email: hostile })}`
    }
    // The link is asked for in one browser…
    const askingDevice = new CookieJar()
    const csrfToken = await csrfTokenFor(config, askingDevice)
    const asked = await send(config, askingDevice, "/signin/nodemailer", { form: { csrfToken, email: refusal === "another address" ? eve : ada, callbackUrl: "/dashboard" } })
    expect(asked.headers.get("location")).toBe(`${origin}/auth/verify-request?provider=nodemailer&type=email`)
    const url = new URL(links.at(-1)!)
    switch (refusal) {
      case "no token":
        url.searchParams.delete("token")
        break
      case "another address":
        // Eve's link, with Ada's address written in.
        url.searchParams.set("email", ada)
        break
      case "expired":
        vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 })
        break
      case "used already": {
        const first = await send(config, new CookieJar(), url.href)
        // Its first use signed the user in: a user it created went to pages.newUser first.
        expect(first.headers.get("location")).toBe(existingUser || !policy.newUserPage ? `${origin}/dashboard` : `/welcome-aboard?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
        signInEvents.length = 0
        userEvents.length = 0
        break
      }
    }
    return url.href
  }

  /** The browser that follows the link, signed in as the path says (a database session of its own). */
  async function followingBrowser(): Promise<{ jar: CookieJar; sessionBefore?: string }> {
    const jar = new CookieJar()
    if (!signedInAs) return { jar }
    const user = signedInAs === "ada" ? await memory.getUserByEmail(ada) : await memory.createUser({ id: "", name: "Eve", email: eve, emailVerified: null })
    const sessionBefore = `session-of-${signedInAs}`
    await memory.createSession({ sessionToken: sessionBefore, userId: user!.id, expires: new Date(Date.now() + 60_000) })
    jar.cookies.set(sessionCookie, sessionBefore)
    return { jar, sessionBefore }
  }

  return { config, memory, world, existingUser, refusal, persistFailure, sessionFailure, signInEvents, userEvents, linkToFollow, followingBrowser, signedInAs }
}

/** The final state a request reaches, seen through the inspector. */
async function finalStateOf(config: AuthConfig, url: string): Promise<unknown> {
  let value: unknown
  const inspect = (event: InspectionEvent) => {
    if (event.type === "@xstate.snapshot" && (event.snapshot as { machine?: { id?: string } }).machine?.id === "email-verification") {
      value = (event.snapshot as unknown as { value: unknown }).value
    }
  }
  await send({ ...config, inspect }, new CookieJar(), url)
  return value
}

const recorder = new TransitionRecorder([emailVerificationMachine])
/** The way in to the second-factor check: Ada, who exists (with her factors) before the link, follows it in a browser signed in as nobody. */
const adaFollowsTheLink = (events: readonly { type: string }[]) =>
  events.some((event) => event.type === "user.lookedUp" && "user" in event && event.user !== null) && !events.some((event) => event.type === "currentSession.found")
const paths = secondFactorRepresentatives(modelPaths(emailVerificationMachine, events, { inputs: [...tailInputs, ...secondFactorInputs] }), { acceptable: adaFollowsTheLink })

describe("email verification machine, driven through Auth()", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set([
        "signedIn",
        "signedInNewUser",
        "linkIncomplete",
        "tokenUnknown",
        "tokenExpired",
        "identifierMismatch",
        "identifierInvalid",
        "tokenLookupFailed",
        "lookupFailed",
        "accessDenied",
        "redirected",
        "persistFailed",
        "sessionFailed",
        "secondFactorRequired",
        "secondFactorUnavailable",
      ]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = scenario(path.events, policyOf(path))
      const { logger, errors } = recordingLogger()
      if (s.existingUser) await s.memory.createUser({ ...adaUser, id: "" })
      const link = await s.linkToFollow()

      // …and followed in another.
      const verifiedBefore = (await s.memory.getUserByEmail(ada))?.emailVerified ?? null
      const { jar, sessionBefore } = await s.followingBrowser()
      const secondFactor = secondFactorWorldOf(path.events)
      if (policyOf(path).secondFactor) {
        // Ada's factors (and this browser trusted for her) as the path finds them; a mailer for codes is configured, never offered.
        const built = await secondFactorWorld(secondFactor, s.config.adapter!, { userId: (await s.memory.getUserByEmail(ada))!.id, secret, sendCode: true })
        s.config.secondFactor = built.secondFactor
        s.config.adapter = built.adapter
        for (const [name, value] of built.cookies) jar.cookies.set(name, value)
      }
      s.world.followingLink = true
      recorder.reset()
      const response = await send({ ...s.config, logger, inspect: recorder.inspect }, jar, link)

      // The real run walked exactly the model's path.
      expect(recorder.runs.map((run) => run.states)).toEqual([path.states])

      expect(response.status).toBe(302)
      const location = response.headers.get("location")
      const user = await s.memory.getUserByEmail(ada)
      // What the user sees in each final state.
      if (!expectTailFinal(path.finalState, location)) switch (path.finalState) {
        case "signedIn":
        case "signedInNewUser": {
          // A user the link created goes to pages.newUser first.
          expect(location).toBe(path.finalState === "signedInNewUser" ? `/welcome-aboard?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}` : `${origin}/dashboard`)
          expect(path.finalState === "signedInNewUser").toBe(!s.existingUser)
          expect(jar.get(sessionCookie)).toBeTruthy()
          const session = (await (await send(s.config, jar, "/session")).json()) as { user: { email: string } }
          expect(session.user.email).toBe(ada)
          expect(user?.emailVerified).toBeInstanceOf(Date)
          expect(s.signInEvents).toEqual([{ user: expect.objectContaining({ email: ada }), isNewUser: !s.existingUser }])
          expect(s.userEvents).toEqual([s.existingUser ? "updateUser" : "createUser"])
          if (sessionBefore) {
            // A browser signed in as someone else is signed out of that session; one signed in as this user keeps it.
            expect(jar.get(sessionCookie)).not.toBe(sessionBefore)
            expect(await s.memory.getSessionAndUser(sessionBefore)).toEqual(s.signedInAs === "eve" ? null : expect.objectContaining({ user: expect.objectContaining({ email: ada }) }))
          }
          break
        }
        case "linkIncomplete":
        case "tokenUnknown":
        case "tokenExpired":
        case "identifierMismatch":
        case "identifierInvalid": {
          // Each refusal is its own state and cause; the user sees the same page for all of them.
          expect(location).toBe(`${origin}/auth/error?error=Verification`)
          const page = await send(s.config, jar, "/error?error=Verification")
          expect(page.status).toBe(403)
          expect(await page.text()).toContain("The sign in link is no longer valid.")
          expect(errors.find((error) => error.name === "Verification")?.cause).toMatchObject({ refusal: path.finalState })
          if (path.finalState === "tokenUnknown") {
            // A token never issued is the same answer as a used one: the database deleted the used row.
            const never = new URL(link)
            never.searchParams.set("token", "0".repeat(64))
            expect(await finalStateOf(s.config, never.href)).toBe("tokenUnknown")
          }
          if (path.finalState === "identifierInvalid") expect(await s.memory.getUserByEmail(hostile)).toBeNull()
          break
        }
        case "tokenLookupFailed":
          // A failing database is the server's problem, not an invalid link.
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errors.map((error) => error.name)).toContain("AdapterError")
          break
        case "lookupFailed":
        case "persistFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errors.map((error) => error.name)).toContain("AdapterError")
          if (!s.existingUser) expect(user).toBeNull()
          else expect(user?.emailVerified).toBeNull()
          break
        case "sessionFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          // The database (writing the session, or finding the user's second factor) or the jwt callback failed.
          expect(errors.map((error) => error.name)).toContain(s.sessionFailure === "jwt callback threw" ? "CallbackRouteError" : "AdapterError")
          // The user was saved before the session failed.
          expect(user?.emailVerified).toBeInstanceOf(Date)
          break
        case "secondFactorRequired":
        case "secondFactorUnavailable":
          expectSecondFactorFinal(path.finalState, secondFactor, response, jar, origin)
          // The link proved the address: the user is saved, verified, before the second factor is asked.
          expect(user?.emailVerified).toBeInstanceOf(Date)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "signedIn" && path.finalState !== "signedInNewUser") {
        // No session is issued: the browser keeps what it had.
        expect(jar.get(sessionCookie)).toBe(sessionBefore)
        expect(s.signInEvents).toHaveLength(0)
      }
      if (path.finalState === "lookupFailed" || path.finalState === "persistFailed" || path.finalState === "sessionFailed") {
        // The database failed after the link's token was used: the token was put back (or that failed too, and was logged).
        const restored = path.events.some((event) => event.type === "token.restored")
        expect(path.states).toContain("restoringToken")
        if (!restored) expect(errors.filter((error) => error.name === "AdapterError").length).toBeGreaterThanOrEqual(1)
        s.world.followingLink = false
        const again = await send({ ...s.config, logger: recordingLogger().logger }, new CookieJar(), link)
        // A restored link is known again: a failure now is the database's again, never "used already".
        if (restored && !s.persistFailure && !s.sessionFailure) expect(again.headers.get("location")).not.toBe(`${origin}/auth/error?error=Verification`)
        if (!restored) expect(again.headers.get("location")).toBe(`${origin}/auth/error?error=Verification`)
      }
      if (!["signedIn", "signedInNewUser", "sessionFailed", "secondFactorRequired", "secondFactorUnavailable"].includes(path.finalState)) {
        // This request marked nobody verified.
        expect(user?.emailVerified ?? null).toEqual(verifiedBefore)
      }
    })
  }

  afterAll(() => expectFullCoverage("email-verification", emailVerificationMachine, recorder, paths.length))
})
