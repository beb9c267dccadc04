/**
 * WebAuthn side by side: the same passkey requests go to authflow (on @simplewebauthn/server 14) and
 * to @auth/core 0.41.3 (on the 9.x it was written for: the `simplewebauthn-server-9` alias, passed
 * through the provider's `simpleWebAuthn` option, since the npm override hands @auth/core 14.x).
 * Each side has its own memory adapter (authflow's MemoryAdapter: `createUser` gives a UUID to a
 * user without an id, as Auth.js's test memory adapter does) and its own browser; one software
 * authenticator answers both, so the credential ids on the wire are the same on both sides.
 */
import { describe, expect, it } from "vitest"
import { Duo, HTTPS, SECRET, authflow, recorder, sessionCookieName, sides, typesOf, wire, type Side, type SideName, type Wire } from "./harness.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Passkey from "../../src/providers/passkey.js"
import WebAuthn from "../../src/providers/webauthn.js"
import authjsPasskey from "@auth/core/providers/passkey"
import authjsWebAuthn from "@auth/core/providers/webauthn"
import * as simpleWebAuthn9 from "simplewebauthn-server-9"
import { SoftCredential, type AuthenticationOptionsJSON, type Bend, type RegistrationOptionsJSON } from "../../src/testing/authenticator.js"
import type { Adapter } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { cookieNames } from "../helpers.js"

const bindingCookie = `${cookieNames.https.flowBinding}.webauthn`
const challengeCookie = cookieNames.https.webauthnChallenge
const dashboard = `${HTTPS}/dashboard`
const errorUrl = (type: string) => `${HTTPS}/auth/error?error=${type}`

type Strategy = "jwt" | "database"

function setup(strategy: Strategy = "jwt") {
  const logs = { authflow: recorder(), authjs: recorder() }
  const duo = new Duo((side): AuthConfig => {
    const provider = side === authflow ? Passkey() : authjsPasskey({ simpleWebAuthn: simpleWebAuthn9 } as never)
    return {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      session: { strategy },
      experimental: { enableWebAuthn: true },
      providers: [provider as never],
      logger: logs[side.name].logger,
    }
  })
  const adapter = (side: Side) => duo.configs[side.name].adapter as Required<Adapter>
  return { duo, logs, adapter }
}

type Options = RegistrationOptionsJSON & AuthenticationOptionsJSON & { hints?: unknown }
type OptionsBody = { action: "register" | "authenticate"; options: Options }

const base64url43 = /^[\w-]{43}$/

/**
 * The options with their random parts replaced by their shape. The user handle is random on both
 * sides but shaped by the library: 32 random bytes as base64url (14.x) or 64 hex characters (9.x).
 * `hints` is new in 14.x (always `[]` here, and optional in the WebAuthn JSON the browser reads).
 */
function optionsShape(side: SideName, body: OptionsBody): unknown {
  const { options } = body
  expect(options.challenge).toMatch(base64url43)
  const shaped: Record<string, unknown> = { ...options, challenge: "<challenge>" }
  if (options.user) {
    expect(options.user.id).toMatch(side === "authflow" ? base64url43 : /^[0-9a-f]{64}$/)
    shaped.user = { ...options.user, id: "<user handle>" }
  }
  if (side === "authflow" && body.action === "register") {
    expect(options.hints).toEqual([])
    delete shaped.hints
  }
  return { action: body.action, options: shaped }
}

/** What the wire shows, without authflow's extra browser-binding cookie (see "authflow differs"). */
async function wireOf(side: SideName, response: Response): Promise<Wire> {
  const shown = await wire(response)
  if (side === "authflow") {
    expect(Object.keys(shown.cookies).filter((name) => name.includes("flow-binding"))).toEqual(
      shown.cookies[challengeCookie] ? [bindingCookie] : [],
    )
    delete shown.cookies[bindingCookie]
  }
  if (shown.body && typeof shown.body === "object" && "options" in shown.body) shown.body = optionsShape(side, (await response.clone().json()) as OptionsBody)
  // Database sessions: the session token is a random UUID on both sides.
  const session = shown.cookies[sessionCookieName()] as { value: string } | undefined
  if (session && /^[0-9a-f-]{36}$/.test(session.value)) session.value = "<uuid>"
  return shown
}

