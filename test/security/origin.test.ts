/**
 * Issue 9, findings 1 and 2: every URL that leaves the server is built on the origin the
 * configuration names, and a redirect proxy forwards only to configured origins. Attacked through
 * `Auth()`, through `authflow/node` on a real node:http server, and through the SvelteKit wrapper.
 */
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { RequestEvent } from "@sveltejs/kit"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { sendWebResponse, toWebRequest } from "../../src/frameworks/node.js"
import SvelteKitAuth from "../../src/frameworks/sveltekit/index.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import { CookieJar, buildRequest, csrfTokenFor, recordingLogger, send } from "../helpers.js"
import { consent, oauthApp, sessionUserOf, startSignIn } from "../support/oauth-harness.js"
import type { AuthConfig } from "../../src/types.js"
import type { SendVerificationRequestParams } from "../../src/providers/email-config.js"

const secret = "origin-security-secret"

/** An app with email sign-in whose mail is captured. */
function emailApp(overrides: Partial<AuthConfig> = {}) {
  const sent: SendVerificationRequestParams[] = []
  const { logger, errors } = recordingLogger()
  const config: AuthConfig = {
    secret,
    adapter: MemoryAdapter(),
    logger,
    providers: [Nodemailer({ server: "smtp://127.0.0.1:1", from: "login@app.test", sendVerificationRequest: (params) => void sent.push(params) })],
    ...overrides,
  }
  return { config, sent, errors }
}

/** The victim's address, posted to `url` (whose host the attacker chose). */
async function requestLinkAt(config: AuthConfig, url: string): Promise<Response> {
  const jar = new CookieJar()
  const csrfToken = await csrfTokenFor(config, jar)
  return send(config, jar, url, { form: { csrfToken, email: "victim@example.test" } })
}

afterEach(() => void vi.unstubAllEnvs())

