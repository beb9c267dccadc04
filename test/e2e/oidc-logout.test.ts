/**
 * Logout against a real OpenID Provider (`oidc-provider` on loopback) with RP-initiated and
 * back-channel logout enabled: sign-out ends the session at the provider too, and the provider's
 * back-channel logout token ends the app's sessions (JWT on their next read, database rows at
 * once). Forged logout tokens are refused for each check of the specification.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { SignJWT, decodeJwt, generateKeyPair } from "jose"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { sendWebResponse, toWebRequest } from "../../src/frameworks/node.js"
import { ProviderCookies, loginAtProvider, logoutAtProvider, startOidcProvider, type RunningProvider } from "../../demo/oidc-provider.js"
import { CookieJar, buildRequest, cookieNames, type RequestOptions } from "../helpers.js"
import type { AuthConfig, Provider } from "../../src/types.js"

let op: RunningProvider
let app: Server
let appOrigin: string
let config: AuthConfig
const memory = MemoryAdapter()
const logged: string[] = []
let strategy: "jwt" | "database" = "jwt"
/** GET requests for the provider's key set, counted at the provider. */
let jwksFetches = 0

const clientId = "logout-client"
const clientSecret = "logout-client-secret"

function provider(overrides: Record<string, unknown> = {}): Provider {
  return {
    id: "op",
    name: "OP",
    type: "oidc",
    issuer: op.issuer,
    clientId,
    clientSecret,
    endSessionAtProvider: true,
    backchannelLogout: true,
    ...overrides,
  } as unknown as Provider
}

function configFor(): AuthConfig {
  return {
    secret: "logout-secret-0123456789abcdef0123456789",
    trustHost: true,
    origin: appOrigin,
    basePath: "/auth",
    adapter: memory,
    session: { strategy },
    providers: [provider(), provider({ id: "plain", backchannelLogout: false, endSessionAtProvider: false })],
    logger: { error: (error: Error) => void logged.push(`${error.name}: ${error.message}`), warn: (code: string) => void logged.push(`warn ${code}`), debug() {} },
  }
}

/** A browser: the app's cookies and the provider's. */
function browser() {
  return { app: new CookieJar(), op: new ProviderCookies() }
}

async function appFetch(jar: CookieJar, path: string, init: RequestOptions = {}): Promise<Response> {
  const url = path.startsWith("http") ? path : `${appOrigin}${path}`
  const response = await fetch(buildRequest(url, init, jar), { redirect: "manual" })
  jar.take(response)
  return response
}

async function csrf(jar: CookieJar): Promise<string> {
  return ((await (await appFetch(jar, "/auth/csrf")).json()) as { csrfToken: string }).csrfToken
}

async function signIn(b: ReturnType<typeof browser>, login = "ada"): Promise<void> {
  const start = await appFetch(b.app, "/auth/signin/op", { form: { csrfToken: await csrf(b.app), callbackUrl: `${appOrigin}/home` } })
  const back = await loginAtProvider(start.headers.get("location")!, login, { jar: b.op })
  const done = await appFetch(b.app, back.href)
  expect(done.headers.get("location")).toBe(`${appOrigin}/home`)
}

async function sessionOf(jar: CookieJar): Promise<{ user?: { email?: string } } | null> {
  return (await (await appFetch(jar, "/auth/session")).json()) as { user?: { email?: string } } | null
}