async function expectSameWebAuthnWire(responses: Record<SideName, Response>): Promise<Wire> {
  const [ours, theirs] = await Promise.all([wireOf("authflow", responses.authflow), wireOf("authjs", responses.authjs)])
  expect(ours).toEqual(theirs)
  return ours
}

/**
 * A refused callback: the same redirect. Auth.js's error redirect sets no cookie at all; authflow
 * also clears the challenge (a challenge gets one attempt) and keeps the callback-url cookie it set
 * (see "authflow differs").
 */
async function expectSameRefusal(responses: Record<SideName, Response>): Promise<Wire> {
  const [ours, theirs] = await Promise.all([wireOf("authflow", responses.authflow), wireOf("authjs", responses.authjs)])
  expect(theirs.cookies).toEqual({})
  expect(ours.cookies[challengeCookie]).toMatchObject({ value: "", attributes: { "max-age": "0" } })
  expect(Object.keys(ours.cookies).filter((name) => name !== challengeCookie && name !== cookieNames.https.callbackUrl)).toEqual([])
  expect({ ...ours, cookies: {} }).toEqual(theirs)
  return theirs
}

async function bodies(responses: Record<SideName, Response>): Promise<Record<SideName, OptionsBody>> {
  return { authflow: (await responses.authflow.clone().json()) as OptionsBody, authjs: (await responses.authjs.clone().json()) as OptionsBody }
}

/** GET webauthn-options on both sides; the answers are compared and returned. */
async function getOptions(duo: Duo, query: Record<string, string> = {}) {
  const responses = await duo.send(`/webauthn-options/passkey?${new URLSearchParams(query)}`)
  const shown = await expectSameWebAuthnWire(responses)
  return { shown, bodies: shown.status === 200 ? await bodies(responses) : undefined }
}

/** POST the callback on both sides with each side's CSRF token; `answer` builds the browser's response per side. */
async function postCallback(duo: Duo, action: string, answer: (side: Side) => unknown, form: Record<string, string> = {}) {
  const tokens = await duo.csrf()
  return duo.send("/callback/passkey", (side) => ({
    form: { action, data: JSON.stringify(answer(side)), csrfToken: tokens[side.name], callbackUrl: dashboard, ...form },
  }))
}

/**
 * The software authenticator's answer with a full-width signature: simplewebauthn 9 (the Auth.js
 * side) does not pad a short `r` or `s`, so about one genuine assertion in 256 fails there (the
 * reason authflow is on 14; test/actions/webauthn-refusals.test.ts has authflow take a short one).
 */
function answer(credential: SoftCredential, options: AuthenticationOptionsJSON, bend: Bend = {}) {
  return credential.authenticate(options, HTTPS, { signatureIntegers: "full-width", ...bend })
}

async function register(duo: Duo, credential: SoftCredential, query: Record<string, string>, bend: Bend = {}) {
  const { bodies: options } = await getOptions(duo, { action: "register", ...query })
  return postCallback(duo, "register", (side) => credential.register(options![side.name].options, HTTPS, bend))
}

/** Authenticates on both sides with the same counter value (the credential counts once per call). */
async function authenticate(duo: Duo, credential: SoftCredential, query: Record<string, string> = { action: "authenticate" }, bend: Bend = {}) {
  const { bodies: options } = await getOptions(duo, query)
  const counter = credential.counter + 1
  credential.counter = counter
  return postCallback(duo, "authenticate", (side) => answer(credential, options![side.name].options, { counter, ...bend }))
}

async function sameSession(duo: Duo) {
  const shown = await expectSameWebAuthnWire(await duo.send("/session"))
  return shown.body as { user?: { email?: string } } | null
}

/** A new duo with "ada@example.test" registered on both sides (and signed in there: `duo.jars`). */
async function withAda(strategy: Strategy = "jwt") {
  const context = setup(strategy)
  const ada = new SoftCredential("app.test")
  await register(context.duo, ada, { email: "ada@example.test" })
  for (const side of sides) context.logs[side.name].errors.length = 0
  return { ...context, ada }
}