describe("finding 2: the Host header does not reach outgoing URLs", () => {
  it("a magic link requested with Host: evil.example is on the configured origin", async () => {
    const { config, sent } = emailApp({ origin: "https://app.test" })
    const response = await requestLinkAt(config, "http://evil.example/auth/signin/nodemailer")
    expect(response.headers.get("location")).toBe("https://app.test/auth/verify-request?provider=nodemailer&type=email")
    expect(sent).toHaveLength(1)
    expect(new URL(sent[0]!.url).origin).toBe("https://app.test")
  })

  it("the OAuth redirect_uri and the /providers URLs are on the configured origin", async () => {
    const app = oauthApp({ origin: "https://app.test" })
    const authorizationUrl = await startSignIn(app.config, new CookieJar(), "http://evil.example/auth/signin/op")
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe("https://app.test/auth/callback/op")
    const providers = (await (await send(app.config, new CookieJar(), "http://evil.example/auth/providers")).json()) as Record<string, { signinUrl: string; callbackUrl: string }>
    expect(providers.op).toEqual({ id: "op", name: "Stand-in OP", type: "oidc", signinUrl: "https://app.test/auth/signin/op", callbackUrl: "https://app.test/auth/callback/op" })
  })

  it("origins listed in trustedOrigins are served as themselves; others are refused when no origin is set", async () => {
    const { config, sent, errors } = emailApp({ trustedOrigins: ["https://app.test", "https://*.preview.test"] })
    await requestLinkAt(config, "https://pr-7.preview.test/auth/signin/nodemailer")
    expect(new URL(sent[0]!.url).origin).toBe("https://pr-7.preview.test")

    for (const host of ["http://evil.example", "https://a.b.preview.test", "https://preview.test.evil.example", "http://pr-7.preview.test"]) {
      const response = await send(config, new CookieJar(), `${host}/auth/session`)
      expect(response.status, host).toBe(500)
      expect(await response.json()).toEqual({ message: "There was a problem with the server configuration. Check the server logs for more information." })
    }
    expect(sent).toHaveLength(1)
    expect(errors.at(-1)!.message).toMatch(/is not in `trustedOrigins`: add it there, or set `origin` \(or AUTH_URL\)/)
  })

  it("with nothing configured in production, the request is refused with a message saying how to fix it", async () => {
    const { config, sent, errors } = emailApp({ trustHost: false })
    const response = await requestLinkAt(config, "http://evil.example/auth/signin/nodemailer")
    expect(response.status).toBe(500)
    expect(sent).toHaveLength(0)
    expect(errors[0]!.message).toBe(
      "The request's Host cannot be trusted: set AUTH_URL (or `origin`) to the app's public origin, or list `trustedOrigins`, or set AUTH_TRUST_HOST=true (`trustHost: true`) only behind a proxy that sets Host itself",
    )
  })

  it("a malformed origin or trustedOrigins entry is a configuration error naming the fix", async () => {
    for (const [overrides, message] of [
      [{ origin: "app.test" }, /`origin` must be an http\(s\) origin/],
      [{ origin: "https://app.test/path" }, /`origin` must be an http\(s\) origin/],
      [{ trustedOrigins: ["https://*.*.test"] }, /`trustedOrigins` entries are origins/],
      [{ trustedOrigins: ["*"] }, /`trustedOrigins` entries are origins/],
    ] as const) {
      const { config, errors } = emailApp(overrides as Partial<AuthConfig>)
      expect((await send(config, new CookieJar(), "https://app.test/auth/session")).status).toBe(500)
      expect(errors[0]!.message).toMatch(message)
    }
  })

  it("through authflow/node on a real server: AUTH_URL gives the origin, whatever Host the request names", async () => {
    vi.stubEnv("AUTH_URL", "https://app.test/auth")
    const { config, sent } = emailApp({ trustHost: true })
    const server = await listen(config, (req) => toWebRequest(req))
    try {
      const csrf = await rawRequest(server, "GET", "/auth/csrf", { host: "evil.example" })
      const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
      const cookie = csrf.cookies.map((header) => header.split(";")[0]).join("; ")
      const form = new URLSearchParams({ csrfToken, email: "victim@example.test" }).toString()
      const answer = await rawRequest(server, "POST", "/auth/signin/nodemailer", { host: "evil.example", cookie, "content-type": "application/x-www-form-urlencoded" }, form)
      expect(answer.status).toBe(302)
      expect(answer.headers.location).toBe("https://app.test/auth/verify-request?provider=nodemailer&type=email")
      expect(sent).toHaveLength(1)
      expect(new URL(sent[0]!.url).origin).toBe("https://app.test")
    } finally {
      server.close()
    }
  })

  it("through authflow/node with the origin passed explicitly", async () => {
    const { config, sent } = emailApp({ trustHost: true })
    const server = await listen(config, (req) => toWebRequest(req, "https://app.test"))
    try {
      const csrf = await rawRequest(server, "GET", "/auth/csrf", { host: "evil.example" })
      const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
      const cookie = csrf.cookies.map((header) => header.split(";")[0]).join("; ")
      const form = new URLSearchParams({ csrfToken, email: "victim@example.test" }).toString()
      await rawRequest(server, "POST", "/auth/signin/nodemailer", { host: "evil.example", cookie, "content-type": "application/x-www-form-urlencoded" }, form)
      expect(new URL(sent[0]!.url).origin).toBe("https://app.test")
    } finally {
      server.close()
    }
  })

  it("through the SvelteKit wrapper: AUTH_URL gives the origin of the mailed link", async () => {
    const sent: SendVerificationRequestParams[] = []
    const { handle } = SvelteKitAuth(
      {
        adapter: MemoryAdapter(),
        logger: recordingLogger().logger,
        providers: [Nodemailer({ server: "smtp://127.0.0.1:1", from: "login@app.test", sendVerificationRequest: (params) => void sent.push(params) })],
      },
      { env: { AUTH_SECRET: secret, AUTH_URL: "https://app.test/auth" } },
    )
    const resolve = async () => new Response("page")
    // SvelteKit checks the Origin of form posts itself; the wrapper skips authflow's CSRF token, as @auth/sveltekit does.
    const answer = await handle({ event: svelteEvent("http://evil.example/auth/signin/nodemailer", new URLSearchParams({ email: "victim@example.test" })), resolve })
    expect(answer.headers.get("location")).toBe("https://app.test/auth/verify-request?provider=nodemailer&type=email")
    expect(sent).toHaveLength(1)
    expect(new URL(sent[0]!.url).origin).toBe("https://app.test")
  })
})

