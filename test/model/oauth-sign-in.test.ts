import { createHash, randomBytes } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { SignJWT, exportJWK, generateKeyPair } from "jose"
import { customFetch } from "../../src/index.js"
import { oauthSignInMachine, type OAuthSignInEvent } from "../../src/machines/oauth-sign-in.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { coverageReport, modelPaths, TransitionRecorder } from "./harness.js"
import type { OIDCConfig } from "../../src/providers/oauth.js"
import type { AuthConfig, Provider } from "../../src/types.js"

// ── A stand-in OpenID Provider, reached only through the provider's `customFetch` ────────────────
// (the same in oauth-sign-in.test.ts and oauth-callback.test.ts: a test file cannot import another)

const clientId = "model-client"
const clientSecret = "model-client-secret"
const keys = await generateKeyPair("RS256")
const jwk = { ...(await exportJWK(keys.publicKey)), kid: "model-key", alg: "RS256", use: "sig" }
let issuers = 0

/** How the stand-in misbehaves, if at all. */
interface StandInFaults {
  /** `down`: discovery answers 500; `no-authorization-endpoint`: the document lacks it. */
  discovery?: "down" | "no-authorization-endpoint"
  /** `invalid_grant`: the token endpoint refuses the code. */
  token?: "invalid_grant"
}

/**
 * An OpenID Provider in memory: discovery, JWKS, an authorization step that mints codes, a token
 * endpoint that checks client authentication, the code, the redirect URI and the PKCE verifier, and
 * signs an RS256 ID token carrying the nonce of the authorization request, and userinfo. Each
 * instance has its own issuer, so the engine's discovery cache never carries one test into another.
 */
class StandInOP {
  readonly issuer = `https://op-${++issuers}.test`
  readonly subject = "op-user-1"
  readonly accessToken = `at-${randomBytes(12).toString("base64url")}`
  readonly seen: string[] = []
  readonly #grants = new Map<string, { nonce: string | null; challenge: string | null; redirectUri: string | null; used: boolean }>()

  constructor(readonly faults: StandInFaults = {}) {}

  metadata(): Record<string, unknown> {
    const metadata: Record<string, unknown> = {
      issuer: this.issuer,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      userinfo_endpoint: `${this.issuer}/userinfo`,
      jwks_uri: `${this.issuer}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
    }
    if (this.faults.discovery === "no-authorization-endpoint") delete metadata.authorization_endpoint
    return metadata
  }

  /** What the browser does at the authorization endpoint: the user consents and a code is issued. */
  authorize(authorizationUrl: URL): string {
    const q = authorizationUrl.searchParams
    const code = `code-${randomBytes(12).toString("base64url")}`
    this.#grants.set(code, { nonce: q.get("nonce"), challenge: q.get("code_challenge"), redirectUri: q.get("redirect_uri"), used: false })
    return code
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const route = `${request.method} ${url.origin}${url.pathname}`
    this.seen.push(route)
    switch (route) {
      case `GET ${this.issuer}/.well-known/openid-configuration`:
        return this.faults.discovery === "down" ? new Response("upstream unavailable", { status: 500 }) : Response.json(this.metadata())
      case `GET ${this.issuer}/jwks`:
        return Response.json({ keys: [jwk] })
      case `POST ${this.issuer}/token`:
        return this.#token(request)
      case `GET ${this.issuer}/userinfo`:
        if (request.headers.get("authorization") !== `Bearer ${this.accessToken}`) return Response.json({ error: "invalid_token" }, { status: 401 })
        return Response.json({ sub: this.subject, name: "Ada Lovelace", email: "Ada@Example.test" })
      default:
        return new Response("not found", { status: 404 })
    }
  }

  async #token(request: Request): Promise<Response> {
    const refuse = (error: string) => Response.json({ error }, { status: 400 })
    // client_secret_basic: both halves are form-encoded before base64 (RFC 6749, section 2.3.1).
    const basic = Buffer.from(request.headers.get("authorization")?.replace(/^Basic /, "") ?? "", "base64").toString().split(":").map(decodeURIComponent)
    if (basic[0] !== clientId || basic[1] !== clientSecret) return Response.json({ error: "invalid_client" }, { status: 401 })
    const form = new URLSearchParams(await request.text())
    if (this.faults.token === "invalid_grant") return refuse("invalid_grant")
    const grant = this.#grants.get(form.get("code") ?? "")
    if (!grant || grant.used || form.get("grant_type") !== "authorization_code") return refuse("invalid_grant")
    grant.used = true
    if (form.get("redirect_uri") !== grant.redirectUri) return refuse("invalid_grant")
    if (createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url") !== grant.challenge) return refuse("invalid_grant")
    const idToken = await new SignJWT({ sub: this.subject, name: "Ada Lovelace", ...(grant.nonce && { nonce: grant.nonce }) })
      .setProtectedHeader({ alg: "RS256", kid: jwk.kid, typ: "JWT" })
      .setIssuer(this.issuer)
      .setAudience(clientId)
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(keys.privateKey)
    return Response.json({ access_token: this.accessToken, token_type: "Bearer", expires_in: 3600, id_token: idToken }, { headers: { "cache-control": "no-store" } })
  }
}

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