/** A browser that is not signed in, on both sides. */
function signedOut(duo: Duo) {
  for (const side of sides) duo.jars[side.name].cookies.clear()
}

describe("GET webauthn-options: the same decision, the same { action, options }", () => {
  it("action=register with an unknown email: registration options, the challenge cookie, 15 minutes", async () => {
    const { duo, logs } = setup()
    const { shown } = await getOptions(duo, { action: "register", email: "new@example.test" })
    expect(shown.status).toBe(200)
    expect(shown.contentType).toBe("application/json")
    expect(shown.body).toMatchObject({
      action: "register",
      options: {
        rp: { id: "app.test", name: "app.test" },
        user: { name: "new@example.test", displayName: "new@example.test" },
        timeout: 300_000,
        attestation: "none",
        excludeCredentials: [],
        authenticatorSelection: { residentKey: "required", userVerification: "required", requireResidentKey: true },
      },
    })
    expect(shown.cookies[challengeCookie]).toMatchObject({ value: "<jwe>", attributes: { "max-age": "900", httponly: true, secure: true } })
    for (const side of sides) expect(logs[side.name].errors).toEqual([])
  })

  it("action=authenticate: authentication options with discoverable credentials", async () => {
    const { duo } = setup()
    const { shown } = await getOptions(duo, { action: "authenticate" })
    expect(shown.body).toEqual({ action: "authenticate", options: { challenge: "<challenge>", timeout: 300_000, userVerification: "required", rpId: "app.test" } })
  })

  it("no action, no email: authentication with discoverable credentials", async () => {
    const { duo } = await withAda()
    signedOut(duo)
    const { shown } = await getOptions(duo)
    expect(shown.body).toMatchObject({ action: "authenticate" })
    expect((shown.body as OptionsBody).options.allowCredentials).toBeUndefined()
  })

  it("no action, an unknown email: registration", async () => {
    const { duo } = await withAda()
    signedOut(duo)
    expect((await getOptions(duo, { email: "new@example.test" })).shown.body).toMatchObject({ action: "register", options: { user: { name: "new@example.test" } } })
  })

  it("no action, a known email: authentication with that user's authenticators", async () => {
    const { duo, ada } = await withAda()
    signedOut(duo)
    const { shown } = await getOptions(duo, { email: "ada@example.test" })
    expect(shown.body).toMatchObject({ action: "authenticate", options: { allowCredentials: [{ id: ada.idBase64Url, type: "public-key", transports: ["internal", "hybrid"] }] } })
  })

  it("a signed-in user registers another authenticator (theirs excluded); with no action they are refused", async () => {
    const { duo, ada } = await withAda()
    const { shown } = await getOptions(duo, { action: "register" })
    expect(shown.body).toMatchObject({ action: "register", options: { user: { name: "ada@example.test" }, excludeCredentials: [{ id: ada.idBase64Url, type: "public-key", transports: ["internal", "hybrid"] }] } })
    const refused = await getOptions(duo)
    expect([refused.shown.status, refused.shown.body]).toEqual([400, { error: "Invalid request" }])
  })

  it("register for a known email while signed out: 400 Invalid request", async () => {
    const { duo } = await withAda()
    signedOut(duo)
    const { shown } = await getOptions(duo, { action: "register", email: "ada@example.test" })
    expect([shown.status, shown.body, shown.cookies[challengeCookie]]).toEqual([400, { error: "Invalid request" }, undefined])
  })

  it("register without an email while signed out: 400 Invalid request", async () => {
    const { duo } = setup()
    const { shown } = await getOptions(duo, { action: "register" })
    expect([shown.status, shown.body]).toEqual([400, { error: "Invalid request" }])
  })

  it("an unknown action: 400 Invalid action", async () => {
    const { duo } = setup()
    const { shown } = await getOptions(duo, { action: "delete" })
    expect([shown.status, shown.body]).toEqual([400, { error: "Invalid action" }])
  })
})

