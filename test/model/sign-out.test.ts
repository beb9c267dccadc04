import { afterAll, describe, expect, it, vi } from "vitest"
import { signOutMachine, type SignOutEvent, type SignOutPolicy } from "../../src/machines/sign-out.js"
import Credentials from "../../src/providers/credentials.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { decode as defaultDecode, encode } from "../../src/jwt.js"
import { databaseToken } from "../../src/core/session-lifetime.js"
import { opProvider, standInOP } from "../support/oauth-stand-in.js"
import { FlowEndings } from "./harness.js"
import type { Adapter } from "../../src/adapters.js"
import { CookieJar, cookieNames, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { coverageReport } from "../../src/testing/coverage.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import type { AuthConfig } from "../../src/types.js"
import type { AuthError } from "../../src/errors.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/sign-out.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-out", await load()))
loadMachinesPerTest("csrf-check", "sign-out")

const sessionCookie = cookieNames.https.sessionToken

const byTypeOf = (path: readonly SignOutEvent[]) => new Set(path.map((event) => event.type))

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: SignOutEvent[] = [
  { type: "session.found", strategy: "jwt" },
  { type: "session.found", strategy: "database" },
  { type: "decode.failed", error: "decode failed" },
  { type: "delete.failed", error: "session store down" },
  { type: "token.decoded" },
  { type: "token.decoded", provider: "op", idToken: "id-token-of-ada" },
  { type: "session.deleted" },
  { type: "session.deleted", provider: "op" },
  { type: "session.deleted", provider: "op", userId: "the row's user" },
  { type: "accounts.listed", idTokens: [] },
  { type: "accounts.listed", idTokens: ["id-token-of-ada"] },
  { type: "accounts.listed", idTokens: ["id-token-of-ada", "id-token-of-ada-elsewhere"] },
  { type: "accounts.failed", error: "accounts down" },
  { type: "endSession.found", url: "https://op.stand-in.test/end-session" },
  { type: "endSession.missing" },
  { type: "discovery.failed", error: "discovery down" },
]

/** The real configuration that makes the engine meet exactly these events (and the policy the engine derives from it). */
function scenario(path: SignOutEvent[], policy: SignOutPolicy) {
  const byType = new Map(path.map((event) => [event.type, event]))
  const found = byType.get("session.found")
  const database = found !== undefined && "strategy" in found && found.strategy === "database"
  const ended = (byType.get("token.decoded") ?? byType.get("session.deleted")) as { provider?: string } | undefined
  const viaProvider = ended?.provider === "op"
  // The deleted row names its user only when the adapter returns it (Auth.js's contract lets deleteSession answer nothing).
  const rowReturned = ended !== undefined && "userId" in ended
  const listed = byType.get("accounts.listed") as { idTokens: string[] } | undefined
  const op = standInOP()
  const providerLogout = opProvider(op, { endSessionAtProvider: true })
  const sessionToken = viaProvider ? databaseToken("session-1", { signedInAt: Date.now(), provider: "op" }) : "session-1"
  const signOutEvents: unknown[] = []
  const world = { signingOut: false }
  const memory = MemoryAdapter()
  const adapter: Adapter = {
    ...memory,
    async deleteSession(token) {
      if (world.signingOut && byType.has("delete.failed")) throw new Error("session store down")
      const row = await memory.deleteSession(token)
      return viaProvider && !rowReturned ? undefined : row
    },
    async listAccountsByUserId(userId) {
      if (world.signingOut && byType.has("accounts.failed")) throw new Error("accounts down")
      return memory.listAccountsByUserId(userId)
    },
  }
  // An adapter without listAccountsByUserId (as Auth.js's are): the engine then tells the machine it cannot list accounts.
  if (!policy.listsAccounts) delete adapter.listAccountsByUserId
  const config: AuthConfig = database
    ? {
        secret: "model-secret",
        trustHost: true,
        adapter,
        providers: [Nodemailer({ server: "smtp://127.0.0.1:1", sendVerificationRequest: () => {} }), providerLogout],
      }
    : {
        secret: "model-secret",
        trustHost: true,
        providers: [Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1", name: "Ada", email: "ada@example.test" }) }), providerLogout],
        jwt: {
          decode(params) {
            if (world.signingOut && byType.has("decode.failed")) throw new Error("decode failed")
            return defaultDecode(params)
          },
        },
      }
  config.events = { signOut: (message) => void signOutEvents.push(message) }

  /** Signs Ada in the way the configuration keeps sessions. */
  async function signIn(jar: CookieJar, csrfToken: string): Promise<void> {
    if (!database && viaProvider) {
      // A session from provider `op`, which keeps its ID token for the end-session request.
      const token = { name: "Ada", email: "ada@example.test", sub: "u1", authflow: { signedInAt: Date.now(), provider: "op", idToken: "id-token-of-ada" } }
      jar.cookies.set(sessionCookie, await encode({ token, secret: "model-secret", salt: sessionCookie }))
      return
    }
    if (!database) {
      await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada" } })
      return
    }
    const user = await memory.createUser({ id: "", name: "Ada", email: "ada@example.test", emailVerified: null })
    // Ada's accounts at provider `op`: one per ID token the path's account listing finds, or one holding none.
    const idTokens = listed?.idTokens.length ? listed.idTokens : [undefined]
    for (const [index, id_token] of idTokens.entries()) {
      await memory.linkAccount({ userId: user.id, type: "oidc", provider: "op", providerAccountId: `ada-${index}`, ...(id_token && { id_token }) })
    }
    await memory.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 60_000) })
    jar.cookies.set(sessionCookie, sessionToken)
  }

  return {
    config,
    memory,
    database,
    signOutEvents,
    signIn,
    hasSession: found !== undefined,
    csrfValid: !byType.has("csrf.invalid"),
    sessionToken,
    /** The id_token_hint the path's world makes possible: the JWT's, or the one account's at the provider. */
    idTokenHint: database ? (listed?.idTokens.length === 1 ? listed.idTokens[0]! : null) : "id-token-of-ada",
    accountsFailed: byType.has("accounts.failed"),
    startSigningOut: () => {
      world.signingOut = true
      if (byType.has("endSession.missing")) op.faults.discovery = "no-end-session-endpoint"
      if (byType.has("discovery.failed")) op.faults.discovery = "down"
    },
  }
}

