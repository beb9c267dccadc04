import { afterAll, describe, expect, it } from "vitest"
import { customFetch } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { oauthCallbackMachine, type OAuthCallbackEvent } from "../../src/machines/oauth-callback.js"
import { oauthSignInMachine } from "../../src/machines/oauth-sign-in.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { coverageReport, modelPaths, TransitionRecorder, signInDecisionOf } from "./harness.js"
import { StandInOP, clientId, clientSecret } from "./oauth-stand-in.js"
import type { OIDCConfig } from "../../src/providers/oauth.js"
import type { AuthConfig, Provider } from "../../src/types.js"
import type { InspectionEvent } from "xstate"

// ── The model ─────────────────────────────────────────────────────────────────────────────────────

const flowCookie = "__Secure-authflow.flow"
const sessionCookie = "__Secure-authjs.session-token"
const flowCookieBudget = 1200
const sealedSizes: number[] = []
const ada = { name: "Ada Lovelace", email: "ada@example.test" }

/** Payload-carrying events: each is one way the real world can answer an effect. */
const events: OAuthCallbackEvent[] = [
  { type: "response.providerError", error: "access_denied" },
  { type: "response.invalid", error: "state mismatch" },
  { type: "tokens.invalid", error: "invalid_grant" },
  { type: "profile.failed", error: "profile() threw" },
  { type: "lookup.failed", error: "getUserByAccount threw" },
  { type: "signIn.denied" },
  { type: "signIn.denied", error: "the signIn callback threw" },
  { type: "signIn.redirect", url: "/welcome" },
  { type: "user.persisted", isNewUser: true },
  { type: "user.persisted", isNewUser: false },
  { type: "account.notLinked", error: "the email belongs to another user" },
  { type: "persist.failed", error: "linkAccount threw" },
  { type: "session.failed", error: "the jwt callback threw" },
]

/** The real configuration, database and provider answer that make the engine meet exactly these events. */
async function scenario(path: OAuthCallbackEvent[]) {
  const byType = new Map(path.map((event) => [event.type, event]))
  const has = (type: OAuthCallbackEvent["type"]) => byType.has(type)
  const op = new StandInOP(has("tokens.invalid") ? { token: "invalid_grant" } : {})
  const memory = MemoryAdapter()
  const adapter = {
    ...memory,
    async getUserByAccount(account: Parameters<typeof memory.getUserByAccount>[0]) {
      if (has("lookup.failed")) throw new Error("database unreachable")
      return memory.getUserByAccount(account)
    },
    async linkAccount(account: Parameters<typeof memory.linkAccount>[0]) {
      if (has("persist.failed")) throw new Error("database unreachable")
      return memory.linkAccount(account)
    },
  }
  // A returning user: already linked to this provider account.
  const returning = byType.get("user.persisted")
  if (returning && "isNewUser" in returning && !returning.isNewUser) {
    const user = await memory.createUser({ id: "", ...ada, emailVerified: null })
    await memory.linkAccount({ userId: user.id, type: "oidc", provider: "op", providerAccountId: op.subject })
  }
  // Someone else already signed up with this email, through another provider.
  if (has("account.notLinked")) await memory.createUser({ id: "", ...ada, emailVerified: null })

  const provider: OIDCConfig = {
    id: "op",
    name: "Stand-in OP",
    type: "oidc",
    issuer: op.issuer,
    clientId,
    clientSecret,
    [customFetch]: op.fetch,
    profile(profile) {
      if (has("profile.failed")) throw new Error("unexpected profile shape")
      return { id: String(profile.sub), name: profile.name as string, email: profile.email as string }
    },
  }
  const signInEvents: { isNewUser?: boolean }[] = []
  const config: AuthConfig = {
    secret: "model-secret",
    trustHost: true,
    providers: [provider as unknown as Provider],
    adapter,
    // The jwt callback is where a JWT session can fail; the other paths use database sessions.
    session: { strategy: has("session.failed") ? "jwt" : "database" },
    pages: { newUser: "/welcome-aboard" },
    callbacks: {
      signIn() {
        return signInDecisionOf(path)
      },
      jwt({ token }) {
        if (has("session.failed")) throw new Error("the jwt callback threw")
        return token
      },
    },
    events: { signIn: (message) => void signInEvents.push(message) },
  }

  /** The provider's redirect back to the app, as this path has it. */
  function redirectBack(authorizationUrl: URL): URLSearchParams {
    const state = authorizationUrl.searchParams.get("state")!
    if (has("response.providerError")) return new URLSearchParams({ error: "access_denied", error_description: "The user said no", state, iss: op.issuer })
    const code = op.authorize(authorizationUrl)
    return new URLSearchParams({ code, state: has("response.invalid") ? "forged-state" : state, iss: op.issuer })
  }
  return { config, op, memory, signInEvents, redirectBack, isNewUser: returning && "isNewUser" in returning ? returning.isNewUser : undefined }
}

function flowCookieCleared(response: Response): boolean {
  return response.headers.getSetCookie().some((header) => header.startsWith(`${flowCookie}=;`) && /max-age=0/i.test(header))
}

const callbackRecorder = new TransitionRecorder(oauthCallbackMachine)
const signInRecorder = new TransitionRecorder(oauthSignInMachine)
const inspect = (event: InspectionEvent) => {
  signInRecorder.inspect(event)
  callbackRecorder.inspect(event)
}
const paths = modelPaths(oauthCallbackMachine, events)
const signInStates = ["validatingInput", "discovering", "authorizing", "awaitingCallback"].map((state) => JSON.stringify(state))
const handOff = ["awaitingCallback", "handedOff"].map((state) => JSON.stringify(state))

