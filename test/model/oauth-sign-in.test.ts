import { afterAll, describe, expect, it } from "vitest"
import { customFetch } from "../../src/index.js"
import { oauthSignInMachine, type OAuthSignInEvent } from "../../src/machines/oauth-sign-in.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { coverageReport, modelPaths, TransitionRecorder } from "./harness.js"
import { StandInOP, clientId, clientSecret } from "./oauth-stand-in.js"
import type { OIDCConfig } from "../../src/providers/oauth.js"
import type { AuthConfig, Provider } from "../../src/types.js"

// ── The model ─────────────────────────────────────────────────────────────────────────────────────

const flowCookie = "__Secure-authflow.flow"
const sessionCookie = "__Secure-authjs.session-token"
const flowCookieBudget = 1200
const sealedSizes: number[] = []

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: OAuthSignInEvent[] = [
  { type: "discovery.failed", error: "discovery answered 500" },
  { type: "authorization.failed", error: "the issuer publishes no authorization endpoint" },
  { type: "authorization.ready", checks: { codeVerifier: "…", state: "…", nonce: "…", redirectUri: `${origin}/auth/callback/op`, callbackUrl: `${origin}/dashboard` } },
]

/** The real configuration and request that make the engine meet exactly these events. */
function scenario(path: OAuthSignInEvent[]) {
  const types = new Set(path.map((event) => event.type))
  const op = new StandInOP({
    ...(types.has("discovery.failed") && { discovery: "down" as const }),
    ...(types.has("authorization.failed") && { discovery: "no-authorization-endpoint" as const }),
  })
  const provider: OIDCConfig = { id: "op", name: "Stand-in OP", type: "oidc", issuer: op.issuer, clientId, clientSecret, [customFetch]: op.fetch }
  const config: AuthConfig = { secret: "model-secret", trustHost: true, providers: [provider as unknown as Provider] }
  return { config, op, csrfValid: !types.has("csrf.invalid") }
}

/**
 * The states each request walks: a flow that reaches `awaitingCallback` is sealed there and a
 * second request (the callback) resumes it from that state.
 */
function statesPerRequest(states: string[]): string[][] {
  const waiting = states.indexOf(JSON.stringify("awaitingCallback"))
  if (waiting < 0 || waiting === states.length - 1) return [states]
  return [states.slice(0, waiting + 1), states.slice(waiting)]
}

function flowCookieCleared(response: Response): boolean {
  return response.headers.getSetCookie().some((header) => header.startsWith(`${flowCookie}=;`) && /max-age=0/i.test(header))
}

const recorder = new TransitionRecorder(oauthSignInMachine)
const paths = modelPaths(oauthSignInMachine, events)

describe("OAuth sign-in machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(new Set(["handedOff", "csrfRejected", "signInFailed"]))
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const { config, op, csrfValid } = scenario(path.events)
      const { logger, errors } = recordingLogger()
      const observed = { ...config, logger, inspect: recorder.inspect }
      recorder.resetVisits()
      const jar = new CookieJar()
      const csrfToken = await csrfTokenFor(config, jar)
      const response = await send(observed, jar, "/signin/op", { form: { callbackUrl: "/dashboard", ...(csrfValid && { csrfToken }) } })
      const location = response.headers.get("location")
      const sealed = jar.cookies.get(flowCookie)
      if (sealed !== undefined) sealedSizes.push(Buffer.byteLength(sealed))
      expect(response.status).toBe(302)

      const requests = statesPerRequest(path.states)
      if (requests.length === 1) {
        // The flow ended with the first request.
        expect(recorder.visited).toEqual(requests)
        expect(sealed).toBeUndefined()
      }

      switch (path.finalState) {
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          // Nothing reached the provider.
          expect(op.seen).toEqual([])
          break
        case "signInFailed": {
          expect(location).toBe(`${origin}/auth/signin?error=Configuration`)
          expect(errors.map((error) => error.name)).toEqual(["OAuthSignInError"])
          expect(op.seen).toEqual([`GET ${op.issuer}/.well-known/openid-configuration`])
          break
        }
        case "handedOff": {
          // First request: the user goes to the provider with PKCE, state and nonce; the flow waits in its cookie.
          expect(recorder.visited).toEqual([requests[0]])
          const authorizationUrl = new URL(location!)
          expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${op.issuer}/authorize`)
          const query = authorizationUrl.searchParams
          expect(query.get("client_id")).toBe(clientId)
          expect(query.get("redirect_uri")).toBe(`${origin}/auth/callback/op`)
          expect(query.get("code_challenge_method")).toBe("S256")
          for (const check of ["state", "nonce", "code_challenge"]) expect(query.get(check)).toMatch(/^[\w-]{32,}$/)
          expect(sealed).toBeTruthy()
          expect(Buffer.byteLength(sealed!)).toBeLessThan(flowCookieBudget)
          expect(sealed).not.toContain(query.get("state")!)

          // Second request: the callback resumes the flow from its waiting state and hands it over.
          const code = op.authorize(authorizationUrl)
          const back = new URLSearchParams({ code, state: query.get("state")!, iss: op.issuer })
          const callback = await send(observed, jar, `${origin}/auth/callback/op?${back}`)
          expect(recorder.visited).toEqual(requests)
          expect(callback.status).toBe(302)
          expect(callback.headers.get("location")).toBe(`${origin}/dashboard`)
          expect(flowCookieCleared(callback)).toBe(true)
          expect(jar.get(flowCookie)).toBeUndefined()
          expect(jar.get(sessionCookie)).toBeTruthy()
          const session = (await (await send(config, jar, "/session")).json()) as { user?: unknown }
          expect(session.user).toEqual({ name: "Ada Lovelace", email: "ada@example.test" })
          expect(errors).toEqual([])
          break
        }
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "handedOff") expect(jar.get(sessionCookie)).toBeUndefined()
    })
  }

  afterAll(() => {
    console.log(`oauth flow cookie: max ${Math.max(0, ...sealedSizes)} bytes over ${sealedSizes.length} sealed (budget ${flowCookieBudget})`)
    const { line, missing } = coverageReport(oauthSignInMachine, recorder)
    console.log(line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