describe("POST callback: register, then authenticate, with the software authenticator", () => {
  for (const strategy of ["jwt", "database"] as const) {
    it(`registration signs the new user in; the passkey signs them in again (${strategy} sessions)`, async () => {
      const { duo, logs, adapter } = setup(strategy)
      const ada = new SoftCredential("app.test")
      const registered = await expectSameWebAuthnWire(await register(duo, ada, { email: "ada@example.test" }))
      expect(registered.status).toBe(302)
      expect(registered.location).toBe(dashboard)
      expect(registered.cookies[challengeCookie]).toMatchObject({ value: "", attributes: { "max-age": "0" } })
      expect(registered.cookies[sessionCookieName()]).toMatchObject({ value: strategy === "jwt" ? "<jwe>" : "<uuid>" })
      expect((await sameSession(duo))?.user?.email).toBe("ada@example.test")

      // What each adapter holds: the same rows, with Auth.js's field names and encodings.
      const stored = {} as Record<SideName, unknown>
      for (const side of sides) {
        const user = await adapter(side).getUserByEmail("ada@example.test")
        const [authenticator] = await adapter(side).listAuthenticatorsByUserId(user!.id)
        const account = await adapter(side).getAccount(authenticator!.providerAccountId, "passkey")
        const { credentialPublicKey, userId, ...rest } = authenticator!
        expect(userId).toBe(user!.id)
        expect(Buffer.from(credentialPublicKey, "base64").equals(ada.cosePublicKey())).toBe(true)
        stored[side.name] = { authenticator: rest, account: { ...account, userId: "<user id>" } }
      }
      expect(stored.authflow).toEqual(stored.authjs)
      expect(stored.authflow).toMatchObject({
        authenticator: { credentialID: ada.id.toString("base64"), providerAccountId: ada.id.toString("base64"), counter: 0, transports: "internal,hybrid" },
        account: { provider: "passkey", type: "webauthn", providerAccountId: ada.id.toString("base64") },
      })

      signedOut(duo)
      expect(await sameSession(duo)).toBeNull()
      const signedIn = await expectSameWebAuthnWire(await authenticate(duo, ada))
      expect(signedIn.location).toBe(dashboard)
      expect((await sameSession(duo))?.user?.email).toBe("ada@example.test")
      for (const side of sides) {
        expect((await adapter(side).getAuthenticator(ada.id.toString("base64")))?.counter).toBe(1)
        expect(logs[side.name].errors).toEqual([])
      }
    })
  }

  it("a known email's options (allowCredentials) lead to the same sign-in", async () => {
    const { duo, ada } = await withAda()
    signedOut(duo)
    const shown = await expectSameWebAuthnWire(await authenticate(duo, ada, { email: "ada@example.test" }))
    expect(shown.location).toBe(dashboard)
    expect((await sameSession(duo))?.user?.email).toBe("ada@example.test")
  })

  it("a signed-in user's second passkey is linked to them, and signs them in", async () => {
    const { duo, adapter } = await withAda()
    const second = new SoftCredential("app.test")
    expect((await expectSameWebAuthnWire(await register(duo, second, {}))).location).toBe(dashboard)
    for (const side of sides) {
      const user = await adapter(side).getUserByEmail("ada@example.test")
      expect((await adapter(side).listAuthenticatorsByUserId(user!.id)).length).toBe(2)
    }
    signedOut(duo)
    expect((await expectSameWebAuthnWire(await authenticate(duo, second))).location).toBe(dashboard)
    expect((await sameSession(duo))?.user?.email).toBe("ada@example.test")
  })
})

