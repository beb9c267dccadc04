/**
 * OpenID Connect end to end: `Auth()` against a real `oidc-provider` on loopback, signing in through
 * its development login. The happy path checks the authorization request, the ID token, userinfo,
 * the session, the `signIn` event and the flow cookie; every client authentication method completes
 * a sign-in. Each attack or failure must be refused by the check meant to catch it (asserted through
 * the logged error's cause), with no session written.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { createHash } from "node:crypto"
import * as o from "oauth4webapi"
import { SignJWT, base64url, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWTPayload } from "jose"
import { customFetch } from "../../src/index.js"
import { OAuthCallbackError } from "../../src/core/errors.js"
import { FlowCookieRefused, type FlowRefusal } from "../../src/actions/flow-cookie.js"
import { decode } from "../../src/core/jwt/index.js"
import type { Account, AuthConfig, Profile, User } from "../../src/types.js"
import { CookieJar, cookieNames, csrfTokenFor, recordingLogger, send } from "../helpers.js"
import { loginAtProvider, startOidcProvider, type RunningProvider } from "../../demo/oidc-provider.js"

const secret = "oidc-e2e-secret-0123456789abcdef"
const flowCookie = cookieNames.https.flow
const sessionCookie = cookieNames.https.sessionToken
const refusedAt = "https://app.test/auth/signin?error=OAuthCallbackError"
const callbackOf = (id: string) => `https://app.test/auth/callback/${id}`
const alice = { sub: "alice", email: "alice@example.test", name: "Alice Liddell", email_verified: true }

let op: RunningProvider
let tokenEndpoint: string
let userinfoEndpoint: string
let clientKey: CryptoKey

type OidcOptions = Record<string | symbol, unknown>

interface SignInMessage {
  user: User
  account?: Account | null
  profile?: Profile
  isNewUser?: boolean
}

beforeAll(async () => {
  const clientKeys = await generateKeyPair("ES256", { extractable: true })
  clientKey = clientKeys.privateKey
  const clientJwk = { ...(await exportJWK(clientKeys.publicKey)), kid: "app-client-key", alg: "ES256", use: "sig" }
  const redirect_uris = [callbackOf("oidc")]
  op = await startOidcProvider({
    accounts: { alice },
    clients: [
      { client_id: "app", client_secret: "app-secret", redirect_uris: [callbackOf("oidc"), callbackOf("a"), callbackOf("b")] },
      { client_id: "other", client_secret: "other-secret", redirect_uris },
      { client_id: "post", client_secret: "post-secret", token_endpoint_auth_method: "client_secret_post", redirect_uris },
      { client_id: "hmac", client_secret: "hmac-secret-long-enough-for-hs256-0123456789", token_endpoint_auth_method: "client_secret_jwt", redirect_uris },
      { client_id: "keyed", token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [clientJwk] }, redirect_uris },
      { client_id: "public", token_endpoint_auth_method: "none", redirect_uris },
    ],
  })
  const discovery = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>
  tokenEndpoint = discovery.token_endpoint!
  userinfoEndpoint = discovery.userinfo_endpoint!
})

afterAll(async () => {
  await op?.close()
})

/** A config with one OIDC provider (id "oidc", client "app" unless overridden), recording errors and `signIn` events. */
function setup(provider: OidcOptions = {}, more: OidcOptions[] = []) {
  const { logger, errors } = recordingLogger()
  const signIns: SignInMessage[] = []
  const base = { id: "oidc", name: "Test OP", type: "oidc", issuer: op.issuer, clientId: "app", clientSecret: "app-secret" }
  const config = {
    secret,
    trustHost: true,
    logger,
    events: { signIn: (message: SignInMessage) => void signIns.push(message) },
    providers: [{ ...base, ...provider }, ...more.map((extra) => ({ ...base, ...extra }))],
  } as unknown as AuthConfig
  return { config, errors, signIns }
}

