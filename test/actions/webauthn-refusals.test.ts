import { beforeEach, describe, expect, it } from "vitest"
import { authenticate, getOptions, passkeyConfig, postCallback, register, sessionOf } from "../support/passkey-flow.js"
import { CookieJar, cookieNames, origin, send } from "../helpers.js"
import { SoftCredential } from "../../src/testing/authenticator.js"
import { memoryReplayStore } from "../../src/core/replay-store.js"
import WebAuthn from "../../src/providers/webauthn.js"
import type { AuthError } from "../../src/core/errors.js"

const errorUrl = (type: string) => `${origin}/auth/error?error=${type}`

function lastCheck(config: ReturnType<typeof passkeyConfig>) {
  const error = config.errors.at(-1) as AuthError | undefined
  return { name: error?.name, check: (error?.cause as { check?: string } | undefined)?.check, message: error?.message }
}

describe("webauthn-options decides as Auth.js v5", () => {
  let config: ReturnType<typeof passkeyConfig>
  let ada: SoftCredential
  beforeEach(async () => {
    config = passkeyConfig()
    ;({ credential: ada } = await register(config, new CookieJar(), "ada@example.test"))
  })

  it("a bad action is 400 Invalid action", async () => {
    const { status, body } = await getOptions(config, new CookieJar(), { action: "delete" })
    expect([status, body]).toEqual([400, { error: "Invalid action" }])
  })

  it("no action and no email: authentication with discoverable credentials", async () => {
    const { status, body } = await getOptions(config, new CookieJar())
    expect(status).toBe(200)
    expect(body.action).toBe("authenticate")
    expect(body.options.allowCredentials ?? []).toEqual([])
    expect(body.options.rpId).toBe("app.test")
    expect(body.options.userVerification).toBe("required")
  })

  it("no action and an unknown email: registration; a known email: authentication with its credentials", async () => {
    const unknown = await getOptions(config, new CookieJar(), { email: "new@example.test" })
    expect(unknown.body.action).toBe("register")
    expect(unknown.body.options.rp).toEqual({ id: "app.test", name: "app.test" })
    expect(unknown.body.options.user.name).toBe("new@example.test")
    expect(unknown.body.options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" })
    const known = await getOptions(config, new CookieJar(), { email: "ada@example.test" })
    expect(known.body.action).toBe("authenticate")
    expect(known.body.options.allowCredentials?.map((c) => c.id)).toEqual([ada.idBase64Url])
  })

  it("register for a known email while signed out is 400 Invalid request", async () => {
    const { status, body } = await getOptions(config, new CookieJar(), { action: "register", email: "ada@example.test" })
    expect([status, body]).toEqual([400, { error: "Invalid request" }])
  })

  it("a signed-in user adds an authenticator (their others excluded); without an action they are refused", async () => {
    const jar = new CookieJar()
    await authenticate(config, jar, ada)
    expect((await getOptions(config, jar)).body).toEqual({ error: "Invalid request" })
    const { body } = await getOptions(config, jar, { action: "register" })
    expect(body.action).toBe("register")
    expect(body.options.excludeCredentials?.map((c) => c.id)).toEqual([ada.idBase64Url])
    const second = new SoftCredential("app.test")
    const response = await postCallback(config, jar, "register", second.register(body.options, origin))
    expect(response.headers.get("location")).toBe(`${origin}/dashboard`)
    const user = await config.adapter.getUserByEmail("ada@example.test")
    expect((await config.adapter.listAuthenticatorsByUserId(user!.id)).length).toBe(2)
    expect((await sessionOf(config, new CookieJar().take(response)))).not.toBeNull()
  })
})

describe("every refusal is named", () => {
  let config: ReturnType<typeof passkeyConfig>
  let ada: SoftCredential
  beforeEach(async () => {
    config = passkeyConfig()
    ;({ credential: ada } = await register(config, new CookieJar(), "ada@example.test"))
    config.errors.length = 0
  })

  const cases = [
    { name: "wrong origin", bend: { origin: "https://evil.test" }, check: "wrongOrigin" },
    { name: "wrong RP ID", bend: { rpId: "evil.test" }, check: "wrongRpId" },
    { name: "wrong ceremony type", bend: { type: "webauthn.create" }, check: "type" },
    { name: "another challenge", bend: { challenge: "c29tZXRoaW5nLWVsc2U" }, check: "challengeMismatch" },
    { name: "user verification missing", bend: { userVerified: false }, check: "user-verification" },
    { name: "user presence missing", bend: { userPresent: false }, check: "user-presence" },
    { name: "bad signature", bend: { badSignature: true }, check: "badSignature" },
    { name: "signed by another key", bend: { otherKey: true }, check: "badSignature" },
  ]
  for (const { name, bend, check } of cases) {
    it(`authentication: ${name}`, async () => {
      const jar = new CookieJar()
      const { response } = await authenticate(config, jar, ada, bend)
      expect(response.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
      expect(lastCheck(config)).toMatchObject({ name: "WebAuthnVerificationError", check })
      expect(await sessionOf(config, jar)).toBeNull()
    })
  }

  it("registration: wrong origin, wrong type, missing user verification are refused and nothing is stored", async () => {
    for (const [bend, check] of [[{ origin: "https://evil.test" }, "wrongOrigin"], [{ type: "webauthn.get" }, "type"], [{ userVerified: false }, "user-verification"], [{ rpId: "evil.test" }, "wrongRpId"]] as const) {
      const { response, credential } = await register(config, new CookieJar(), `x${check}@example.test`, bend)
      expect(response.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
      expect(lastCheck(config).check).toBe(check)
      expect(await config.adapter.getAuthenticator(Buffer.from(credential.id).toString("base64"))).toBeNull()
      expect(await config.adapter.getUserByEmail(`x${check}@example.test`)).toBeNull()
    }
  })

  it("counter regression: a counting authenticator whose counter does not grow", async () => {
    await authenticate(config, new CookieJar(), ada) // counter 1 stored
    const { response } = await authenticate(config, new CookieJar(), ada, { counter: 1 })
    expect(response.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect(lastCheck(config).check).toBe("counterRegressed")
  })

  it("a signature whose r or s is shorter than 32 bytes (about 1 in 256) signs in; so does a full-width one", async () => {
    for (const signatureIntegers of ["short", "full-width"] as const) {
      const jar = new CookieJar()
      const { response } = await authenticate(config, jar, ada, { signatureIntegers })
      expect([signatureIntegers, response.headers.get("location")]).toEqual([signatureIntegers, `${origin}/dashboard`])
      expect((await sessionOf(config, jar))?.user?.email).toBe("ada@example.test")
    }
  })

  it("an authenticator that never counts (counter 0) signs in again and again", async () => {
    const config = passkeyConfig()
    const synced = new SoftCredential("app.test", false)
    await register(config, new CookieJar(), "bob@example.test", {}, synced)
    for (let i = 0; i < 3; i++) expect((await authenticate(config, new CookieJar(), synced)).response.headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("unknown credential", async () => {
    const { response } = await authenticate(config, new CookieJar(), new SoftCredential("app.test"))
    expect(response.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect(lastCheck(config).check).toBe("unknownCredential")
  })

  it("a replayed challenge is refused, on this instance and on another sharing the replay store", async () => {
    const replayStore = memoryReplayStore()
    const one = passkeyConfig({ adapter: config.adapter, replayStore })
    const two = passkeyConfig({ adapter: config.adapter, replayStore })
    const synced = new SoftCredential("app.test", false) // no counter to catch the replay
    await register(one, new CookieJar(), "carol@example.test", {}, synced)
    const jar = new CookieJar()
    const { body } = await getOptions(one, jar, { action: "authenticate" })
    const answer = synced.authenticate(body.options, origin)
    const saved = new Map(jar.cookies)
    expect((await postCallback(one, jar, "authenticate", answer)).headers.get("location")).toBe(`${origin}/dashboard`)
    for (const instance of [one, two]) {
      const replay = new CookieJar()
      for (const [name, value] of saved) replay.cookies.set(name, value)
      const response = await postCallback(instance, replay, "authenticate", answer)
      expect(response.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
      expect(lastCheck(instance).check).toBe("challengeReplayed")
      expect(await sessionOf(instance, replay)).toBeNull()
    }
  })

  it("an answer posted for the other ceremony", async () => {
    const jar = new CookieJar()
    const { body } = await getOptions(config, jar, { action: "authenticate" })
    const response = await postCallback(config, jar, "register", ada.authenticate(body.options, origin))
    expect(response.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect(lastCheck(config).check).toBe("action")
  })

  it("malformed data", async () => {
    const jar = new CookieJar()
    await getOptions(config, jar, { action: "authenticate" })
    const response = await postCallback(config, jar, "authenticate", { id: ada.idBase64Url, response: { clientDataJSON: "!!" } })
    expect(response.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect(lastCheck(config).check).toBe("responseMalformed")
  })

  it("no challenge cookie, or one from another browser", async () => {
    const jar = new CookieJar()
    const { body } = await getOptions(config, jar, { action: "authenticate" })
    const answer = ada.authenticate(body.options, origin)
    const stranger = new CookieJar()
    for (const [name, value] of jar.cookies) if (!name.includes("binding")) stranger.cookies.set(name, value)
    const response = await postCallback(config, stranger, "authenticate", answer)
    expect(response.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
    expect((config.errors.at(-1)?.cause as { err?: { reason?: string } }).err?.reason).toBe("foreign-browser")
    const none = await postCallback(config, new CookieJar(), "authenticate", answer)
    expect(none.headers.get("location")).toBe(errorUrl("WebAuthnVerificationError"))
  })

  it("the callback needs the CSRF token", async () => {
    const jar = new CookieJar()
    const { body } = await getOptions(config, jar, { action: "authenticate" })
    const response = await send(config, jar, "/callback/passkey", { form: { action: "authenticate", data: JSON.stringify(ada.authenticate(body.options, origin)) } })
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
    expect(jar.get(cookieNames.http.webauthnChallenge)).toBeUndefined()
  })

  it("a signed-in user cannot sign in with someone else's passkey", async () => {
    const { credential: bob } = await register(config, new CookieJar(), "bob@example.test")
    const jar = new CookieJar()
    await authenticate(config, jar, ada)
    const { response } = await authenticate(config, jar, bob)
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=AccountNotLinked`)
  })

  it("the WebAuthn provider (not passkey) accepts a credential without resident key", async () => {
    const config = passkeyConfig({ providers: [WebAuthn()] })
    const jar = new CookieJar()
    const { body } = await getOptions(config, jar, { action: "register", email: "dan@example.test" }, "webauthn")
    expect(body.options.authenticatorSelection?.residentKey).not.toBe("required")
    const key = new SoftCredential("app.test")
    const response = await postCallback(config, jar, "register", key.register(body.options, origin), {}, "webauthn")
    expect(response.headers.get("location")).toBe(`${origin}/dashboard`)
  })
})