describe("finding 1: the redirect proxy forwards only to configured origins", () => {
  const proxyOrigin = "https://auth-proxy.test"
  /** The stable proxy deployment and a preview deployment sharing its secret and provider. */
  function deployments(preview: Partial<AuthConfig> = {}) {
    const proxy = oauthApp({ origin: proxyOrigin, trustedOrigins: ["https://*.preview.test"], redirectProxyUrl: `${proxyOrigin}/auth` })
    const app = oauthApp({ redirectProxyUrl: `${proxyOrigin}/auth`, ...preview }, proxy.op)
    return { proxy, app, op: proxy.op }
  }

  it("a preview deployment signs in through the proxy", async () => {
    const { proxy, app, op } = deployments()
    const browser = new CookieJar()
    const authorizationUrl = await startSignIn(app.config, browser, "https://pr-1.preview.test/auth/signin/op")
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(`${proxyOrigin}/auth/callback/op`)
    const atProxy = await send(proxy.config, new CookieJar(), consent(op, authorizationUrl, "alice"))
    const forwarded = atProxy.headers.get("location")!
    expect(new URL(forwarded).origin).toBe("https://pr-1.preview.test")
    await send(app.config, browser, forwarded)
    expect(await sessionUserOf(app.config, browser)).toMatchObject({ email: "alice@example.test" })
  })

  it("a sign-in started with Host: evil.example is not forwarded there: the code stays with the proxy", async () => {
    const { proxy, app, op } = deployments()
    const attacker = new CookieJar()
    const authorizationUrl = await startSignIn(app.config, attacker, "https://evil.example/auth/signin/op")
    // The victim completes the genuine provider login.
    const atProxy = await send(proxy.config, new CookieJar(), consent(op, authorizationUrl, "victim"))
    const location = atProxy.headers.get("location")!
    expect(new URL(location).origin).toBe(proxyOrigin)
    expect(location).toBe(`${proxyOrigin}/auth/error?error=Configuration`)
    expect(location).not.toContain("code=")
    expect(proxy.errors.at(-1)!.message).toMatch(/does not forward to https:\/\/evil\.example: list that origin in `trustedOrigins`/)
  })

  it("through authflow/node: a preview deployment on node:http (origin from the Host) cannot make the proxy forward to evil.example", async () => {
    const { proxy, app, op } = deployments()
    const server = await listen(app.config, (req) => toWebRequest(req))
    try {
      const csrf = await rawRequest(server, "GET", "/auth/csrf", { host: "evil.example" })
      const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
      const cookie = csrf.cookies.map((header) => header.split(";")[0]).join("; ")
      const form = new URLSearchParams({ csrfToken }).toString()
      const signIn = await rawRequest(server, "POST", "/auth/signin/op", { host: "evil.example", cookie, "content-type": "application/x-www-form-urlencoded" }, form)
      const authorizationUrl = new URL(String(signIn.headers.location))
      expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(`${proxyOrigin}/auth/callback/op`)
      const atProxy = await send(proxy.config, new CookieJar(), consent(op, authorizationUrl, "victim"))
      expect(atProxy.headers.get("location")).toBe(`${proxyOrigin}/auth/error?error=Configuration`)
    } finally {
      server.close()
    }
  })

  it("through the SvelteKit wrapper: with AUTH_URL, a sign-in named with Host: evil.example is forwarded to the AUTH_URL origin only", async () => {
    const { proxy, op } = deployments()
    const provider = oauthApp({}, op).config.providers[0]!
    const { handle } = SvelteKitAuth(
      { providers: [provider], logger: recordingLogger().logger, redirectProxyUrl: `${proxyOrigin}/auth` },
      { env: { AUTH_SECRET: "security-test-secret", AUTH_URL: "https://pr-1.preview.test/auth" } },
    )
    const signIn = await handle({ event: svelteEvent("https://evil.example/auth/signin/op", new URLSearchParams()), resolve: async () => new Response("page") })
    const authorizationUrl = new URL(signIn.headers.get("location")!)
    const atProxy = await send(proxy.config, new CookieJar(), consent(op, authorizationUrl, "victim"))
    expect(new URL(atProxy.headers.get("location")!).origin).toBe("https://pr-1.preview.test")
  })

  it("with its origin configured, a deployment binds the flow to that origin whatever Host the sign-in named", async () => {
    const { proxy, app, op } = deployments({ origin: "https://pr-1.preview.test" })
    const attacker = new CookieJar()
    const authorizationUrl = await startSignIn(app.config, attacker, "http://evil.example/auth/signin/op")
    const atProxy = await send(proxy.config, new CookieJar(), consent(op, authorizationUrl, "victim"))
    expect(new URL(atProxy.headers.get("location")!).origin).toBe("https://pr-1.preview.test")
  })
})

/** A node:http server wired like the README: `toWebRequest` → `Auth()` → `sendWebResponse`. */
async function listen(config: AuthConfig, toRequest: (req: import("node:http").IncomingMessage) => Promise<Request>): Promise<Server> {
  const server = createServer(async (req, res) => sendWebResponse(res, await Auth(await toRequest(req), config)))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return server
}

/** One HTTP request with exactly the headers given (Host included), as an attacker sends it. */
function rawRequest(server: Server, method: string, path: string, headers: Record<string, string>, body?: string) {
  const { port } = server.address() as AddressInfo
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; cookies: string[]; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, cookies: res.headers["set-cookie"] ?? [], body: text }))
    })
    req.on("error", reject)
    req.end(body)
  })
}

/** A SvelteKit request event for `url`, a form POST when `form` is given. */
function svelteEvent(url: string, form?: URLSearchParams): RequestEvent {
  const request = buildRequest(url, { ...(form && { form }) })
  const cookies = { set: () => {}, get: () => undefined }
  return { request, url: new URL(url), cookies, locals: {} } as unknown as RequestEvent
}
