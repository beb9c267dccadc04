import { afterAll, describe, expect, it } from "vitest"
import { signOutMachine, type SignOutEvent } from "../../src/machines/sign-out.js"
import Credentials from "../../src/providers/credentials.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { decode as defaultDecode, encode } from "../../src/jwt.js"
import { databaseToken } from "../../src/core/session-lifetime.js"
import { opProvider, standInOP } from "./oauth-stand-in.js"
import type { Adapter } from "../../src/adapters.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { coverageReport } from "../../src/testing/coverage.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import type { AuthConfig } from "../../src/types.js"

const sessionCookie = "__Secure-authjs.session-token"

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
  { type: "endSession.found", url: "https://op.stand-in.test/end-session" },
  { type: "endSession.missing" },
  { type: "discovery.failed", error: "discovery down" },
]

/** The real configuration that makes the engine meet exactly these events. */
function scenario(path: SignOutEvent[]) {
  const byType = new Map(path.map((event) => [event.type, event]))
  const found = byType.get("session.found")
  const database = found !== undefined && "strategy" in found && found.strategy === "database"
  const ended = (byType.get("token.decoded") ?? byType.get("session.deleted")) as { provider?: string } | undefined
  const viaProvider = ended?.provider === "op"
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
      return memory.deleteSession(token)
    },
  }
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
    startSigningOut: () => {
      world.signingOut = true
      if (byType.has("endSession.missing")) op.faults.discovery = "no-end-session-endpoint"
      if (byType.has("discovery.failed")) op.faults.discovery = "down"
    },
  }
}

const recorder = new TransitionRecorder([signOutMachine])
// Every scenario configures provider `op` with `endSessionAtProvider`, as the engine then tells the machine.
const paths = modelPaths(signOutMachine, events, { inputs: [{ policy: { providersEndingSession: ["op"] } }] })

describe("sign-out machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["signedOut", "signedOutAtProvider", "signedOutLocally", "endFailed", "csrfRejected"]))
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const s = scenario(path.events)
      const { logger, errors, warnings } = recordingLogger()
      const jar = new CookieJar()
      const csrfToken = await csrfTokenFor(s.config, jar)
      if (s.hasSession) {
        await s.signIn(jar, csrfToken)
        expect(jar.get(sessionCookie)).toBeTruthy()
      }
      recorder.reset()
      s.startSigningOut()
      const response = await send({ ...s.config, logger, inspect: recorder.inspect }, jar, "/signout", {
        form: { callbackUrl: "/goodbye", ...(s.csrfValid && { csrfToken }) },
      })
      expect(recorder.runs.map((run) => run.states)).toEqual([path.states])
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
          expect(endSession.searchParams.get("id_token_hint")).toBe(s.database ? null : "id-token-of-ada")
          expect(jar.get(sessionCookie)).toBeUndefined()
          expect(s.signOutEvents).toHaveLength(1)
          if (s.database) expect(row).toBeNull()
          expect(errors).toHaveLength(0)
          break
        }
        case "signedOutLocally":
          // The provider has no end-session endpoint, or its metadata cannot be read: a local sign-out, and a warning.
          expect(location).toBe(`${origin}/goodbye`)
          expect(jar.get(sessionCookie)).toBeUndefined()
          expect(s.signOutEvents).toHaveLength(1)
          expect(warnings).toContain("provider-logout-unavailable")
          break
        case "endFailed":
          // The session could not be ended on the server: it is logged, and the browser forgets it anyway.
          expect(location).toBe(`${origin}/goodbye`)
          expect(jar.get(sessionCookie)).toBeUndefined()
          expect(errors.map((e) => e.name)).toContain("SignOutError")
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