const recorder = new TransitionRecorder([signOutMachine])
const endings = new FlowEndings(recorder, "sign-out")
// Every scenario configures provider `op` with `endSessionAtProvider`, as the engine then tells the
// machine; the adapter lists a user's accounts (authflow's adapters) or cannot (Auth.js's).
const policies: SignOutPolicy[] = [
  { providersEndingSession: ["op"], listsAccounts: true },
  { providersEndingSession: ["op"], listsAccounts: false },
]
const paths = modelPaths(signOutMachine, events, { inputs: policies.map((policy) => ({ policy })) })

describe("sign-out machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["signedOut", "signedOutAtProvider", "signedOutLocally", "endFailed", "csrfRejected"]))
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = scenario(path.events, (path.input as { policy: SignOutPolicy }).policy)
      const recording = recordingLogger()
      const { errors, warnings } = recording
      // What the engine logs for debugging (why the provider's session was not ended) is read too.
      const debugged: unknown[] = []
      const logger = { ...recording.logger, debug: (_message: string, metadata?: unknown) => void debugged.push(metadata) }
      const jar = new CookieJar()
      const csrfToken = await csrfTokenFor(s.config, jar)
      if (s.hasSession) {
        await s.signIn(jar, csrfToken)
        expect(jar.get(sessionCookie)).toBeTruthy()
      }
      endings.reset()
      s.startSigningOut()
      const response = await send({ ...s.config, logger, inspect: endings.inspect }, jar, "/signout", {
        form: { callbackUrl: "/goodbye", ...(s.csrfValid && { csrfToken }) },
      })
      // The real run walked exactly the model's path, and ended there: every way the flow ends is a final state.
      expect(recorder.runs.map((run) => run.states)).toEqual([path.states])
      expect(endings.statuses).toEqual(["done"])
      expect(response.status).toBe(302)
      const location = response.headers.get("location")
      const row = await s.memory.getSessionAndUser(s.sessionToken)
      switch (path.finalState) {
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          expect(Boolean(jar.get(sessionCookie))).toBe(s.hasSession)
          expect(s.signOutEvents).toHaveLength(0)
          break
        case "signedOut":
          expect(location).toBe(`${origin}/goodbye`)
          expect(jar.get(sessionCookie)).toBeUndefined()
          if (!s.hasSession) expect(s.signOutEvents).toHaveLength(0)
          else if (s.database) {
            expect(s.signOutEvents).toEqual([{ session: expect.objectContaining({ sessionToken: s.sessionToken }) }])
            expect(row).toBeNull()
          } else expect(s.signOutEvents).toEqual([{ token: expect.objectContaining({ name: "Ada", sub: "u1" }) }])
          expect(errors).toHaveLength(0)
          break
        case "signedOutAtProvider": {
          const endSession = new URL(location!)
          expect(`${endSession.origin}${endSession.pathname}`).toBe("https://op.stand-in.test/end-session")
          expect(endSession.searchParams.get("post_logout_redirect_uri")).toBe(`${origin}/goodbye`)
          expect(endSession.searchParams.get("client_id")).toBe("model-client")
          expect(endSession.searchParams.get("id_token_hint")).toBe(s.idTokenHint)
          expect(jar.get(sessionCookie)).toBeUndefined()
          expect(s.signOutEvents).toHaveLength(1)
          if (s.database) expect(row).toBeNull()
          // A failed read of the accounts is the adapter's error, logged where it happened; the sign-out goes on without the hint.
          expect(errors.map((e) => e.name)).toEqual(s.accountsFailed ? ["AdapterError"] : [])
          break
        }
        case "signedOutLocally":
          // The provider has no end-session endpoint, or its metadata cannot be read: a local sign-out, and a warning.
          expect(location).toBe(`${origin}/goodbye`)
          expect(jar.get(sessionCookie)).toBeUndefined()
          expect(s.signOutEvents).toHaveLength(1)
          expect(warnings).toContain("provider-logout-unavailable")
          expect(debugged).toContainEqual(byTypeOf(path.events).has("discovery.failed") ? { provider: "op", error: expect.stringMatching(/^\w*Error: /) } : { provider: "op" })
          break
        case "endFailed":
          // The session could not be ended on the server: it is logged, and the browser forgets it anyway.
          expect(location).toBe(`${origin}/goodbye`)
          expect(jar.get(sessionCookie)).toBeUndefined()
          // …with what failed as its cause.
          expect(errors.filter((e) => e.name === "SignOutError").map((e) => ((e as AuthError).cause?.err as Error | undefined)?.message)).toEqual([
            byTypeOf(path.events).has("decode.failed") ? "decode failed" : "session store down",
          ])
          expect(s.signOutEvents).toHaveLength(0)
          if (s.database) expect(row).not.toBeNull()
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
    })
  }

  afterAll(() => {
    const { line, missing } = coverageReport(signOutMachine, recorder)
    console.log(line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
