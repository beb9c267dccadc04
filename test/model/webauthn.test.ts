import { afterAll, describe, expect, it, vi } from "vitest"
import type { SnapshotFrom } from "xstate"
import { webAuthnMachine, type CeremonyFindings, type WebAuthnEvent } from "../../src/machines/webauthn.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { adapterReplayStore } from "../../src/core/replay-store.js"
import Passkey from "../../src/providers/passkey.js"
import { simpleWebAuthn } from "../../src/providers/webauthn.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, csrfTokenFor, origin, recordingLogger, send } from "../helpers.js"
import { decode } from "../../src/jwt.js"
import { SoftCredential, type Bend } from "../../src/testing/authenticator.js"
import { modelPaths } from "../../src/testing/model-paths.js"
import { TransitionRecorder } from "../../src/testing/recorder.js"
import { expectFullCoverage, expectSecondFactorFinal, expectTailFinal, limiterAdmitted, limiterRepresentatives, modelClientHeaders, passkeyFinding, rateLimitOf, rateLimitOutcomes, secondFactorFindings, secondFactorInputs, secondFactorRepresentatives, secondFactorWorld, secondFactorWorldOf, signInDecisionOf, signInDecisions, splitAt, tailCallbacks, tailInputs } from "./harness.js"
import { loadMachinesPerTest } from "../machines/load-per-test.js"

