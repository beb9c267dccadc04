/**
 * The SolidStart wrapper without a browser: `SolidAuth`'s routing under the prefix, the prefix as
 * `basePath`, the environment defaults, `getSession`, and the protected-route helpers.
 */
import type { APIEvent, FetchEvent } from "@solidjs/start/server"
import { afterEach, describe, expect, it, vi } from "vitest"
import {
  authMiddleware,
  getSession,
  isProtectedPath,
  requireSession,
  SolidAuth,
  type SolidAuthConfig,
} from "../../src/frameworks/solid-start/index.js"
import { raw } from "../../src/core/symbols.js"
import { adaCredentials, buildRequest, CookieJar } from "../helpers.js"

const origin = "http://solid.test"
const secret = "solid-start-unit-secret-solid-start-unit-secret"
/** For the tests whose configuration errors are expected. */
const quiet = { error: () => {} }

function config(overrides: Partial<SolidAuthConfig> = {}): SolidAuthConfig {
  return {
    secret,
    trustHost: true,
    providers: [
      adaCredentials(),
    ],
    ...overrides,
  }
}

/** The part of a SolidStart event the wrapper reads: a path on the origin, or a whole request. */
function event(path: string | Request, init?: RequestInit): APIEvent {
  const request = typeof path === "string" ? new Request(`${origin}${path}`, init) : path
  return { request, params: {} } as unknown as APIEvent
}

/** Signs ada in through the handlers; returns the cookie header of the signed-in browser. */
async function signIn(handlers: ReturnType<typeof SolidAuth>, prefix = "/api/auth", password = "lovelace"): Promise<string> {
  const jar = new CookieJar()
  const csrf = (await handlers.GET(event(`${prefix}/csrf`)))!
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  jar.take(csrf)
  const form = { csrfToken, username: "ada", password, callbackUrl: "/protected" }
  const answer = (await handlers.POST(event(buildRequest(`${origin}${prefix}/callback/credentials`, { form }, jar))))!
  expect(answer.status).toBe(302)
  return jar.take(answer).header()
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe("SolidAuth", () => {
  it("serves the actions under the default prefix /api/auth, which is also the basePath", async () => {
    const { GET } = SolidAuth(config())
    const providers = (await GET(event("/api/auth/providers")))!
    expect(providers.status).toBe(200)
    expect(await providers.json()).toMatchObject({
      credentials: { signinUrl: `${origin}/api/auth/signin/credentials`, callbackUrl: `${origin}/api/auth/callback/credentials` },
    })
    const session = (await GET(event("/api/auth/session")))!
    expect(session.status).toBe(200)
    expect(await session.json()).toBeNull()
  })

  it("answers undefined outside the prefix and for segments that are not actions", async () => {
    const { GET, POST } = SolidAuth(config())
    expect(await GET(event("/api/auth"))).toBeUndefined()
    expect(await GET(event("/api/auth/"))).toBeUndefined()
    expect(await GET(event("/api/auth/unknown"))).toBeUndefined()
    expect(await GET(event("/api/authx/session"))).toBeUndefined()
    expect(await GET(event("/auth/session"))).toBeUndefined()
    expect(await POST(event("/protected", { method: "POST" }))).toBeUndefined()
  })

  it("uses a custom prefix (trailing slash or not) as the basePath", async () => {
    for (const prefix of ["/custom/auth", "/custom/auth/"]) {
      const { GET } = SolidAuth(config({ prefix }))
      expect(await GET(event("/api/auth/providers"))).toBeUndefined()
      const providers = (await GET(event("/custom/auth/providers")))!
      expect(await providers.json()).toMatchObject({ credentials: { signinUrl: `${origin}/custom/auth/signin/credentials` } })
    }
  })

  it("takes basePath as the prefix when no prefix is given", async () => {
    const { GET } = SolidAuth(config({ basePath: "/auth" }))
    expect(await GET(event("/api/auth/session"))).toBeUndefined()
    expect((await GET(event("/auth/session")))!.status).toBe(200)
  })

  it("signs in with credentials through POST and serves the session", async () => {
    const handlers = SolidAuth(config())
    const cookie = await signIn(handlers)
    const session = (await handlers.GET(event("/api/auth/session", { headers: { cookie } })))!
    expect(await session.json()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } })
  })

  it("reads AUTH_SECRET and infers trustHost from AUTH_TRUST_HOST, VERCEL and NODE_ENV", async () => {
    const base = config({ logger: quiet })
    delete base.secret
    delete base.trustHost
    vi.stubEnv("AUTH_SECRET", secret)
    vi.stubEnv("NODE_ENV", "production")
    vi.stubEnv("AUTH_TRUST_HOST", undefined)
    vi.stubEnv("VERCEL", undefined)
    vi.stubEnv("AUTH_URL", undefined)
    vi.stubEnv("CF_PAGES", undefined)
    // Production without a trust signal: the host is not trusted (a configuration error, 500).
    expect((await SolidAuth({ ...base }).GET(event("/api/auth/session")))!.status).toBe(500)
    vi.stubEnv("AUTH_TRUST_HOST", "true")
    const trusted = SolidAuth({ ...base })
    expect((await trusted.GET(event("/api/auth/session")))!.status).toBe(200)
    // The secret came from AUTH_SECRET: a session signed with it is read back.
    const cookie = await signIn(trusted)
    expect(await getSession(new Request(`${origin}/`, { headers: { cookie } }), config())).toMatchObject({ user: { name: "Ada Lovelace" } })
    vi.stubEnv("AUTH_TRUST_HOST", undefined)
    vi.stubEnv("VERCEL", "1")
    expect((await SolidAuth({ ...base }).GET(event("/api/auth/session")))!.status).toBe(200)
    vi.stubEnv("VERCEL", undefined)
    vi.stubEnv("NODE_ENV", "development")
    expect((await SolidAuth({ ...base }).GET(event("/api/auth/session")))!.status).toBe(200)
  })

  it("leaves the configuration object untouched and answers a Response even with raw", async () => {
    const given = config({ raw })
    const copy = { ...given }
    const answer = await SolidAuth(given).GET(event("/api/auth/csrf"))
    expect(answer).toBeInstanceOf(Response)
    expect(given).toEqual(copy)
    expect(given.basePath).toBeUndefined()
  })
})

