import { afterAll, describe, expect, it } from "vitest"
import { signOutMachine, type SignOutEvent } from "../../src/machines/sign-out.js"
import Credentials from "../../src/providers/credentials.js"
import { decode as defaultDecode } from "../../src/jwt.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { coverageReport, modelPaths, TransitionRecorder } from "./harness.js"
import type { AuthConfig } from "../../src/types.js"

const sessionCookie = "__Secure-authjs.session-token"
const events: SignOutEvent[] = [{ type: "session.endFailed", error: "decode failed" }]

function scenario(path: SignOutEvent[]) {
  const types = new Set(path.map((event) => event.type))
  const signOutEvents: unknown[] = []
  let signingOut = false
  const config: AuthConfig = {
    secret: "model-secret",
    trustHost: true,
    providers: [Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1", name: "Ada", email: "ada@example.test" }) })],
    jwt: {
      decode(params) {
        if (signingOut && types.has("session.endFailed")) throw new Error("decode failed")
        return defaultDecode(params)
      },
    },
    events: { signOut: (message) => void signOutEvents.push(message) },
  }
  return {
    config,
    signOutEvents,
    hasSession: types.has("session.found"),
    csrfValid: !types.has("csrf.invalid"),
    startSigningOut: () => void (signingOut = true),
  }
}

const recorder = new TransitionRecorder(signOutMachine)
const paths = modelPaths(signOutMachine, events)

describe("sign-out machine, driven through Auth()", () => {
  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const { config, signOutEvents, hasSession, csrfValid, startSigningOut } = scenario(path.events)
      const { logger, errors } = recordingLogger()
      const jar = new CookieJar()
      const csrfToken = await csrfTokenFor(config, jar)
      if (hasSession) {
        await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada" } })
        expect(jar.get(sessionCookie)).toBeTruthy()
      }
      recorder.resetVisits()
      startSigningOut()
      const response = await send({ ...config, logger, inspect: recorder.inspect }, jar, "/signout", {
        form: { callbackUrl: "/goodbye", ...(csrfValid && { csrfToken }) },
      })
      expect(recorder.visited).toEqual([path.states])
      expect(response.status).toBe(302)
      const location = response.headers.get("location")
      switch (path.finalState) {
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          expect(Boolean(jar.get(sessionCookie))).toBe(hasSession)
          expect(signOutEvents).toHaveLength(0)
          break
        case "signedOut":
          expect(location).toBe(`${origin}/goodbye`)
          expect(jar.get(sessionCookie)).toBeUndefined()
          if (hasSession) {
            expect(signOutEvents).toEqual([{ token: expect.objectContaining({ name: "Ada", sub: "u1" }) }])
          } else {
            expect(signOutEvents).toHaveLength(0)
          }
          expect(errors).toHaveLength(0)
          break
        case "endFailed":
          expect(location).toBe(`${origin}/goodbye`)
          expect(jar.get(sessionCookie)).toBeUndefined()
          expect(errors.map((e) => e.name)).toEqual(["SignOutError"])
          expect(signOutEvents).toHaveLength(0)
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
