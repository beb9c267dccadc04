import { afterAll, afterEach, describe, expect, it, vi } from "vitest"
import { emailVerificationMachine, type EmailVerificationEvent } from "../../src/machines/email-verification.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig, User } from "../../src/types.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { coverageReport, modelPaths, TransitionRecorder, signInDecisionOf } from "./harness.js"

const ada = "ada@example.test"
const sessionCookie = "__Secure-authjs.session-token"

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: EmailVerificationEvent[] = [
  { type: "token.invalid", error: "no token" },
  { type: "token.invalid", error: "expired" },
  { type: "token.invalid", error: "used already" },
  { type: "token.invalid", error: "another address" },
  { type: "token.invalid", error: "token store down" },
  { type: "lookup.failed", error: "user store down" },
  { type: "signIn.denied" },
  { type: "signIn.denied", error: "callback threw" },
  { type: "signIn.redirect", url: "/welcome" },
  { type: "user.persisted", isNewUser: true },
  { type: "user.persisted", isNewUser: false },
  { type: "persist.failed", error: "createUser failed" },
  { type: "persist.failed", error: "updateUser failed" },
  { type: "session.failed", error: "jwt callback threw" },
  { type: "session.failed", error: "createSession failed" },
]

function errorOf(event: EmailVerificationEvent | undefined): unknown {
  return event && "error" in event ? event.error : undefined
}

/** The real configuration and request that make the engine meet exactly these events. */
function scenario(path: EmailVerificationEvent[]) {
  const byType = new Map(path.map((event) => [event.type, event]))
  const invalid = errorOf(byType.get("token.invalid"))
  const persistFailure = errorOf(byType.get("persist.failed"))
  const sessionFailure = errorOf(byType.get("session.failed"))
  const persisted = byType.get("user.persisted")
  const existingUser = (persisted && "isNewUser" in persisted && !persisted.isNewUser) || persistFailure === "updateUser failed"
  const world = { followingLink: false }
  const links: string[] = []
  const signInEvents: { isNewUser?: boolean; user: User }[] = []
  const userEvents: string[] = []

  const memory = MemoryAdapter()
  const adapter: Adapter = {
    ...memory,
    async useVerificationToken(params) {
      if (invalid === "token store down") throw new Error("token store down")
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
  }

  const config: AuthConfig = {
    secret: "model-secret",
    trustHost: true,
    adapter,
    ...(sessionFailure === "jwt callback threw" && { session: { strategy: "jwt" as const } }),
    providers: [Nodemailer({ maxAge: 60, sendVerificationRequest: ({ url }) => void links.push(url) })],
    callbacks: {
      signIn({ email }) {
        // The request for the link is always allowed: this machine is about following it.
        if (email?.verificationRequest) return true
        return signInDecisionOf(path)
      },
      jwt({ token }) {
        if (world.followingLink && sessionFailure === "jwt callback threw") throw new Error("jwt callback threw")
        return token
      },
    },
    events: {
      signIn: ({ user, isNewUser }) => void signInEvents.push({ user, isNewUser }),
      createUser: () => void userEvents.push("createUser"),
      updateUser: () => void userEvents.push("updateUser"),
    },
  }

  /** The link as the user follows it, after whatever happened to it first. */
  async function linkToFollow(): Promise<string> {
    const link = new URL(links.at(-1)!)
    switch (invalid) {
      case "no token":
        link.searchParams.delete("token")
        break
      case "another address":
        link.searchParams.set("email", "eve@example.test")
        break
      case "expired":
        vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 })
        break
      case "used already": {
        const used = await send(config, new CookieJar(), link.href)
        expect(used.headers.get("location")).toBe(`${origin}/dashboard`)
        signInEvents.length = 0
        userEvents.length = 0
        break
      }
    }
    return link.href
  }

  return { config, memory, world, existingUser, invalid, persistFailure, sessionFailure, signInEvents, userEvents, linkToFollow }
}

