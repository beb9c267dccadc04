import { afterAll, describe, expect, it, vi } from "vitest"
import { credentialsSignInMachine, type CredentialsSignInEvent } from "../../src/machines/credentials-sign-in.js"
import { CredentialsSignin, type AuthError } from "../../src/errors.js"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { expectSecondFactorFinal, FlowEndings, modelClientHeaders, policyOf, rateLimitOf, rateLimitOutcomes, secondFactorFindings, secondFactorInputs, secondFactorRepresentatives, secondFactorWorldOf, signInDecisionOf, signInDecisions, tailCallbacks, tailInputs, expectFullCoverage, expectTailFinal, faultyAdapter, inSecondFactorWorld } from "./harness.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { SignInTailPolicy } from "../../src/machines/sign-in-tail.js"
import type { AuthConfig, User } from "../../src/types.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/credentials-sign-in.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("credentials-sign-in", await load()))
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
loadMachinesPerTest("sign-in-tail", "rate-limit", "csrf-check", "credentials-sign-in")

class InvalidLogin extends CredentialsSignin {
  override code = "invalid_login"
}

const ada: User = { id: "u1", name: "Ada Lovelace", email: "ada@example.test" }

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: CredentialsSignInEvent[] = [
  { type: "credentials.read", identifier: "ada", nonString: [] },
  { type: "credentials.read", nonString: [] },
  { type: "credentials.read", nonString: ["username"] },
  ...rateLimitOutcomes,
  { type: "authorize.returned", user: ada },
  { type: "authorize.returned", user: null },
  { type: "authorize.threw", error: new InvalidLogin() },
  { type: "authorize.threw", error: new Error("database down") },
  ...signInDecisions,
  ...secondFactorFindings(),
  { type: "session.failed", error: "createSession threw" },
  { type: "encode.failed", error: "jwt callback threw" },
]

const byTypeOf = (path: CredentialsSignInEvent[]) => new Map(path.map((event) => [event.type, event]))

/** The real configuration and request that make the engine meet exactly these events. */
function scenario(path: CredentialsSignInEvent[], policy: SignInTailPolicy) {
  const byType = new Map(path.map((event) => [event.type, event]))
  const signInEvents: unknown[] = []
  const memory = MemoryAdapter()
  // Database sessions are rows of users the database knows: the user authorize returns is stored.
  void memory.createUser({ id: "u1", name: ada.name, email: ada.email!, emailVerified: null })
  const config: AuthConfig = {
    secret: "model-secret",
    trustHost: true,
    ...rateLimitOf(path, "credentials"),
    // Second factors are stored: with them on, the adapter is there for either strategy.
    ...((policy.databaseSessions || policy.secondFactor) && {
      session: { strategy: policy.databaseSessions ? ("database" as const) : ("jwt" as const) },
      adapter: faultyAdapter(memory, { createSession: byType.has("session.failed") && new Error("createSession threw") }),
    }),
    ...(policy.newUserPage && { pages: { newUser: "/auth/new-user" } }),
    providers: [
      Credentials({
        credentials: { username: { label: "Username" } },
        async authorize() {
          const returned = byType.get("authorize.returned")
          if (returned?.type === "authorize.returned") return returned.user && { ...returned.user }
          const threw = byType.get("authorize.threw")
          if (threw && "error" in threw) throw threw.error instanceof InvalidLogin ? new InvalidLogin() : new Error("database down")
          throw new Error("the path reaches no authorize outcome")
        },
      }),
    ],
    callbacks: {
      signIn() {
        return signInDecisionOf(path)
      },
      ...tailCallbacks(path, () => byType.has("encode.failed")),
    },
    events: { signIn: (message) => void signInEvents.push(message) },
  }
  const threw = byType.get("authorize.threw")
  const read = byType.get("credentials.read") as Extract<CredentialsSignInEvent, { type: "credentials.read" }> | undefined
  // The credentials as the request carries them: the username, none, or one that is not a string (only JSON can send that).
  const username = read?.nonString.length ? { json: ["ada"] } : read?.identifier === undefined ? {} : { form: "ada" }
  return { config, csrfValid: !byType.has("csrf.invalid"), signInEvents, rejectedWithCode: threw && "error" in threw && threw.error instanceof InvalidLogin, username }
}