/** POST /signin/<id> with a valid CSRF token: the redirect to the provider. */
async function startSignIn(config: AuthConfig, jar: CookieJar, path = "/signin/oidc") {
  const csrfToken = await csrfTokenFor(config, jar)
  const response = await send(config, jar, path, { form: { csrfToken, callbackUrl: "/home" } })
  expect(response.status).toBe(302)
  const flowSetCookie = response.headers.getSetCookie().find((header) => header.startsWith(`${flowCookie}=`))
  return { authorizationUrl: new URL(response.headers.get("location")!), flowSetCookie }
}

/** The full flow: sign in, log in at the provider, follow the redirect back to the callback. */
async function signInThrough(config: AuthConfig, jar: CookieJar, rewrite: (url: URL) => void = () => {}) {
  const { authorizationUrl } = await startSignIn(config, jar)
  rewrite(authorizationUrl)
  const back = await loginAtProvider(authorizationUrl.href, "alice")
  return { authorizationUrl, back, response: await send(config, jar, back.href) }
}

async function sessionOf(config: AuthConfig, jar: CookieJar): Promise<{ user?: { name?: string; email?: string } } | null> {
  return (await (await send(config, jar, "/session")).json()) as never
}

const hasSessionCookie = (jar: CookieJar) => [...jar.cookies.keys()].some((name) => name.startsWith(sessionCookie))
const setsSessionCookie = (response: Response) => response.headers.getSetCookie().some((header) => header.startsWith(sessionCookie))
const clearsFlowCookie = (response: Response) => response.headers.getSetCookie().some((header) => header.startsWith(`${flowCookie}=;`) && /Max-Age=0/i.test(header))

/**
 * The callback was refused: the user is back on the sign-in page with `OAuthCallbackError`, the flow
 * cookie is cleared, no session exists, and one error was logged: an OAuthCallbackError. Returns its
 * underlying cause (`cause.err`) and the whole cause.
 */
async function expectRefused(response: Response, config: AuthConfig, jar: CookieJar, errors: Error[]) {
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toBe(refusedAt)
  expect(clearsFlowCookie(response)).toBe(true)
  expect(setsSessionCookie(response)).toBe(false)
  expect(jar.cookies.has(flowCookie)).toBe(false)
  expect(hasSessionCookie(jar)).toBe(false)
  expect(await sessionOf(config, jar)).toBeNull()
  expect(errors).toHaveLength(1)
  expect(errors[0]).toBeInstanceOf(OAuthCallbackError)
  const cause = errors[0]!.cause as Record<string, unknown> & { err?: Error }
  return { err: cause.err, cause }
}

async function expectFlowRefused(response: Response, config: AuthConfig, jar: CookieJar, errors: Error[], reason: FlowRefusal) {
  const { err } = await expectRefused(response, config, jar, errors)
  expect(err).toBeInstanceOf(FlowCookieRefused)
  expect((err as FlowCookieRefused).reason).toBe(reason)
  expect((err as FlowCookieRefused).cause).toMatchObject({ reason })
}

function expectProcessingError(err: Error | undefined, code: string, message: string | RegExp) {
  expect(err).toBeInstanceOf(o.OperationProcessingError)
  expect((err as o.OperationProcessingError).code).toBe(code)
  if (typeof message === "string") expect(err!.message).toBe(message)
  else expect(err!.message).toMatch(message)
}

/** A provider `customFetch` that passes requests through and lets `rewrite` replace one endpoint's JSON answer. */
function rewritingFetch(endpoint: () => string, rewrite: (body: Record<string, unknown>) => Promise<Record<string, unknown>>): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init)
    const url = input instanceof Request ? input.url : String(input)
    if (url !== endpoint() || !response.ok) return response
    const body = await rewrite((await response.json()) as Record<string, unknown>)
    return new Response(JSON.stringify(body), { status: response.status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } })
  }) as typeof fetch
}