describe("getSession", () => {
  it("is null without a session cookie, and the session with one", async () => {
    const handlers = SolidAuth(config())
    expect(await getSession(new Request(`${origin}/protected`), config())).toBeNull()
    const cookie = await signIn(handlers)
    const session = await getSession(new Request(`${origin}/protected`, { headers: { cookie } }), config())
    expect(session).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } })
    expect(typeof session?.expires).toBe("string")
  })

  it("uses the configured prefix, not a hard-coded /api/auth", async () => {
    const custom = config({ prefix: "/custom/auth" })
    const cookie = await signIn(SolidAuth(custom), "/custom/auth")
    expect(await getSession(new Request(`${origin}/`, { headers: { cookie } }), custom)).toMatchObject({ user: { name: "Ada Lovelace" } })
  })

  it("ignores the body headers of the incoming request", async () => {
    const cookie = await signIn(SolidAuth(config()))
    const post = new Request(`${origin}/form`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", "content-length": "3" },
      body: "a=1",
    })
    expect(await getSession(post, config())).toMatchObject({ user: { name: "Ada Lovelace" } })
  })

  it("defaults trustHost to true, as @auth/solid-start does", async () => {
    vi.stubEnv("NODE_ENV", "production")
    vi.stubEnv("AUTH_TRUST_HOST", undefined)
    const base = config()
    delete base.trustHost
    expect(await getSession(new Request(`${origin}/`), base)).toBeNull()
  })

  it("throws the server's message on an error answer (no secret)", async () => {
    vi.stubEnv("AUTH_SECRET", undefined)
    vi.stubEnv("AUTH_SECRET_1", undefined)
    vi.stubEnv("AUTH_SECRET_2", undefined)
    vi.stubEnv("AUTH_SECRET_3", undefined)
    const base = config({ logger: quiet })
    delete base.secret
    await expect(getSession(new Request(`${origin}/`), base)).rejects.toThrow("There was a problem with the server configuration")
  })
})

describe("protected routes", () => {
  it("requireSession throws a 302 to / without a session, and returns the session with one", async () => {
    const thrown = await requireSession(event("/protected"), config()).catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).status).toBe(302)
    expect((thrown as Response).headers.get("location")).toBe("/")
    const elsewhere = await requireSession(new Request(`${origin}/x`), config(), { redirectTo: "/login" }).catch((error: unknown) => error)
    expect((elsewhere as Response).headers.get("location")).toBe("/login")

    const cookie = await signIn(SolidAuth(config()))
    const session = await requireSession(event("/protected", { headers: { cookie } }), config())
    expect(session.user.name).toBe("Ada Lovelace")
  })

  it("isProtectedPath matches a path and what is below it, or a RegExp", () => {
    const paths = ["/account", "/admin/"]
    expect(isProtectedPath("/account", paths)).toBe(true)
    expect(isProtectedPath("/account/", paths)).toBe(true)
    expect(isProtectedPath("/account/settings", paths)).toBe(true)
    expect(isProtectedPath("/accounts", paths)).toBe(false)
    expect(isProtectedPath("/admin", paths)).toBe(true)
    expect(isProtectedPath("/", paths)).toBe(false)
    expect(isProtectedPath("/reports/2026", [/^\/reports\/\d+$/])).toBe(true)
    expect(isProtectedPath("/reports/x", [/^\/reports\/\d+$/])).toBe(false)
  })

  it("authMiddleware redirects protected paths without a session, lets the rest through", async () => {
    const middleware = authMiddleware(config(), { protectedPaths: ["/client-protected"] })
    const fetchEvent = (path: string, cookie?: string) =>
      ({ request: new Request(`${origin}${path}`, cookie ? { headers: { cookie } } : {}) }) as unknown as FetchEvent
    expect(await middleware(fetchEvent("/"))).toBeUndefined()
    expect(await middleware(fetchEvent("/api/auth/session"))).toBeUndefined()
    const refused = await middleware(fetchEvent("/client-protected/deep"))
    expect(refused?.status).toBe(302)
    expect(refused?.headers.get("location")).toBe("/")

    const cookie = await signIn(SolidAuth(config()))
    expect(await middleware(fetchEvent("/client-protected", cookie))).toBeUndefined()
    const custom = authMiddleware(config(), { protectedPaths: ["/x"], redirectTo: "/signin" })
    expect((await custom(fetchEvent("/x")))?.headers.get("location")).toBe("/signin")
  })

  it("authMiddleware does not read the session for unprotected paths", async () => {
    const broken = config({ logger: quiet })
    delete broken.secret
    vi.stubEnv("AUTH_SECRET", undefined)
    const middleware = authMiddleware(broken, { protectedPaths: ["/private"] })
    expect(await middleware({ request: new Request(`${origin}/public`) } as unknown as FetchEvent)).toBeUndefined()
    await expect(middleware({ request: new Request(`${origin}/private`) } as unknown as FetchEvent)).rejects.toThrow()
  })
})