describe("refusals with the same outcome", () => {
  const cases: { name: string; bend: Bend }[] = [
    { name: "a bad signature", bend: { badSignature: true } },
    { name: "a signature by another key", bend: { otherKey: true } },
    { name: "the wrong challenge", bend: { challenge: "c29tZXRoaW5nLWVsc2U" } },
    { name: "the wrong origin", bend: { origin: "https://evil.test" } },
    { name: "another RP ID", bend: { rpId: "evil.test" } },
    { name: "user verification missing", bend: { userVerified: false } },
  ]
  for (const { name, bend } of cases) {
    it(`authentication with ${name}: /error?error=WebAuthnVerificationError, no session`, async () => {
      const { duo, logs, ada } = await withAda()
      signedOut(duo)
      const shown = await expectSameRefusal(await authenticate(duo, ada, { action: "authenticate" }, bend))
      expect(shown.location).toBe(errorUrl("WebAuthnVerificationError"))
      expect(await sameSession(duo)).toBeNull()
      for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["WebAuthnVerificationError"])
    })
  }

  it("registration with the wrong challenge: refused, nothing stored", async () => {
    const { duo, logs, adapter } = setup()
    const key = new SoftCredential("app.test")
    const shown = await expectSameRefusal(await register(duo, key, { email: "new@example.test" }, { challenge: "c29tZXRoaW5nLWVsc2U" }))
    expect(shown.location).toBe(errorUrl("WebAuthnVerificationError"))
    for (const side of sides) {
      expect(typesOf(logs[side.name].errors)).toEqual(["WebAuthnVerificationError"])
      expect(await adapter(side).getUserByEmail("new@example.test")).toBeNull()
      expect(await adapter(side).getAuthenticator(key.id.toString("base64"))).toBeNull()
    }
  })

  it("a signed-in user signing in with someone else's passkey: /signin?error=AccountNotLinked", async () => {
    const { duo, ada } = await withAda()
    signedOut(duo)
    const bob = new SoftCredential("app.test")
    await register(duo, bob, { email: "bob@example.test" }) // now signed in as Bob
    const shown = await expectSameRefusal(await authenticate(duo, ada))
    expect(shown.location).toBe(`${HTTPS}/auth/signin?error=AccountNotLinked`)
  })
})

describe("around the ceremonies", () => {
  it("/providers lists the passkey provider the same way", async () => {
    const { duo } = setup()
    const shown = await expectSameWebAuthnWire(await duo.send("/providers"))
    expect(shown.body).toEqual({ passkey: { id: "passkey", name: "Passkey", type: "webauthn", signinUrl: `${HTTPS}/auth/signin/passkey`, callbackUrl: `${HTTPS}/auth/callback/passkey` } })
  })

  it("the WebAuthn provider (not Passkey): the same options, registration and sign-in", async () => {
    const logs = { authflow: recorder(), authjs: recorder() }
    const duo = new Duo((side): AuthConfig => ({
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      session: { strategy: "jwt" },
      experimental: { enableWebAuthn: true },
      providers: [(side === authflow ? WebAuthn() : authjsWebAuthn({ simpleWebAuthn: simpleWebAuthn9 } as never)) as never],
      logger: logs[side.name].logger,
    }))
    const registration = await duo.send("/webauthn-options/webauthn?action=register&email=ada@example.test")
    const shown = await expectSameWebAuthnWire(registration)
    expect((shown.body as OptionsBody).options.authenticatorSelection).toEqual({ residentKey: "preferred", userVerification: "preferred", requireResidentKey: false })
    const options = await bodies(registration)
    const key = new SoftCredential("app.test")
    const tokens = await duo.csrf()
    const registered = await duo.send("/callback/webauthn", (side) => ({
      form: { action: "register", data: JSON.stringify(key.register(options[side.name].options, HTTPS)), csrfToken: tokens[side.name], callbackUrl: dashboard },
    }))
    expect((await expectSameWebAuthnWire(registered)).location).toBe(dashboard)
    signedOut(duo)
    const authentication = await duo.send("/webauthn-options/webauthn?email=ada@example.test")
    expect((await expectSameWebAuthnWire(authentication)).body).toMatchObject({ action: "authenticate", options: { userVerification: "preferred", allowCredentials: [{ id: key.idBase64Url }] } })
    for (const side of sides) expect(logs[side.name].errors).toEqual([])
  })

  const edges = [
    { title: "POST webauthn-options: UnknownAction", path: "/webauthn-options/passkey", post: true, location: errorUrl("Configuration"), logged: "UnknownAction" },
    { title: "webauthn-options without a provider: InvalidProvider", path: "/webauthn-options", post: false, location: errorUrl("Configuration"), logged: "InvalidProvider" },
    { title: "webauthn-options for an unknown provider", path: "/webauthn-options/nope", post: false, location: errorUrl("Configuration"), logged: "Error" },
    { title: "POST signin/passkey: back to the sign-in page", path: "/signin/passkey", post: true, location: `${HTTPS}/auth/signin`, logged: undefined },
  ]
  for (const { title, path, post, location, logged } of edges) {
    it(title, async () => {
      const { duo, logs } = setup()
      const shown = await expectSameWebAuthnWire(post ? await duo.post(path, { action: "authenticate" }) : await duo.send(path))
      expect([shown.status, shown.location]).toEqual([302, location])
      for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(logged ? [logged] : [])
    })
  }

  it("GET on the callback of a WebAuthn provider", async () => {
    const { duo } = setup()
    const shown = await expectSameWebAuthnWire(await duo.send("/callback/passkey"))
    expect([shown.status, shown.location]).toEqual([302, errorUrl("Configuration")])
  })
})