/** A request whose identity cannot be read walks on as one that names it: one such path is driven, the one the model generated first. */
function oneUnreadIdentityPath<TPath extends { events: readonly CredentialsSignInEvent[] }>(paths: readonly TPath[]): TPath[] {
  let kept = false
  return paths.filter((path) => {
    const unread = path.events.some((event) => event.type === "credentials.read" && event.identifier === undefined && event.nonString.length === 0)
    if (!unread) return true
    if (kept) return false
    kept = true
    return true
  })
}

const recorder = new TransitionRecorder([credentialsSignInMachine])
const endings = new FlowEndings(recorder, "credentials-sign-in")
const paths = secondFactorRepresentatives(oneUnreadIdentityPath(modelPaths(credentialsSignInMachine, events, { inputs: [...tailInputs, ...secondFactorInputs] })))


describe("credentials sign-in machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    const finals = new Set(paths.map((path) => path.finalState))
    expect(finals).toEqual(
      new Set(["signedIn", "csrfRejected", "credentialsMalformed", "credentialsRejected", "authorizeFailed", "accessDenied", "redirected", "sessionFailed", "rateLimited", "secondFactorRequired", "secondFactorUnavailable"]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const { config: firstFactorConfig, csrfValid, signInEvents, rejectedWithCode, username } = scenario(path.events, policyOf(path))
      const world = secondFactorWorldOf(path.events)
      const jar = new CookieJar()
      const config = policyOf(path).secondFactor ? await inSecondFactorWorld(firstFactorConfig, world, jar, { userId: ada.id!, secret: "model-secret" }) : firstFactorConfig
      const { logger, errors } = recordingLogger()
      endings.reset()
      const csrfToken = await csrfTokenFor({ ...config, logger }, jar)
      const fields = { callbackUrl: "/dashboard", ...(csrfValid && { csrfToken }) }
      const response = await send({ ...config, logger, inspect: endings.inspect }, jar, "/callback/credentials", {
        ...("json" in username ? { json: { ...fields, username: username.json } } : { form: { ...fields, ...(username.form !== undefined && { username: username.form }) } }),
        headers: modelClientHeaders,
      })

      // The real run walked exactly the model's path, and ended there: every way the flow ends is a final state.
      expect(recorder.runs.map((run) => run.states)).toEqual([path.states])
      expect(endings.statuses).toEqual(["done"])

      const location = response.headers.get("location")
      const sessionCookie = jar.get(cookieNames.https.sessionToken)
      expect(response.status).toBe(302)
      if (expectSecondFactorFinal(path.finalState, world, response, jar, origin)) {
        expect(signInEvents).toHaveLength(0)
        return
      }
      // What the user sees in each final state.
      if (!expectTailFinal(path.finalState, location)) switch (path.finalState) {
        case "signedIn": {
          expect(location).toBe(`${origin}/dashboard`)
          expect(sessionCookie).toBeTruthy()
          const session = await (await send(config, jar, "/session")).json()
          // A database session's user is the stored row (its image, null, included).
          expect(session.user).toEqual({ name: ada.name, email: ada.email, ...(policyOf(path).databaseSessions && { image: null }) })
          expect(signInEvents).toHaveLength(1)
          break
        }
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          break
        case "credentialsMalformed":
          expect(location).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
          expect(errors.map((e) => e.name)).toEqual(["CredentialsSignin"])
          break
        case "credentialsRejected": {
          const code = rejectedWithCode ? "invalid_login" : "credentials"
          expect(location).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=${code}`)
          break
        }
        case "authorizeFailed":
        case "sessionFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          // A failing database is logged as the adapter's error; anything else as the callback route's.
          expect(new Set(errors.map((e) => e.name).filter((name) => name !== "RateLimitStoreError"))).toEqual(new Set([byTypeOf(path.events).has("session.failed") || world === "failing" ? "AdapterError" : "CallbackRouteError"]))
          // The log names what failed: what authorize, the adapter (the session or the factor store) or the jwt callback threw.
          const thrown = path.finalState === "authorizeFailed" ? "database down" : world === "failing" ? "factor store down" : byTypeOf(path.events).has("session.failed") ? "createSession threw" : "jwt callback threw"
          expect(errors.filter((e) => e.name !== "RateLimitStoreError").map((e) => ((e as AuthError).cause?.err as Error | undefined)?.message)).toEqual([thrown])
          break
        case "rateLimited":
          expect(location).toMatch(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`))
          expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0)
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "signedIn") {
        expect(sessionCookie).toBeUndefined()
        expect(signInEvents).toHaveLength(0)
      }
    })
  }

  afterAll(() => expectFullCoverage("credentials-sign-in", credentialsSignInMachine, recorder, paths.length))
})