/** Replaces the token response's ID token by `forge(claims, header)`, keeping everything else. */
const forgingIdToken = (forge: (claims: JWTPayload, header: { kid?: string }) => Promise<string>) =>
  rewritingFetch(
    () => tokenEndpoint,
    async (body) => ({ ...body, id_token: await forge(decodeJwt(body.id_token as string), decodeProtectedHeader(body.id_token as string)) }),
  )

const nowSeconds = () => Math.floor(Date.now() / 1000)

describe("OIDC against oidc-provider: happy path", () => {
  it("signs in with authorization code + PKCE, validates the ID token, merges userinfo and fires signIn", async () => {
    const { config, errors, signIns } = setup()
    const jar = new CookieJar()
    const { authorizationUrl, flowSetCookie } = await startSignIn(config, jar)

    // The authorization request.
    expect(authorizationUrl.origin).toBe(op.issuer)
    const params = authorizationUrl.searchParams
    expect(params.get("response_type")).toBe("code")
    expect(params.get("client_id")).toBe("app")
    expect(params.get("redirect_uri")).toBe(callbackOf("oidc"))
    expect(params.get("scope")!.split(" ")).toContain("openid")
    expect(params.get("code_challenge_method")).toBe("S256")
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    expect(params.get("state")).toMatch(/^[\w-]{20,}$/)
    expect(params.get("nonce")).toMatch(/^[\w-]{20,}$/)

    // The flow cookie: small, and it holds the verifier of that challenge, the state and the nonce.
    expect(flowSetCookie).toBeDefined()
    expect(flowSetCookie!.length).toBeLessThan(1200)
    const sealed = (await decode({ token: jar.get(flowCookie)!, secret, salt: flowCookie })) as unknown as { s: { context: { checks: Record<string, string> } } }
    const checks = sealed.s.context.checks
    expect(createHash("sha256").update(checks.codeVerifier!).digest("base64url")).toBe(params.get("code_challenge"))
    expect(checks.state).toBe(params.get("state"))
    expect(checks.nonce).toBe(params.get("nonce"))

    const back = await loginAtProvider(authorizationUrl.href, "alice")
    expect(back.searchParams.get("iss")).toBe(op.issuer)
    const response = await send(config, jar, back.href)
    expect(errors).toEqual([])
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("https://app.test/home")
    expect(clearsFlowCookie(response)).toBe(true)
    expect(jar.cookies.has(flowCookie)).toBe(false)
    expect(hasSessionCookie(jar)).toBe(true)

    const session = await sessionOf(config, jar)
    expect(session?.user).toEqual({ name: "Alice Liddell", email: "alice@example.test" })

    expect(signIns).toHaveLength(1)
    const { user, account, profile, isNewUser } = signIns[0]!
    expect(Object.keys(signIns[0]!).sort()).toEqual(["account", "isNewUser", "profile", "user"])
    expect(isNewUser).toBe(false)
    expect(user).toMatchObject({ name: "Alice Liddell", email: "alice@example.test" })
    expect(account).toMatchObject({ provider: "oidc", type: "oidc", providerAccountId: "alice", token_type: "bearer" })
    expect(typeof account!.access_token).toBe("string")
    const expiresIn = Number(account!.expires_in)
    expect(expiresIn).toBeGreaterThan(0)
    expect(Math.abs(account!.expires_at! - (nowSeconds() + expiresIn))).toBeLessThanOrEqual(5)

    // The validated ID token, and the profile: its claims merged with userinfo (the ID token carries no email).
    const idToken = decodeJwt(account!.id_token!)
    expect(idToken).toMatchObject({ iss: op.issuer, aud: "app", sub: "alice", nonce: params.get("nonce") })
    expect(idToken.email).toBeUndefined()
    expect(profile).toMatchObject({ iss: op.issuer, aud: "app", sub: "alice", nonce: params.get("nonce"), email: "alice@example.test", name: "Alice Liddell" })
  })

  it("adds the sign-in request's query to the authorization parameters", async () => {
    const { config, errors } = setup()
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar, "/signin/oidc?prompt=login&login_hint=x")
    expect(authorizationUrl.searchParams.get("prompt")).toBe("login")
    expect(authorizationUrl.searchParams.get("login_hint")).toBe("x")
    const back = await loginAtProvider(authorizationUrl.href, "alice")
    await send(config, jar, back.href)
    expect(errors).toEqual([])
    expect((await sessionOf(config, jar))?.user?.email).toBe("alice@example.test")
  })

  // oidc-provider only accepts the authentication method a client registered, so each sign-in
  // completing proves the method was used.
  const methods: [string, () => OidcOptions][] = [
    ["client_secret_basic (default)", () => ({})],
    ["client_secret_post", () => ({ clientId: "post", clientSecret: "post-secret", client: { token_endpoint_auth_method: "client_secret_post" } })],
    [
      "client_secret_jwt",
      () => ({ clientId: "hmac", clientSecret: "hmac-secret-long-enough-for-hs256-0123456789", client: { token_endpoint_auth_method: "client_secret_jwt" } }),
    ],
    [
      "private_key_jwt",
      () => ({
        clientId: "keyed",
        clientSecret: undefined,
        token: { clientPrivateKey: clientKey },
        client: { token_endpoint_auth_method: "private_key_jwt" },
      }),
    ],
    ["none (public client)", () => ({ clientId: "public", clientSecret: undefined, client: { token_endpoint_auth_method: "none" } })],
  ]
  it.each(methods)("client authentication %s completes a sign-in", async (_method, provider) => {
    const { config, errors } = setup(provider())
    const jar = new CookieJar()
    const { response } = await signInThrough(config, jar)
    expect(errors).toEqual([])
    expect(response.headers.get("location")).toBe("https://app.test/home")
    expect((await sessionOf(config, jar))?.user).toEqual({ name: "Alice Liddell", email: "alice@example.test" })
  })
})