beforeAll(async () => {
  app = createServer(async (req, res) => {
    if (process.env.DEBUG_BCL) console.log("APP", req.method, req.url)
    try {
      await sendWebResponse(res, await Auth(await toWebRequest(req, appOrigin), config))
    } catch (error) {
      res.writeHead(500).end(String(error))
    }
  })
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve))
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
  op = await startOidcProvider({
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${appOrigin}/auth/callback/op`, `${appOrigin}/auth/callback/plain`],
        post_logout_redirect_uris: [`${appOrigin}/goodbye`],
        backchannel_logout_uri: `${appOrigin}/auth/backchannel-logout/op`,
        backchannel_logout_session_required: true,
      },
    ],
    features: { backchannelLogout: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    onRequest: (method, url) => {
      if (method === "GET" && url.split("?")[0] === "/jwks") jwksFetches++
    },
  })
  config = configFor()
  if (process.env.DEBUG_BCL) {
    op.provider.on("backchannel.error", (...args: unknown[]) => console.log("BCL error", args.slice(1)))
    op.provider.on("backchannel.success", (...args: unknown[]) => console.log("BCL ok"))
    op.provider.on("end_session.success", () => console.log("end_session ok"))
    op.provider.on("end_session.error", (_c: unknown, e: unknown) => console.log("end_session error", e))
  }
})

afterAll(async () => {
  await op?.close()
  await new Promise((resolve) => app?.close(resolve))
})

for (const kind of ["jwt", "database"] as const) {
  describe(`${kind} sessions`, () => {
    beforeAll(() => {
      strategy = kind
      config = configFor()
    })

    it("sign-out ends the session at the provider too: the browser goes to end_session_endpoint and comes back", async () => {
      const b = browser()
      await signIn(b)
      expect((await sessionOf(b.app))?.user?.email).toBe("ada@example.test")
      const out = await appFetch(b.app, "/auth/signout", { form: { csrfToken: await csrf(b.app), callbackUrl: `${appOrigin}/goodbye` } })
      expect(out.status).toBe(302)
      const endSession = new URL(out.headers.get("location")!)
      expect(endSession.origin).toBe(op.issuer)
      expect(endSession.searchParams.get("post_logout_redirect_uri")).toBe(`${appOrigin}/goodbye`)
      expect(endSession.searchParams.get("client_id")).toBe(clientId)
      // The ID token the provider issued to this app: from the JWT, or from Ada's account row.
      const hint = endSession.searchParams.get("id_token_hint")
      expect(decodeJwt(hint ?? "")).toMatchObject({ iss: op.issuer, aud: clientId, sub: "ada" })
      if (kind === "database") {
        const ada = await memory.getUserByEmail("ada@example.test")
        const accounts = (await memory.listAccountsByUserId(ada!.id)).filter((account) => account.provider === "op")
        expect(hint).toBe(accounts[0]!.id_token)
      }
      expect(await sessionOf(b.app)).toBeNull()
      // The provider validates the hint: an invalid one would end on its error page, not back here.
      const landed = await logoutAtProvider(endSession.href, b.op)
      expect(landed.href).toBe(`${appOrigin}/goodbye`)
    })

    if (kind === "database") {
      it("with an adapter that cannot list a user's accounts (as Auth.js's), sign-out still ends the session at the provider, without the hint", async () => {
        const { listAccountsByUserId: _, ...withoutListing } = memory
        config = { ...configFor(), adapter: withoutListing }
        try {
          const b = browser()
          await signIn(b)
          const out = await appFetch(b.app, "/auth/signout", { form: { csrfToken: await csrf(b.app), callbackUrl: `${appOrigin}/goodbye` } })
          const endSession = new URL(out.headers.get("location")!)
          expect(endSession.origin).toBe(op.issuer)
          expect(endSession.searchParams.get("id_token_hint")).toBeNull()
          expect(endSession.searchParams.get("client_id")).toBe(clientId)
          expect(await sessionOf(b.app)).toBeNull()
          const landed = await logoutAtProvider(endSession.href, b.op)
          expect(landed.href).toBe(`${appOrigin}/goodbye`)
        } finally {
          config = configFor()
        }
      })
    }

    it("a back-channel logout from the provider ends the app's session on its next read", async () => {
      const b = browser()
      await signIn(b, "grace")
      expect((await sessionOf(b.app))?.user?.email).toBe("grace@example.test")
      const sessionToken = b.app.get(cookieNames.http.sessionToken)!
      if (kind === "database") expect(await memory.getSessionAndUser(sessionToken)).not.toBeNull()
      // The user logs out at the provider itself (another app, or the provider's account page).
      logged.length = 0
      await logoutAtProvider(`${op.issuer}/session/end`, b.op)
      expect(logged).toEqual([])
      if (kind === "database") expect(await memory.getSessionAndUser(sessionToken)).toBeNull() // deleted at once
      expect(await sessionOf(b.app)).toBeNull()
    })

    it("a session signed in after the logout is not affected", async () => {
      const b = browser()
      await signIn(b, "grace")
      expect((await sessionOf(b.app))?.user?.email).toBe("grace@example.test")
    })
  })
}

describe("forged logout tokens are refused, each for its reason", () => {
  beforeAll(() => {
    strategy = "jwt"
    config = configFor()
  })

  const claims = () => ({
    iss: op.issuer,
    aud: clientId,
    sub: "ada",
    sid: "some-sid",
    jti: crypto.randomUUID(),
    events: { "http://schemas.openid.net/event/backchannel-logout": {} },
  })
  async function token(payload: Record<string, unknown>, options: { key?: CryptoKey; kid?: string; iat?: number } = {}) {
    return new SignJWT(payload)
      .setProtectedHeader({ alg: "RS256", kid: options.kid ?? op.signingKey.kid, typ: "logout+jwt" })
      .setIssuedAt(options.iat ?? Math.floor(Date.now() / 1000))
      .sign(options.key ?? op.signingKey.privateKey)
  }
  async function post(logoutToken: string | undefined, path = "/auth/backchannel-logout/op") {
    const form: Record<string, string> = logoutToken === undefined ? {} : { logout_token: logoutToken }
    const response = await fetch(buildRequest(`${appOrigin}${path}`, { form }))
    expect(response.headers.get("cache-control")).toBe("no-store")
    return { status: response.status, body: (await response.json()) as { error?: string; error_description?: string } }
  }

  it("accepts a valid token once: its jti cannot be replayed", async () => {
    const valid = await token(claims())
    expect(await post(valid)).toEqual({ status: 200, body: {} })
    expect(await post(valid)).toEqual({ status: 400, body: { error: "invalid_request", error_description: "replayed" } })
  })

  const refusals: [string, () => Promise<string | undefined>, string][] = [
    ["no token", async () => undefined, "missing"],
    ["another key", async () => token(claims(), { key: (await generateKeyPair("RS256")).privateKey }), "signature"],
    ["another issuer", async () => token({ ...claims(), iss: "https://evil.test" }), "issuer"],
    ["another audience", async () => token({ ...claims(), aud: "other-client" }), "audience"],
    ["issued an hour ago", async () => token(claims(), { iat: Math.floor(Date.now() / 1000) - 3600 }), "issued-at"],
    ["no events claim", async () => token({ ...claims(), events: undefined }), "events"],
    ["another event", async () => token({ ...claims(), events: { "urn:other": {} } }), "events"],
    ["a nonce", async () => token({ ...claims(), nonce: "n" }), "nonce"],
    ["neither sub nor sid", async () => token({ ...claims(), sub: undefined, sid: undefined }), "subject"],
    ["no jti", async () => token({ ...claims(), jti: undefined }), "jti"],
  ]
  for (const [name, make, reason] of refusals) {
    it(`refuses a token with ${name} (${reason})`, async () => {
      expect(await post(await make())).toEqual({ status: 400, body: { error: "invalid_request", error_description: reason } })
    })
  }

  it("refuses logouts for a provider that does not accept them", async () => {
    expect(await post(await token(claims()), "/auth/backchannel-logout/plain")).toEqual({
      status: 400,
      body: { error: "invalid_request", error_description: "provider" },
    })
  })
})

describe("the provider's key set: one cache for ID tokens and logout tokens, refetched at most once per cooldown", () => {
  beforeAll(() => {
    strategy = "jwt"
    config = configFor()
  })

  /** A logout token for ada, signed by `key` under `kid`, posted to the app: its status and refusal. */
  async function postLogout(key: CryptoKey, kid: string) {
    const token = await new SignJWT({ iss: op.issuer, aud: clientId, sub: "ada", jti: crypto.randomUUID(), events: { "http://schemas.openid.net/event/backchannel-logout": {} } })
      .setProtectedHeader({ alg: "RS256", kid, typ: "logout+jwt" })
      .setIssuedAt()
      .sign(key)
    const response = await fetch(`${appOrigin}/auth/backchannel-logout/op`, { method: "POST", body: new URLSearchParams({ logout_token: token }) })
    return { status: response.status, body: (await response.json()) as { error_description?: string } }
  }

  it("a sign-in's ID token and the logout tokens share one fetch; tokens with unknown kids refetch at most once per 30 s", async () => {
    // Later than every key set cached by the tests above (5 minutes is the longest any cache keeps one).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10 * 60_000 })
    try {
      const before = jwksFetches
      const fetched = () => jwksFetches - before
      const b = browser()
      await signIn(b)
      expect(fetched()).toBe(1)
      // The receiver verifies with the key set the sign-in fetched.
      expect(await postLogout(op.signingKey.privateKey, op.signingKey.kid)).toEqual({ status: 200, body: {} })
      expect(fetched()).toBe(1)

      const { privateKey } = await generateKeyPair("RS256")
      const forged = (i: number) => postLogout(privateKey, `forged-${i}`)
      const refused = { status: 400, body: { error: "invalid_request", error_description: "signature" } }
      // Within 30 s of the fetch: no refetch at all.
      for (let i = 0; i < 10; i++) expect(await forged(i)).toEqual(refused)
      expect(fetched()).toBe(1)
      // A minute later the provider may have rotated its keys: 10 forged tokens at once make one fetch.
      vi.setSystemTime(Date.now() + 60_000)
      expect(await Promise.all(Array.from({ length: 10 }, (_, i) => forged(10 + i)))).toEqual(Array(10).fill(refused))
      expect(fetched()).toBe(2)
      // And none more within the cooldown that fetch started.
      vi.setSystemTime(Date.now() + 20_000)
      for (let i = 0; i < 10; i++) expect(await forged(20 + i)).toEqual(refused)
      expect(fetched()).toBe(2)
      // A valid token still passes, with the cached keys.
      expect(await postLogout(op.signingKey.privateKey, op.signingKey.kid)).toEqual({ status: 200, body: {} })
      expect(fetched()).toBe(2)
    } finally {
      vi.useRealTimers()
    }
  })
})