// Each test drives the machine and the shared pieces it spreads in, loaded afresh (see test/machines/load-per-test.ts).
vi.mock("../../src/machines/account-linking.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("account-linking", await load()))
vi.mock("../../src/machines/sign-in-tail.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("sign-in-tail", await load()))
vi.mock("../../src/machines/rate-limit.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("rate-limit", await load()))
vi.mock("../../src/machines/csrf-check.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("csrf-check", await load()))
vi.mock("../../src/machines/webauthn.js", async (load) => (await import("../machines/load-per-test.js")).perTestExports("webauthn", await load()))
loadMachinesPerTest("account-linking", "sign-in-tail", "rate-limit", "csrf-check", "webauthn")

const ada = "ada@example.test"
const bob = "bob@example.test"
const newcomer = "new@example.test"

/** The findings of a response every check accepts; each refusal below bends one field. */
function goodFindings(ceremony: "register" | "authenticate", userId: string | undefined): CeremonyFindings {
  return {
    type: ceremony === "register" ? "webauthn.create" : "webauthn.get",
    challenge: "CHALLENGE",
    origin,
    originExpected: true,
    rpIdExpected: true,
    userPresent: true,
    userVerified: true,
    userVerificationRequired: true,
    counter: ceremony === "register" ? 0 : 1,
    verified: true,
    ...(ceremony === "register" ? { credentialTaken: false, ...(userId && { signedInAs: userId }) } : { storedCounter: 0, credentialOwner: "u-ada" }),
  }
}

/** Each bent finding, and the bend of the software authenticator (or the world) that produces it. */
const bends: { name: string; findings: Partial<CeremonyFindings>; bend?: Bend; ceremony?: "register" | "authenticate" }[] = [
  { name: "type", findings: { type: "webauthn.other" }, bend: { type: "webauthn.other" } },
  { name: "challenge", findings: { challenge: "OTHER" }, bend: { challenge: "T1RIRVI" } },
  { name: "origin", findings: { originExpected: false, origin: "https://evil.test" }, bend: { origin: "https://evil.test" } },
  { name: "rpId", findings: { rpIdExpected: false }, bend: { rpId: "evil.test" } },
  { name: "up", findings: { userPresent: false }, bend: { userPresent: false } },
  { name: "uv", findings: { userVerified: false }, bend: { userVerified: false } },
  { name: "counter", findings: { storedCounter: 5, counter: 5 }, bend: { counter: 5 }, ceremony: "authenticate" },
  { name: "signature", findings: { verified: false }, bend: { badSignature: true }, ceremony: "authenticate" },
  { name: "attestation", findings: { verified: false }, bend: {}, ceremony: "register" },
  { name: "taken", findings: { credentialTaken: true }, ceremony: "register" },
  { name: "other-user", findings: { signedInAs: "u-bob" } },
]

/** Payload-carrying events: each is one way the world answers an effect, given what the flow decided so far. */
function events(snapshot: SnapshotFrom<typeof webAuthnMachine>): WebAuthnEvent[] {
  const { requested, flow, user } = snapshot.context
  const list: WebAuthnEvent[] = [
    { type: "options.requested", action: "register" },
    { type: "options.requested", action: "authenticate" },
    { type: "options.requested", action: "delete" },
    { type: "options.requested" },
    ...rateLimitOutcomes,
  ]
  if (requested === "authenticate") list.push({ type: "user.found", signedIn: false, exists: false })
  if (requested === "register") {
    list.push(
      { type: "user.found", signedIn: false, exists: false, user: { email: newcomer } },
      { type: "user.found", signedIn: true, exists: true, user: { id: "u-ada", email: ada } },
      { type: "user.found", signedIn: false, exists: true, user: { id: "u-ada", email: ada } },
    )
  }
  if (requested === undefined && !flow) {
    list.push(
      { type: "user.found", signedIn: true, exists: true, user: { id: "u-ada", email: ada } },
      { type: "user.found", signedIn: false, exists: false, user: { email: newcomer } },
      { type: "user.found", signedIn: false, exists: true, user: { id: "u-ada", email: ada } },
      { type: "user.found", signedIn: false, exists: false },
      { type: "lookup.failed", error: new Error("user store down") },
    )
  }
  list.push({ type: "options.ready", challenge: "CHALLENGE", options: { challenge: "CHALLENGE" }, issued: true })
  if (requested === "authenticate" || (requested === "register" && user?.id === undefined)) list.push({ type: "options.failed", error: new Error("library down") })
  if (flow) {
    const other = flow.ceremony === "register" ? "authenticate" : "register"
    list.push(
      // The answer arrives with the tail's policy: both session strategies, pages.newUser set, second factors off and on.
      ...[...tailInputs, ...secondFactorInputs].map(({ policy }) => ({ type: "ceremony.received" as const, action: flow.ceremony, policy })),
      { type: "ceremony.received", action: other, policy: tailInputs[0]!.policy },
      { type: "challenge.replayed" },
      { type: "challenge.failed", error: new Error("replay store down") },
      { type: "response.malformed", error: new Error("unreadable") },
    )
    if (flow.ceremony === "authenticate") list.push({ type: "credential.unknown", error: new Error("no authenticator") })
    const good = goodFindings(flow.ceremony, flow.user?.id)
    list.push({ type: "response.checked", findings: good })
    for (const bent of bends) if (!bent.ceremony || bent.ceremony === flow.ceremony) list.push({ type: "response.checked", findings: { ...good, ...bent.findings } })
    if (flow.ceremony === "authenticate") list.push({ type: "counter.failed", error: new Error("updateAuthenticatorCounter failed") })
    list.push(
      ...signInDecisions,
      passkeyFinding,
      ...secondFactorFindings(),
      { type: "user.persisted", isNewUser: flow.user?.id === undefined, user: { id: flow.user?.id ?? "u-new", email: flow.user?.email ?? newcomer, emailVerified: null }, account: { provider: "passkey", providerAccountId: "cred", type: "webauthn", userId: flow.user?.id ?? "u-new" } },
      { type: "persist.failed", error: new Error("createAuthenticator failed") },
      { type: "registration.undone" },
      { type: "undo.failed", error: new Error("the undo failed") },
      { type: "session.failed", error: new Error("createSession failed") },
      { type: "encode.failed", error: new Error("jwt callback threw") },
    )
  }
  return list
}

const recorder = new TransitionRecorder([webAuthnMachine])
/** The way in to the second-factor check: Ada signs in with her passkey, in a browser signed in as nobody, the limiter admitting. */
const adaSignsIn = (events: readonly { type: string }[]) =>
  events.some((event) => event.type === "options.requested" && (event as { action?: string }).action === "authenticate") &&
  !events.some((event) => event.type === "user.found" && "signedIn" in event && event.signedIn === true) &&
  limiterAdmitted(events)
const paths = limiterRepresentatives(
  secondFactorRepresentatives(modelPaths(webAuthnMachine, events), { acceptable: adaSignsIn, policy: (path) => find(path.events as WebAuthnEvent[], "ceremony.received")?.policy }),
)

function find<T extends WebAuthnEvent["type"]>(path: WebAuthnEvent[], type: T) {
  return path.find((event) => event.type === type) as Extract<WebAuthnEvent, { type: T }> | undefined
}

/** Which bent finding a path's `response.checked` carries (undefined: none bent). */
function bentOf(path: WebAuthnEvent[], ceremony: "register" | "authenticate", userId: string | undefined) {
  const checked = find(path, "response.checked")
  if (!checked) return undefined
  const good = goodFindings(ceremony, userId)
  return bends.find((bent) => (!bent.ceremony || bent.ceremony === ceremony) && Object.entries(bent.findings).every(([key, value]) => checked.findings[key as keyof CeremonyFindings] === value && good[key as keyof CeremonyFindings] !== value))
}

describe("WebAuthn machine, driven through Auth()", () => {
  it("the model yields a path to every final state", () => {
    const finals = new Set(paths.map((path) => path.finalState))
    for (const state of Object.keys(webAuthnMachine.root.states)) {
      if (webAuthnMachine.root.states[state]!.type === "final") expect(finals, state).toContain(state)
    }
  })

  paths.forEach((path, index) => {
    it(`${path.description} ⇒ ${path.finalState}`, async () => {
      const requested = find(path.events, "options.requested")!
      const found = find(path.events, "user.found")
      const ready = find(path.events, "options.ready")
      const received = find(path.events, "ceremony.received")
      const ceremony = path.states.includes("preparingRegistration") ? "register" : "authenticate"
      const addingAuthenticator = found?.signedIn === true && ceremony === "register"
      const bent = bentOf(path.events, ceremony, addingAuthenticator ? "u-ada" : undefined)
      const failure = (type: WebAuthnEvent["type"]) => path.events.some((event) => event.type === type)
      // The session strategy and pages.newUser the answer's policy says (the options request alone: either).
      const policy = received?.policy ?? tailInputs[index % 2]!.policy
      const strategy = policy.databaseSessions ? "database" : "jwt"
      const world = { measuring: false }

      const memory = MemoryAdapter()
      const adapter: Adapter = {
        ...memory,
        async getUserByEmail(email) {
          if (world.measuring && failure("lookup.failed")) throw new Error("user store down")
          return memory.getUserByEmail(email)
        },
        async updateAuthenticatorCounter(id, counter) {
          if (world.measuring && failure("counter.failed")) throw new Error("updateAuthenticatorCounter failed")
          return memory.updateAuthenticatorCounter(id, counter)
        },
        async createAuthenticator(authenticator) {
          if (world.measuring && failure("persist.failed")) throw new Error("createAuthenticator failed")
          return memory.createAuthenticator(authenticator)
        },
        async deleteUser(userId) {
          if (world.measuring && failure("undo.failed")) throw new Error("the undo failed")
          return memory.deleteUser(userId)
        },
        async unlinkAccount(account) {
          if (world.measuring && failure("undo.failed")) throw new Error("the undo failed")
          return memory.unlinkAccount(account)
        },
        async createSession(session) {
          if (world.measuring && failure("session.failed")) throw new Error("createSession failed")
          return memory.createSession(session)
        },
      }
      const library = {
        ...simpleWebAuthn,
        generateAuthenticationOptions: async (options: Parameters<typeof simpleWebAuthn.generateAuthenticationOptions>[0]) => {
          if (world.measuring && failure("options.failed")) throw new Error("library down")
          return simpleWebAuthn.generateAuthenticationOptions(options)
        },
        generateRegistrationOptions: async (options: Parameters<typeof simpleWebAuthn.generateRegistrationOptions>[0]) => {
          if (world.measuring && failure("options.failed")) throw new Error("library down")
          return simpleWebAuthn.generateRegistrationOptions(options)
        },
        verifyRegistrationResponse: async (options: Parameters<typeof simpleWebAuthn.verifyRegistrationResponse>[0]) => {
          // The one refusal no software-authenticator bend reaches: the library rejects an attestation the named checks accept.
          if (world.measuring && bent?.name === "attestation") return { verified: false }
          return simpleWebAuthn.verifyRegistrationResponse(options)
        },
      }
      const { logger, errors } = recordingLogger()
      const store = adapterReplayStore(adapter)
      const config: AuthConfig = {
        secret: "model-secret",
        trustHost: true,
        adapter,
        replayStore: {
          markUsed(key, expiresAt) {
            if (world.measuring && failure("challenge.failed")) throw new Error("replay store down")
            return store.markUsed(key, expiresAt)
          },
        },
        session: { strategy },
        ...(policy.newUserPage && { pages: { newUser: "/welcome-aboard" } }),
        providers: [Passkey({ simpleWebAuthn: library })],
        experimental: { enableWebAuthn: true },
        logger,
        callbacks: {
          signIn: () => (world.measuring ? signInDecisionOf(path.events) : true),
          ...tailCallbacks(path.events, () => world.measuring && failure("encode.failed")),
        },
      }

      const jar = new CookieJar()
      // The world before the flow: Ada and Bob have passkeys.
      const options = async (jar: CookieJar, query: Record<string, string>) => (await (await send(config, jar, `/webauthn-options/passkey?${new URLSearchParams(query)}`)).json()) as { action: string; options: never }
      const post = async (jar: CookieJar, action: string, data: unknown, withCsrf = true) =>
        send(config, jar, "/callback/passkey", { form: { action, data: typeof data === "string" ? data : JSON.stringify(data), ...(withCsrf && { csrfToken: await csrfTokenFor(config, jar) }), callbackUrl: `${origin}/dashboard` } })
      const adaKey = new SoftCredential("app.test")
      const bobKey = new SoftCredential("app.test")
      for (const [email, key] of [[ada, adaKey], [bob, bobKey]] as const) {
        const jar = new CookieJar()
        await post(jar, "register", key.register((await options(jar, { action: "register", email })).options, origin))
      }
      const adaId = (await memory.getUserByEmail(ada))!.id
      // Second factors, once Ada and Bob have their passkeys: Ada's factors as the path finds them. A passkey counts as both
      // factors unless the configuration says otherwise, which it says for every other answer.
      const secondFactor = secondFactorWorldOf(path.events)
      if (policy.secondFactor) {
        const built = await secondFactorWorld(secondFactor, adapter, { userId: adaId, secret: "model-secret", base: { passkeyCountsAsTwoFactors: secondFactor === "passkey" }, failing: () => world.measuring })
        config.secondFactor = built.secondFactor
        config.adapter = built.adapter
        for (const [name, value] of built.cookies) jar.cookies.set(name, value)
      }
      const signIn = async (jar: CookieJar, key: SoftCredential) => post(jar, "authenticate", key.authenticate((await options(jar, { action: "authenticate" })).options, origin))

      if (found?.signedIn) await signIn(jar, adaKey)
      if (bent?.name === "counter") await memory.updateAuthenticatorCounter(Buffer.from(adaKey.id).toString("base64"), 5)

      // Request 1: the options.
      const query: Record<string, string> = {}
      if (requested.action) query.action = requested.action
      if (found?.user?.email && !found.signedIn) query.email = found.user.email
      if (failure("lookup.failed")) query.email = ada
      // Each request meets its own limiter outcome: the options request's, then the answer's.
      const [optionsEvents, answerEvents] = splitAt(path.events, "ceremony.received")
      world.measuring = true
      recorder.reset()
      const first = await send({ ...config, inspect: recorder.inspect, ...rateLimitOf(optionsEvents, "webauthn") }, jar, `/webauthn-options/passkey?${new URLSearchParams(query)}`, { headers: modelClientHeaders })
      world.measuring = false
      const firstVisits = recorder.runs.flatMap((run) => run.states)

      if (!received) {
        expect(firstVisits).toEqual(path.states)
        switch (path.finalState) {
          case "invalidAction":
            expect([first.status, await first.json()]).toEqual([400, { error: "Invalid action" }])
            break
          case "invalidRequest":
            expect([first.status, await first.json()]).toEqual([400, { error: "Invalid request" }])
            break
          case "optionsFailed":
            expect(first.headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`)
            break
          case "rateLimited":
            expect(first.status).toBe(429)
            expect(Number(first.headers.get("retry-after"))).toBeGreaterThan(0)
            expect(await first.json()).toEqual({ message: expect.stringMatching(/^Too many requests/) })
            break
          default:
            throw new Error(`no expectation for ${path.finalState}`)
        }
        return
      }
      expect(ready).toBeDefined()
      const body = (await first.json()) as { action: string; options: never }
      expect(body.action).toBe(ceremony)
      // Only the flow (ceremony, challenge, the user registering) is sealed: not the options answered, nor anything else the request found.
      const challengeCookie = "__Secure-authjs.challenge"
      const sealed = (await decode({ token: jar.cookies.get(challengeCookie)!, secret: "model-secret", salt: challengeCookie })) as unknown as { s: { context: Record<string, unknown> } }
      expect(Object.keys(sealed.s.context)).toEqual(["flow"])

      // What the browser answers.
      const key = ceremony === "register" ? (bent?.name === "taken" ? bobKey : new SoftCredential("app.test")) : failure("credential.unknown") ? new SoftCredential("app.test") : adaKey
      const bend = bent?.bend ?? {}
      let data: unknown = ceremony === "register" ? key.register(body.options, origin, bend) : key.authenticate(body.options, origin, bend)
      if (failure("response.malformed")) data = "{not json"
      const postedAction = received.action!
      if (failure("challenge.replayed")) {
        const saved = new Map(jar.cookies)
        await post(jar, postedAction, data)
        jar.cookies.clear()
        for (const [name, value] of saved) jar.cookies.set(name, value)
      }
      if (bent?.name === "other-user") {
        // Between the two requests, the browser signs in as Bob (its challenge cookies kept).
        const saved = [...jar.cookies].filter(([name]) => name.includes("challenge") || name.includes("binding"))
        for (const name of [...jar.cookies.keys()]) if (name.includes("session-token")) jar.cookies.delete(name)
        await signIn(jar, bobKey)
        for (const [name, value] of saved) jar.cookies.set(name, value)
      }

      // Request 2: the answer.
      world.measuring = true
      recorder.reset()
      const second = await send({ ...config, inspect: recorder.inspect, ...rateLimitOf(answerEvents, "webauthn") }, jar, "/callback/passkey", {
        headers: modelClientHeaders,
        form: {
          action: postedAction,
          data: typeof data === "string" ? data : JSON.stringify(data),
          ...(!failure("csrf.invalid") && { csrfToken: await csrfTokenFor(config, jar) }),
          callbackUrl: `${origin}/dashboard`,
        },
      })
      world.measuring = false
      expect([...firstVisits, ...recorder.runs.flatMap((run) => run.states).slice(1)]).toEqual(path.states)

      const location = second.headers.get("location")
      const session = (await (await send(config, jar, "/session")).json()) as { user?: { email?: string } } | null
      const lastError = errors.at(-1) as (Error & { cause?: { check?: string } }) | undefined
      if (!expectTailFinal(path.finalState, location)) switch (path.finalState) {
        case "signedIn":
        case "signedInNewUser": {
          // A user the registration created goes to pages.newUser first.
          const createdUser = ceremony === "register" && !addingAuthenticator
          expect(path.finalState === "signedInNewUser").toBe(createdUser)
          expect(location).toBe(createdUser ? `/welcome-aboard?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}` : `${origin}/dashboard`)
          const email = ceremony === "register" ? (addingAuthenticator ? ada : newcomer) : ada
          expect(session?.user?.email).toBe(email)
          if (ceremony === "register") {
            const owner = (await memory.getUserByEmail(email))!
            expect((await memory.listAuthenticatorsByUserId(owner.id)).length).toBe(addingAuthenticator ? 2 : 1)
            if (addingAuthenticator) expect(owner.id).toBe(adaId)
          }
          break
        }
        case "csrfRejected":
          expect(location).toBe(`${origin}/auth/signin?error=MissingCSRF`)
          break
        case "accountNotLinked":
          expect(location).toBe(`${origin}/auth/signin?error=AccountNotLinked`)
          break
        case "persistFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          // A registration's writes were undone first (unless the undo failed too: logged).
          expect(path.states.includes("undoingRegistration")).toBe(failure("persist.failed"))
          if (!failure("persist.failed")) break
          if (failure("undo.failed")) {
            expect(errors.filter((error) => error.name === "AdapterError")).toHaveLength(2)
          } else {
            // Nobody was created for the failed registration, and Ada kept only the passkey she had.
            expect(await memory.getUserByEmail(newcomer)).toBeNull()
            const adaNow = await memory.getUserByEmail(ada)
            if (adaNow) expect(await memory.getUserByAccount({ provider: "passkey", providerAccountId: String((data as { id?: string } | undefined)?.id ?? "") })).toBeNull()
          }
          break
        case "sessionFailed":
          expect(location).toBe(`${origin}/auth/error?error=Configuration`)
          // A failing factor store is logged as the adapter's error.
          if (secondFactor === "failing") expect(lastError?.name).toBe("AdapterError")
          break
        case "secondFactorRequired":
        case "secondFactorUnavailable":
          expectSecondFactorFinal(path.finalState, secondFactor, second, jar, origin)
          expect(session).toBeNull()
          break
        case "rateLimited":
          expect(location).toMatch(new RegExp(`^${origin}/auth/signin\\?error=RateLimited&retryAfter=[1-9]\\d*$`))
          expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0)
          break
        default:
          // Every verification refusal: the same page, its own state and cause.
          expect(location).toBe(`${origin}/auth/error?error=WebAuthnVerificationError`)
          expect(lastError?.name).toBe("WebAuthnVerificationError")
      }
      const signedInBefore = bent?.name === "other-user" || found?.signedIn || failure("challenge.replayed")
      const signedIn = path.finalState === "signedIn" || path.finalState === "signedInNewUser"
      if (!signedIn && !signedInBefore) expect(session).toBeNull()
      if (!signedIn && path.finalState !== "sessionFailed" && ceremony === "register" && !addingAuthenticator && !failure("challenge.replayed") && !failure("undo.failed")) {
        // A refused registration leaves no user behind (unless undoing it failed too: a second fault).
        expect(await memory.getUserByEmail(newcomer)).toBeNull()
      }
      // The challenge cookies are cleared whatever happened.
      expect([...jar.cookies.keys()].filter((name) => name.includes("challenge") || name.includes("binding.webauthn"))).toEqual([])
    })
  })

  afterAll(() => expectFullCoverage("webauthn", webAuthnMachine, recorder, paths.length))
})