const recorder = new TransitionRecorder(emailVerificationMachine)
const paths = modelPaths(emailVerificationMachine, events)

describe("email verification machine, driven through Auth()", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set(["signedIn", "verificationFailed", "accessDenied", "redirected", "persistFailed", "sessionFailed"]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = scenario(path.events)
      const { logger, errors } = recordingLogger()
      if (s.existingUser) await s.memory.createUser({ id: "", email: ada, emailVerified: null, name: "Ada" })

      // The link is asked for in one browser…
      const askingDevice = new CookieJar()
      const csrfToken = await csrfTokenFor(s.config, askingDevice)
      const asked = await send(s.config, askingDevice, "/signin/nodemailer", { form: { csrfToken, email: ada, callbackUrl: "/dashboard" } })
      expect(asked.headers.get("location")).toBe(`${origin}/auth/verify-request?provider=nodemailer&type=email`)
      const link = await s.linkToFollow()

      // …and followed in another.
      const verifiedBefore = (await s.memory.getUserByEmail(ada))?.emailVerified ?? null
      s.world.followingLink = true
      recorder.resetVisits()
      const jar = new CookieJar()
      const response = await send({ ...s.config, logger, inspect: recorder.inspect }, jar, link)

      // The real run walked exactly the model's path.
      expect(recorder.visited).toEqual([path.states])

      expect(response.status).toBe(302)
      const location = response.headers.get("location")
      const user = await s.memory.getUserByEmail(ada)
      // What the user sees in each final state.
      switch (path.finalState) {
        case "signedIn": {
          expect(location).toBe(`${origin}/dashboard`)
          expect(jar.get(sessionCookie)).toBeTruthy()
          const session = (await (await send(s.config, jar, "/session")).json()) as { user: { email: string } }
          expect(session.user.email).toBe(ada)
          expect(user?.emailVerified).toBeInstanceOf(Date)
          expect(s.signInEvents).toEqual([{ user: expect.objectContaining({ email: ada }), isNewUser: !s.existingUser }])
          expect(s.userEvents).toEqual([s.existingUser ? "updateUser" : "createUser"])
          break
        }
        case "verificationFailed":
          if (s.invalid === "token store down") {
            // A failing database is the server's problem, not an invalid link.
            expect(location).toBe(`${origin}/auth/error?error=Configuration`)
            expect(errors.map((error) => error.name)).toContain("AdapterError")
          } else {
            expect(location).toBe(`${origin}/auth/error?error=Verification`)
            const page = await send(s.config, jar, "/error?error=Verification")
            expect(page.status).toBe(403)
            expect(await page.text()).toContain("The sign in link is no longer valid.")
          }
          break
        case "accessDenied":
          expect(location).toBe(`${origin}/auth/error?error=AccessDenied`)
          break
        case "redirected":
          expect(location).toBe(`${origin}/welcome`)
          break
        case "persistFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errors.map((error) => error.name)).toContain("AdapterError")
          if (!s.existingUser) expect(user).toBeNull()
          else expect(user?.emailVerified).toBeNull()
          break
        case "sessionFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errors.map((error) => error.name)).toContain(s.sessionFailure === "jwt callback threw" ? "CallbackRouteError" : "AdapterError")
          // The user was saved before the session failed.
          expect(user?.emailVerified).toBeInstanceOf(Date)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "signedIn") {
        expect(jar.get(sessionCookie)).toBeUndefined()
        expect(s.signInEvents).toHaveLength(0)
      }
      if (["verificationFailed", "accessDenied", "redirected", "persistFailed"].includes(path.finalState)) {
        // This request marked nobody verified.
        expect(user?.emailVerified ?? null).toEqual(verifiedBefore)
      }
    })
  }

  afterAll(() => {
    const { line, missing } = coverageReport(emailVerificationMachine, recorder)
    console.log(line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