describe("OIDC against oidc-provider: refusals", () => {
  it("refuses a forged state", async () => {
    const { config, errors } = setup()
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar)
    const back = await loginAtProvider(authorizationUrl.href, "alice")
    back.searchParams.set("state", o.generateRandomState())
    const { err } = await expectRefused(await send(config, jar, back.href), config, jar, errors)
    expectProcessingError(err, o.INVALID_RESPONSE, 'unexpected "state" response parameter value')
  })

  it("refuses a callback without state", async () => {
    const { config, errors } = setup()
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar)
    const back = await loginAtProvider(authorizationUrl.href, "alice")
    back.searchParams.delete("state")
    const { err } = await expectRefused(await send(config, jar, back.href), config, jar, errors)
    expectProcessingError(err, o.INVALID_RESPONSE, 'response parameter "state" missing')
  })

  it("refuses a callback opened in another browser (no flow cookie)", async () => {
    const { config, errors } = setup()
    const { authorizationUrl } = await startSignIn(config, new CookieJar())
    const back = await loginAtProvider(authorizationUrl.href, "alice")
    const otherBrowser = new CookieJar()
    await expectFlowRefused(await send(config, otherBrowser, back.href), config, otherBrowser, errors, "missing")
  })

  it("refuses a replayed callback (same code, saved copy of the flow cookies): no second session, no second code exchange", async () => {
    const { config, errors, signIns } = setup()
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar)
    const saved = new Map(jar.cookies)
    const back = await loginAtProvider(authorizationUrl.href, "alice")
    await send(config, jar, back.href)
    expect(hasSessionCookie(jar)).toBe(true)
    expect(signIns).toHaveLength(1)

    // The attacker replays the same callback URL with copies of the browser's flow cookies: state,
    // PKCE and binding all match, and the flow is refused before the code reaches the provider.
    const attacker = new CookieJar()
    for (const [name, value] of saved) attacker.cookies.set(name, value)
    await expectFlowRefused(await send(config, attacker, back.href), config, attacker, errors, "replayed")
    expect(signIns).toHaveLength(1)
  })

  it("refuses a saved flow with a fresh code for the same authorization request: a flow signs in once", async () => {
    const { config, errors, signIns } = setup()
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar)
    const saved = new Map(jar.cookies)
    await send(config, jar, (await loginAtProvider(authorizationUrl.href, "alice")).href)
    expect(signIns).toHaveLength(1)

    // The same authorization request answered again by the provider, as another account.
    const second = new CookieJar()
    for (const [name, value] of saved) second.cookies.set(name, value)
    const fresh = await loginAtProvider(authorizationUrl.href, "bob")
    await expectFlowRefused(await send(config, second, fresh.href), config, second, errors, "replayed")
    expect(signIns).toHaveLength(1)
  })

  it("refuses a code issued to another client", async () => {
    const { config, errors } = setup()
    const jar = new CookieJar()
    // Same state and PKCE challenge, but the provider issues the code to client "other".
    const { err } = await expectRefused((await signInThrough(config, jar, (url) => url.searchParams.set("client_id", "other"))).response, config, jar, errors)
    expect(err).toBeInstanceOf(o.ResponseBodyError)
    expect((err as o.ResponseBodyError).error).toBe("invalid_grant")
  })

  it("refuses a mismatched iss (mix-up)", async () => {
    const { config, errors } = setup()
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar)
    const back = await loginAtProvider(authorizationUrl.href, "alice")
    back.searchParams.set("iss", "https://attacker.example")
    const { err } = await expectRefused(await send(config, jar, back.href), config, jar, errors)
    expectProcessingError(err, o.INVALID_RESPONSE, 'unexpected "iss" (issuer) response parameter value')
  })

  it("refuses a callback without iss from a provider that announces it", async () => {
    const { config, errors } = setup()
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar)
    const back = await loginAtProvider(authorizationUrl.href, "alice")
    back.searchParams.delete("iss")
    const { err } = await expectRefused(await send(config, jar, back.href), config, jar, errors)
    expectProcessingError(err, o.INVALID_RESPONSE, 'response parameter "iss" (issuer) missing')
  })

  it("refuses an ID token with another nonce", async () => {
    const { config, errors } = setup()
    const jar = new CookieJar()
    // The authorization request is tampered on its way to the provider: the provider signs an ID
    // token with the nonce it was given, while the sealed flow keeps its own. State and PKCE still
    // match, so only the nonce check can refuse it.
    const { response } = await signInThrough(config, jar, (url) => url.searchParams.set("nonce", o.generateRandomNonce()))
    const { err } = await expectRefused(response, config, jar, errors)
    expectProcessingError(err, o.JWT_CLAIM_COMPARISON, 'unexpected ID Token "nonce" claim value')
  })

  it("refuses an ID token signed with an unknown key", async () => {
    const { privateKey } = await generateKeyPair("RS256")
    // Same claims and kid as the provider's token, but signed by a key the provider never published.
    const forge = forgingIdToken((claims, header) => new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: header.kid! }).sign(privateKey))
    const { config, errors } = setup({ [customFetch]: forge })
    const jar = new CookieJar()
    const { err } = await expectRefused((await signInThrough(config, jar)).response, config, jar, errors)
    expectProcessingError(err, o.INVALID_RESPONSE, "JWT signature verification failed")
  })

  it('refuses an ID token with alg "none"', async () => {
    const unsigned = forgingIdToken(async (claims) => `${base64url.encode(JSON.stringify({ alg: "none", typ: "JWT" }))}.${base64url.encode(JSON.stringify(claims))}.`)
    const { config, errors } = setup({ [customFetch]: unsigned })
    const jar = new CookieJar()
    const { err } = await expectRefused((await signInThrough(config, jar)).response, config, jar, errors)
    expectProcessingError(err, o.INVALID_RESPONSE, 'unexpected JWT "alg" header parameter')
  })

  it("refuses an expired ID token", async () => {
    // Validly signed with the provider's own key, but expired ten minutes ago (tolerance is 30 s).
    const expired = forgingIdToken((claims, header) =>
      new SignJWT({ ...claims, iat: nowSeconds() - 3600, exp: nowSeconds() - 600 })
        .setProtectedHeader({ alg: "RS256", kid: header.kid! })
        .sign(op.signingKey.privateKey),
    )
    const { config, errors } = setup({ [customFetch]: expired })
    const jar = new CookieJar()
    const { err } = await expectRefused((await signInThrough(config, jar)).response, config, jar, errors)
    expectProcessingError(err, o.JWT_TIMESTAMP_CHECK, /"exp" \(expiration time\) claim value, expiration is past current timestamp/)
  })

  it("refuses a userinfo answer for another subject", async () => {
    const otherSubject = rewritingFetch(() => userinfoEndpoint, async (body) => ({ ...body, sub: "mallory", email: "mallory@example.test" }))
    const { config, errors } = setup({ [customFetch]: otherSubject })
    const jar = new CookieJar()
    const { err } = await expectRefused((await signInThrough(config, jar)).response, config, jar, errors)
    expectProcessingError(err, o.JSON_ATTRIBUTE_COMPARISON, 'unexpected "response" body "sub" property value')
  })

  it("refuses the provider's error=access_denied (the user cancelled)", async () => {
    const { config, errors } = setup()
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar)
    const back = await loginAtProvider(authorizationUrl.href, "alice", { cancel: true })
    expect(back.searchParams.get("error")).toBe("access_denied")
    const { err, cause } = await expectRefused(await send(config, jar, back.href), config, jar, errors)
    expect(err).toBeInstanceOf(o.AuthorizationResponseError)
    expect(cause).toMatchObject({ providerId: "oidc", error: "access_denied", error_description: "End-User aborted interaction" })
  })

  it("refuses a tampered flow cookie", async () => {
    const { config, errors } = setup()
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar)
    const parts = jar.cookies.get(flowCookie)!.split(".")
    const ciphertext = parts[3]!
    const middle = Math.floor(ciphertext.length / 2)
    parts[3] = ciphertext.slice(0, middle) + (ciphertext[middle] === "A" ? "B" : "A") + ciphertext.slice(middle + 1)
    jar.cookies.set(flowCookie, parts.join("."))
    const back = await loginAtProvider(authorizationUrl.href, "alice")
    await expectFlowRefused(await send(config, jar, back.href), config, jar, errors, "undecodable")
  })

  it("refuses an expired flow cookie (the callback 16 minutes later)", async () => {
    const { config, errors } = setup()
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar)
    const back = await loginAtProvider(authorizationUrl.href, "alice")
    // Only Date is faked, and only for the app: the provider was already done with, and the flow
    // cookie is refused before anything would reach it.
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      vi.setSystemTime(Date.now() + 16 * 60 * 1000)
      await expectFlowRefused(await send(config, jar, back.href), config, jar, errors, "expired")
    } finally {
      vi.useRealTimers()
    }
  })

  it("refuses a flow cookie started for another provider", async () => {
    const { config, errors } = setup({ id: "a", name: "OP a" }, [{ id: "b", name: "OP b" }])
    const jar = new CookieJar()
    const { authorizationUrl } = await startSignIn(config, jar, "/signin/a")
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(callbackOf("a"))
    const back = await loginAtProvider(authorizationUrl.href, "alice")
    back.pathname = "/auth/callback/b"
    await expectFlowRefused(await send(config, jar, back.href), config, jar, errors, "foreign-provider")
  })
})