describe("OAuth callback machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    expect(new Set(paths.map((path) => path.finalState))).toEqual(
      new Set([
        "signedIn",
        "providerRejected",
        "responseRejected",
        "tokensRejected",
        "profileFailed",
        "accessDenied",
        "redirected",
        "accountNotLinked",
        "persistFailed",
        "sessionFailed",
      ]),
    )
  })

  for (const path of paths) {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const { config, op, memory, signInEvents, redirectBack, isNewUser } = await scenario(path.events)
      const { logger, errors } = recordingLogger()
      const observed = { ...config, logger, inspect }
      const jar = new CookieJar()

      // The sign-in request: the flow waits in its sealed cookie while the user is at the provider.
      const csrfToken = await csrfTokenFor(config, jar)
      signInRecorder.resetVisits()
      const signIn = await send(observed, jar, "/signin/op", { form: { csrfToken, callbackUrl: "/dashboard" } })
      expect(signInRecorder.visited).toEqual([signInStates])
      const sealed = jar.cookies.get(flowCookie)
      expect(sealed, `sign-in answered ${signIn.headers.get("location")}`).toBeTruthy()
      sealedSizes.push(Buffer.byteLength(sealed!))
      expect(Buffer.byteLength(sealed!)).toBeLessThan(flowCookieBudget)

      // The callback request: the sign-in flow is resumed and handed over; the callback machine runs.
      signInRecorder.resetVisits()
      callbackRecorder.resetVisits()
      const response = await send(observed, jar, `${origin}/auth/callback/op?${redirectBack(new URL(signIn.headers.get("location")!))}`)
      expect(signInRecorder.visited).toEqual([handOff])
      expect(callbackRecorder.visited).toEqual([path.states])

      // Whatever happened, the flow is over: its cookie is cleared.
      expect(response.status).toBe(302)
      expect(flowCookieCleared(response)).toBe(true)
      expect(jar.get(flowCookie)).toBeUndefined()

      const location = response.headers.get("location")
      const exchanged = op.seen.includes(`POST ${op.issuer}/token`)
      const stored = await memory.getUserByEmail(ada.email)
      const linked = await memory.getUserByAccount({ provider: "op", providerAccountId: op.subject })
      const errorNames = errors.map((error) => error.name)
      switch (path.finalState) {
        case "signedIn": {
          // A new user goes to pages.newUser (as configured, relative, like Auth.js), then on to the callback URL.
          expect(location).toBe(isNewUser ? `/welcome-aboard?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}` : `${origin}/dashboard`)
          expect(jar.get(sessionCookie)).toBeTruthy()
          const session = (await (await send(config, jar, "/session")).json()) as { user?: unknown }
          expect(session.user).toMatchObject(ada)
          expect(linked).toMatchObject(ada)
          expect(signInEvents).toEqual([expect.objectContaining({ isNewUser })])
          expect(errors).toEqual([])
          break
        }
        case "providerRejected":
        case "responseRejected":
          expect(location).toBe(`${origin}/auth/signin?error=OAuthCallbackError`)
          // The code was never redeemed.
          expect(exchanged).toBe(false)
          expect(errorNames).toEqual(["OAuthCallbackError"])
          break
        case "tokensRejected":
          expect(location).toBe(`${origin}/auth/signin?error=OAuthCallbackError`)
          expect(exchanged).toBe(true)
          expect(errorNames).toEqual(["OAuthCallbackError"])
          break
        case "profileFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errorNames).toEqual(["OAuthProfileParseError"])
          break
        case "accessDenied":
          expect(location).toBe(`${origin}/auth/error?error=AccessDenied`)
          expect(errorNames).toEqual(["AccessDenied"])
          break
        case "redirected":
          expect(location).toBe(`${origin}/welcome`)
          expect(errors).toEqual([])
          break
        case "accountNotLinked":
          expect(location).toBe(`${origin}/auth/signin?error=OAuthAccountNotLinked`)
          // The existing user keeps their account, and the provider account is not linked to it.
          expect(stored).toMatchObject(ada)
          expect(linked).toBeNull()
          break
        case "persistFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          // The adapter's failure is reported as an AdapterError (logged where it happened and where it ended the request).
          expect(new Set(errorNames)).toEqual(new Set(["AdapterError"]))
          break
        case "sessionFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          expect(errorNames).toEqual(["CallbackRouteError"])
          break
        default:
          throw new Error(`no expectation for state ${path.finalState}`)
      }
      if (path.finalState !== "signedIn") {
        expect(jar.get(sessionCookie)).toBeUndefined()
        expect(signInEvents).toHaveLength(0)
      }
      // Nothing is written before the signIn callback allows it, and a failed write leaves nothing half-done.
      if (!path.events.some((event) => event.type === "signIn.allowed") || path.finalState === "persistFailed") {
        expect(linked).toBeNull()
        if (path.finalState !== "accountNotLinked") expect(stored).toBeNull()
      }
    })
  }

  afterAll(() => {
    console.log(`oauth flow cookie: max ${Math.max(0, ...sealedSizes)} bytes over ${sealedSizes.length} sealed (budget ${flowCookieBudget})`)
    const { line, missing } = coverageReport(oauthCallbackMachine, callbackRecorder)
    console.log(line)
    expect(missing, `uncovered transitions: ${missing.join(", ")}`).toEqual([])
  })
})