describe("authflow differs: stricter or more precise", () => {
  it("options: a browser-binding cookie next to the challenge cookie (a challenge cookie copied to another browser is refused)", async () => {
    const { duo } = setup()
    const responses = await duo.send("/webauthn-options/passkey?action=authenticate")
    const [ours, theirs] = [await wire(responses.authflow), await wire(responses.authjs)]
    expect(ours.cookies[bindingCookie]).toMatchObject({ attributes: { "max-age": "900", path: "/", httponly: true, secure: true, samesite: "Lax" } })
    expect(theirs.cookies[bindingCookie]).toBeUndefined()

    // The challenge cookie alone, in another browser: authflow refuses, Auth.js accepts.
    const ada = new SoftCredential("app.test", false)
    await register(duo, ada, { email: "ada@example.test" })
    signedOut(duo)
    const { bodies: options } = await getOptions(duo, { action: "authenticate" })
    for (const side of sides) duo.jars[side.name].cookies.delete(bindingCookie)
    const outcome = await postCallback(duo, "authenticate", (side) => answer(ada, options![side.name].options))
    expect(outcome.authflow.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect(outcome.authjs.headers.get("location")).toBe(dashboard)
  })

  it("a refused callback clears the challenge cookie: one attempt per challenge (Auth.js's error redirect sets no cookie)", async () => {
    const { duo, ada } = await withAda()
    signedOut(duo)
    await authenticate(duo, ada, { action: "authenticate" }, { badSignature: true })
    expect(duo.jars.authflow.get(challengeCookie)).toBeUndefined()
    expect(duo.jars.authjs.get(challengeCookie)).toMatch(/^[\w-]+\./)
  })

  it("registration options: `hints: []` (simplewebauthn 14) and a base64url user handle; Auth.js on 9.x sends a hex one", async () => {
    const { duo } = setup()
    const { bodies: options } = await getOptions(duo, { action: "register", email: "new@example.test" })
    expect(options!.authflow.options.hints).toEqual([])
    expect("hints" in options!.authjs.options).toBe(false)
    expect(Buffer.from(options!.authflow.options.user.id, "base64url").length).toBe(32)
    expect(options!.authjs.options.user.id).toMatch(/^[0-9a-f]{64}$/)
  })

  it("the callback checks the CSRF token (Auth.js does not for WebAuthn; next-auth/webauthn sends it anyway)", async () => {
    const { duo, ada } = await withAda()
    signedOut(duo)
    const { bodies: options } = await getOptions(duo, { action: "authenticate" })
    const counter = ++ada.counter
    const outcome = await duo.send("/callback/passkey", (side) => ({
      form: { action: "authenticate", data: JSON.stringify(answer(ada, options![side.name].options, { counter })), callbackUrl: dashboard },
    }))
    expect(outcome.authflow.headers.get("location")).toBe(`${HTTPS}/auth/signin?error=MissingCSRF`)
    expect(outcome.authjs.headers.get("location")).toBe(dashboard)
  })

  it("a replayed response (a synced passkey, counter 0) is refused within the 15 minutes; Auth.js signs in again", async () => {
    const { duo } = setup()
    const synced = new SoftCredential("app.test", false)
    await register(duo, synced, { email: "carol@example.test" })
    signedOut(duo)
    const { bodies: options } = await getOptions(duo, { action: "authenticate" })
    const saved = { authflow: new Map(duo.jars.authflow.cookies), authjs: new Map(duo.jars.authjs.cookies) }
    const answers = { authflow: answer(synced, options!.authflow.options), authjs: answer(synced, options!.authjs.options) }
    const first = await postCallback(duo, "authenticate", (side) => answers[side.name])
    for (const side of sides) expect(first[side.name].headers.get("location")).toBe(dashboard)
    for (const side of sides) {
      duo.jars[side.name].cookies.clear()
      for (const [name, value] of saved[side.name]) duo.jars[side.name].cookies.set(name, value)
    }
    const replay = await postCallback(duo, "authenticate", (side) => answers[side.name])
    expect(replay.authflow.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect(replay.authjs.headers.get("location")).toBe(dashboard)
  })

  it("an unknown credential is a named WebAuthnVerificationError (Auth.js: a plain AuthError, so error=Configuration)", async () => {
    const { duo, logs } = await withAda()
    signedOut(duo)
    const stranger = new SoftCredential("app.test")
    const outcome = await authenticate(duo, stranger)
    expect(outcome.authflow.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect(outcome.authjs.headers.get("location")).toBe(errorUrl("Configuration"))
    expect(typesOf(logs.authflow.errors)).toEqual(["WebAuthnVerificationError"])
    expect(typesOf(logs.authjs.errors)).toEqual(["AuthError"])
  })

  it("a callback without the challenge cookie is a WebAuthnVerificationError (Auth.js: InvalidCheck, so error=Configuration)", async () => {
    const { duo, ada, logs } = await withAda()
    signedOut(duo)
    const { bodies: options } = await getOptions(duo, { action: "authenticate" })
    for (const side of sides) duo.jars[side.name].cookies.delete(challengeCookie)
    const counter = ++ada.counter
    const outcome = await postCallback(duo, "authenticate", (side) => answer(ada, options![side.name].options, { counter }))
    expect(outcome.authflow.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect(outcome.authjs.headers.get("location")).toBe(errorUrl("Configuration"))
    expect(typesOf(logs.authflow.errors)).toEqual(["WebAuthnVerificationError"])
    expect(typesOf(logs.authjs.errors)).toEqual(["InvalidCheck"])
  })

  it("a callback without a valid action is a WebAuthnVerificationError (Auth.js: a plain AuthError, so error=Configuration)", async () => {
    for (const form of [{}, { action: "delete" }] as Record<string, string>[]) {
      const { duo, logs } = setup()
      await getOptions(duo, { action: "authenticate" })
      const tokens = await duo.csrf()
      const outcome = await duo.send("/callback/passkey", (side) => ({ form: { csrfToken: tokens[side.name], data: "{}", ...form } }))
      expect(outcome.authflow.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
      expect(outcome.authjs.headers.get("location")).toBe(errorUrl("Configuration"))
      expect(typesOf(logs.authflow.errors)).toEqual(["WebAuthnVerificationError"])
      expect(typesOf(logs.authjs.errors)).toEqual(["AuthError"])
    }
  })

  it("an answer posted for the other ceremony is a WebAuthnVerificationError (Auth.js: error=Configuration)", async () => {
    const { duo, ada } = await withAda()
    signedOut(duo)
    const { bodies: options } = await getOptions(duo, { action: "authenticate" })
    const counter = ++ada.counter
    const outcome = await postCallback(duo, "register", (side) => answer(ada, options![side.name].options, { counter }))
    expect(outcome.authflow.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect(outcome.authjs.headers.get("location")).toBe(errorUrl("Configuration"))
  })
})
