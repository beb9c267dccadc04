/**
 * `authflow/next` without a Next.js server: the route handlers, `auth` in its four forms, the
 * server-side actions and the environment rules. `next/headers` and `next/navigation` are replaced
 * by stand-ins holding one incoming request's headers and cookie store; `next/server` is the real one
 * but for `connection()`, which outside a Next.js request throws: a stand-in records when it is
 * awaited (and can be taken away, as in Next.js before 15).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { IncomingMessage, ServerResponse } from "node:http"
import { NextRequest } from "next/server.js"
import { CredentialsSignin } from "../../src/core/errors.js"
import NextAuth, { setNextEnvDefaults, type NextAuthConfig } from "../../src/frameworks/next/index.js"
import GitHub from "../../src/providers/github.js"
import { adaCredentials, buildRequest, CookieJar, cookieNames, recordingLogger } from "../helpers.js"

/** What `next/headers` and `next/navigation` see: the incoming request of a Server Action. */
const next = vi.hoisted(() => {
  class Redirect extends Error {
    constructor(readonly url: string) {
      super(`NEXT_REDIRECT ${url}`)
    }
  }
  const store = new Map<string, { value: string; options: Record<string, unknown> }>()
  /** What happened, in order: `connection` when it was awaited, `headers` when they were read. */
  const calls: string[] = []
  return {
    Redirect,
    calls,
    /** `next/server`'s `connection()`; `undefined` is a Next.js that has none. */
    connection: (async () => void calls.push("connection")) as (() => Promise<void>) | undefined,
    headers: new Headers(),
    store,
    cookieStore: {
      set(name: string, value: string, options: Record<string, unknown> = {}) {
        if (options.maxAge === 0) store.delete(name)
        else store.set(name, { value, options })
      },
      get: (name: string) => (store.has(name) ? { name, value: store.get(name)!.value } : undefined),
      getAll: () => [...store].map(([name, { value }]) => ({ name, value })),
      // What a Server Action's cookie store prints: Set-Cookie syntax, no use as a Cookie header.
      toString: () => [...store].map(([name, { value }]) => `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly`).join("; "),
    },
  }
})

vi.mock("next/headers", () => ({ headers: async () => (next.calls.push("headers"), next.headers), cookies: async () => next.cookieStore }))
vi.mock("next/server", async (original) => ({
  ...(await original<object>()),
  get connection() {
    return next.connection
  },
}))
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw new next.Redirect(url)
  },
}))

const origin = "http://app.test"
/** The session cookie on http://app.test. */
const sessionCookie = cookieNames.http.sessionToken
const secret = "next-test-secret-next-test-secret"

function baseConfig(overrides: Partial<NextAuthConfig> = {}): NextAuthConfig {
  return {
    secret,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [
      adaCredentials(),
    ],
    ...overrides,
    callbacks: {
      jwt({ token, trigger, session }) {
        const name = (session as { name?: unknown } | undefined)?.name
        if (trigger === "update" && typeof name === "string") token.name = name
        return token
      },
      ...overrides.callbacks,
    },
  }
}

/** Signs in through the route handlers as a browser would, and returns the browser's cookie jar. */
async function signedInJar(handlers: ReturnType<typeof NextAuth>["handlers"], basePath = "/api/auth"): Promise<CookieJar> {
  const jar = new CookieJar()
  const csrf = await handlers.GET(new NextRequest(`${origin}${basePath}/csrf`))
  jar.take(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const form = { csrfToken, username: "ada", password: "lovelace", callbackUrl: "/" }
  const response = await handlers.POST(new NextRequest(buildRequest(`${origin}${basePath}/callback/credentials`, { form }, jar)))
  expect(response.status).toBe(302)
  jar.take(response)
  expect(jar.get(sessionCookie)).toBeTruthy()
  return jar
}

/** The headers of a request to `path` in the browser that owns `jar`. */
function incoming(path: string, jar?: CookieJar): Headers {
  const headers = new Headers({ host: "app.test", "x-forwarded-proto": "http", referer: `${origin}${path}` })
  if (jar?.cookies.size) headers.set("cookie", jar.header())
  return headers
}

function useIncoming(path: string, jar?: CookieJar) {
  next.headers = incoming(path, jar)
  next.store.clear()
  for (const [name, value] of jar?.cookies ?? []) next.store.set(name, { value: decodeURIComponent(value), options: {} })
}

async function redirectOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(next.Redirect)
  return (error as InstanceType<typeof next.Redirect>).url
}

beforeEach(() => {
  for (const name of ["AUTH_URL", "NEXTAUTH_URL", "AUTH_SECRET", "NEXTAUTH_SECRET", "AUTH_SECRET_1", "AUTH_TRUST_HOST", "AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET"]) {
    vi.stubEnv(name, undefined)
  }
})
afterEach(() => {
  vi.unstubAllEnvs()
})

describe("environment", () => {
  it("defaults basePath to /api/auth and reads AUTH_SECRET or NEXTAUTH_SECRET", () => {
    const config: NextAuthConfig = { providers: [] }
    setNextEnvDefaults({ NEXTAUTH_SECRET: "legacy" }, config)
    expect(config).toMatchObject({ basePath: "/api/auth", secret: ["legacy"] })
    const both: NextAuthConfig = { providers: [] }
    setNextEnvDefaults({ AUTH_SECRET: "new", NEXTAUTH_SECRET: "legacy", AUTH_SECRET_1: "older" }, both)
    expect(both.secret).toEqual(["older", "new"])
  })

  it("takes basePath from AUTH_URL or NEXTAUTH_URL, and trusts the host they name", () => {
    const config: NextAuthConfig = { providers: [] }
    setNextEnvDefaults({ NEXTAUTH_URL: "https://app.example/custom/auth", NODE_ENV: "production" }, config)
    expect(config).toMatchObject({ basePath: "/custom/auth", trustHost: true })
    const root: NextAuthConfig = { providers: [] }
    setNextEnvDefaults({ AUTH_URL: "https://app.example", NODE_ENV: "production" }, root)
    expect(root.basePath).toBe("/api/auth")
    const explicit: NextAuthConfig = { providers: [], basePath: "/mine" }
    setNextEnvDefaults({ AUTH_URL: "https://app.example/other" }, explicit)
    expect(explicit.basePath).toBe("/mine")
    const untrusted: NextAuthConfig = { providers: [] }
    setNextEnvDefaults({ NODE_ENV: "production" }, untrusted)
    expect(untrusted.trustHost).toBe(false)
  })

  it("fills provider credentials from AUTH_<PROVIDER>_ID and _SECRET", async () => {
    vi.stubEnv("AUTH_SECRET", secret)
    vi.stubEnv("AUTH_GITHUB_ID", "gh-id")
    vi.stubEnv("AUTH_GITHUB_SECRET", "gh-secret")
    const config: NextAuthConfig = { providers: [GitHub] }
    NextAuth(config)
    expect(config.providers[0]).toMatchObject({ id: "github", clientId: "gh-id", clientSecret: "gh-secret" })
  })
})

describe("configuration errors in production (next start) and the hosts inferred as trustworthy", () => {
  it("infers trustHost under next dev, on Vercel and on Cloudflare Pages, and not under a bare next start", () => {
    const inferred = (env: Record<string, string>) => {
      const config: NextAuthConfig = { providers: [] }
      setNextEnvDefaults(env, config)
      return config.trustHost
    }
    expect(inferred({ NODE_ENV: "development" })).toBe(true)
    expect(inferred({ NODE_ENV: "production", VERCEL: "1" })).toBe(true)
    expect(inferred({ NODE_ENV: "production", CF_PAGES: "1" })).toBe(true)
    expect(inferred({ NODE_ENV: "production", AUTH_TRUST_HOST: "true" })).toBe(true)
    expect(inferred({ NODE_ENV: "production", NEXTAUTH_URL: "https://app.example" })).toBe(true)
    expect(inferred({ NODE_ENV: "production" })).toBe(false)
    expect(inferred({ NODE_ENV: "production", AUTH_TRUST_HOST: "false", VERCEL: "1" })).toBe(false)
  })

  it("without AUTH_TRUST_HOST: the routes refuse with a one-line fix, auth() still reads sessions, a Server Action fails loudly", async () => {
    vi.stubEnv("NODE_ENV", "production")
    vi.stubEnv("AUTH_SECRET", secret)
    const trusted = NextAuth(baseConfig())
    const jar = await signedInJar(trusted.handlers)

    const { logger, errors } = recordingLogger()
    const { trustHost: _, ...withoutTrust } = baseConfig({ logger })
    const { handlers, auth, signIn } = NextAuth(withoutTrust)
    const refused = await handlers.GET(new NextRequest(`${origin}/api/auth/session`, { headers: { host: "app.test", cookie: jar.header() } }))
    expect(refused.status).toBe(500)
    expect(errors.map((e) => (e as { type?: string }).type)).toEqual(["UntrustedHost"])
    expect(errors[0]!.message).not.toContain("\n")
    expect(errors[0]!.message).toContain("AUTH_URL")
    expect(errors[0]!.message).toContain("AUTH_TRUST_HOST=true")

    // Reading the session builds no URL: Server Components and the proxy keep working.
    useIncoming("/protected", jar)
    expect((await auth())?.user?.name).toBe("Ada Lovelace")
    const proxied = await auth(new NextRequest(`${origin}/page`, { headers: { host: "app.test", cookie: jar.header() } }))
    expect(proxied.headers.get("x-middleware-next")).toBe("1")

    // A Server Action must not redirect to redirectTo as if the sign-in had worked.
    useIncoming("/signin")
    const failed = await signIn("credentials", { username: "ada", password: "lovelace", redirectTo: "/protected" }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failed).toBeInstanceOf(Error)
    expect(failed).not.toBeInstanceOf(next.Redirect)
    expect((failed as Error).message).toContain("configuration error")
    expect(next.store.has(sessionCookie)).toBe(false)
  })

  it("without a secret: the error names AUTH_SECRET and how to generate one", async () => {
    vi.stubEnv("NODE_ENV", "production")
    const { logger, errors } = recordingLogger()
    const { handlers } = NextAuth({ ...baseConfig({ logger }), secret: undefined })
    expect((await handlers.GET(new NextRequest(`${origin}/api/auth/providers`))).status).toBe(500)
    expect(errors[0]).toMatchObject({ type: "MissingSecret" })
    expect(errors[0]!.message).toContain("set AUTH_SECRET (generate one with `npx authflow secret`)")
  })
})

describe("handlers", () => {
  it("serve the routes under /api/auth", async () => {
    vi.stubEnv("AUTH_SECRET", secret)
    const { handlers } = NextAuth({ providers: baseConfig().providers, trustHost: true })
    const response = await handlers.GET(new NextRequest(`${origin}/api/auth/providers`))
    expect(await response.json()).toMatchObject({ credentials: { callbackUrl: `${origin}/api/auth/callback/credentials` } })
    const jar = await signedInJar(handlers)
    const session = await handlers.GET(new NextRequest(`${origin}/api/auth/session`, { headers: { cookie: jar.header() } }))
    expect(await session.json()).toMatchObject({ user: { name: "Ada Lovelace" } })
  })

  it("answer with the origin of AUTH_URL", async () => {
    vi.stubEnv("AUTH_URL", "https://public.example")
    const { handlers } = NextAuth(baseConfig())
    const response = await handlers.GET(new NextRequest("http://10.0.0.5:3000/api/auth/providers?x=1"))
    expect(await response.json()).toMatchObject({ credentials: { signinUrl: "https://public.example/api/auth/signin/credentials" } })
  })

  it("serve the address the browser used: 127.0.0.1 stays 127.0.0.1, though Next.js puts localhost in a NextRequest", async () => {
    const { handlers } = NextAuth(baseConfig())
    const at = (path: string, init: ConstructorParameters<typeof NextRequest>[1] = {}) =>
      new NextRequest(`http://127.0.0.1:3917${path}`, { ...init, headers: { host: "127.0.0.1:3917", ...(init.headers as Record<string, string>) } })
    expect(at("/api/auth/signin").url).toBe("http://localhost:3917/api/auth/signin")

    const page = await (await handlers.GET(at("/api/auth/signin"))).text()
    expect(page).toContain('action="http://127.0.0.1:3917/api/auth/callback/credentials"')
    expect(page).not.toContain("localhost")
    const jar = new CookieJar()
    const csrf = await handlers.GET(at("/api/auth/csrf"))
    jar.take(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const form = (callbackUrl: string) => ({ csrfToken, username: "ada", password: "lovelace", callbackUrl })
    const signedIn = await handlers.POST(
      new NextRequest(buildRequest("http://127.0.0.1:3917/api/auth/callback/credentials", { headers: { host: "127.0.0.1:3917" }, form: form("http://127.0.0.1:3917/protected") }, jar)),
    )
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers.get("location")).toBe("http://127.0.0.1:3917/protected")
    // Next.js may hand the handler a Request of another class than the NextRequest authflow loads:
    // the body must still reach Auth() whole, whichever request the configuration was resolved with.
    const lazy = NextAuth(async () => baseConfig())
    const plain = await lazy.handlers.POST(
      buildRequest("http://localhost:3917/api/auth/callback/credentials", { headers: { host: "127.0.0.1:3917" }, form: form("http://127.0.0.1:3917/x") }, jar) as NextRequest,
    )
    expect(plain.headers.get("location")).toBe("http://127.0.0.1:3917/x")

    // Behind a proxy: the forwarded host and scheme; a Host that is no host leaves the URL alone.
    const forwarded = await handlers.GET(new NextRequest("http://localhost:3000/api/auth/providers", { headers: { host: "localhost:3000", "x-forwarded-host": "app.example", "x-forwarded-proto": "https" } }))
    expect(await forwarded.json()).toMatchObject({ credentials: { signinUrl: "https://app.example/api/auth/signin/credentials" } })
    const odd = await handlers.GET(new NextRequest("http://localhost:3000/api/auth/providers", { headers: { host: "app.example/evil?x" } }))
    expect(await odd.json()).toMatchObject({ credentials: { signinUrl: "http://localhost:3000/api/auth/signin/credentials" } })
  })

  it("the browser's host still goes through origin and trustedOrigins: listed hosts are served, others refused or served as origin", async () => {
    vi.stubEnv("NODE_ENV", "production")
    const providers = async (handlers: ReturnType<typeof NextAuth>["handlers"], headers: Record<string, string>) => {
      const response = await handlers.GET(new NextRequest("http://localhost:3917/api/auth/providers", { headers }))
      return { status: response.status, body: (await response.json()) as { credentials?: { signinUrl: string }; message?: string } }
    }
    const { trustHost: _, ...untrusting } = baseConfig()
    const listed = NextAuth({ ...untrusting, trustedOrigins: ["http://127.0.0.1:3917"] })
    expect((await providers(listed.handlers, { host: "127.0.0.1:3917" })).body.credentials?.signinUrl).toBe("http://127.0.0.1:3917/api/auth/signin/credentials")
    expect((await providers(listed.handlers, { host: "evil.example" })).status).toBe(500)
    expect((await providers(listed.handlers, { host: "127.0.0.1:3917", "x-forwarded-host": "evil.example" })).status).toBe(500)

    const canonical = NextAuth({ ...untrusting, origin: "https://app.example" })
    const forged = await providers(canonical.handlers, { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" })
    expect(forged.body.credentials?.signinUrl).toBe("https://app.example/api/auth/signin/credentials")
  })

  it("resolve a lazy configuration with the request, and without one in Server Components", async () => {
    const seen: (string | undefined)[] = []
    const { handlers, auth } = NextAuth(async (request) => {
      seen.push(request?.nextUrl.pathname)
      return baseConfig()
    })
    await handlers.GET(new NextRequest(`${origin}/api/auth/providers`))
    useIncoming("/")
    expect(await auth()).toBeNull()
    await auth(new NextRequest(`${origin}/somewhere`))
    expect(seen).toEqual(["/api/auth/providers", undefined, "/somewhere"])
  })
})

describe("auth()", () => {
  it("returns the session in a Server Component, with the token as user when the session has none", async () => {
    const { handlers, auth } = NextAuth(baseConfig())
    const jar = await signedInJar(handlers)
    useIncoming("/protected", jar)
    const session = await auth()
    expect(session).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } })
    expect(session?.user).not.toHaveProperty("sub")
    expect(new Date(session!.expires).getTime()).toBeGreaterThan(Date.now())

    const custom = NextAuth(baseConfig({ callbacks: { session: ({ session }) => ({ expires: session.expires, role: "admin" }) } }))
    const server = await custom.auth()
    expect(server).toMatchObject({ role: "admin", user: { name: "Ada Lovelace", sub: "1" } })
  })

  it("waits for connection() before reading anything (no clock read while Next.js prerenders), and works without it (Next.js before 15)", async () => {
    const { handlers, auth } = NextAuth(baseConfig())
    const jar = await signedInJar(handlers)
    useIncoming("/protected", jar)
    next.calls.length = 0
    expect((await auth())?.user?.name).toBe("Ada Lovelace")
    expect(next.calls).toEqual(["connection", "headers"])

    const withConnection = next.connection
    next.connection = undefined
    try {
      next.calls.length = 0
      expect((await auth())?.user?.name).toBe("Ada Lovelace")
      expect(next.calls).toEqual(["headers"])
    } finally {
      next.connection = withConnection
    }
  })

  it("fails closed: an error answer of the session route is no session", async () => {
    const { handlers } = NextAuth(baseConfig())
    const jar = await signedInJar(handlers)
    const broken = NextAuth({ ...baseConfig(), secret: undefined })
    vi.stubEnv("NODE_ENV", "production")
    const answer = await broken.handlers.GET(new NextRequest(`${origin}/api/auth/session`, { headers: { cookie: jar.header() } }))
    expect(answer.status).toBe(500)
    useIncoming("/protected", jar)
    expect(await broken.auth()).toBeNull()
    expect(await broken.auth(new NextRequest(`${origin}/x`, { headers: { cookie: jar.header() } }))).toBeInstanceOf(Response)
  })

  it("as the proxy: lets requests through, and re-issues an unchanged session only once it is older than updateAge", async () => {
    const { handlers, auth } = NextAuth(baseConfig())
    const jar = await signedInJar(handlers)
    const setsSession = (response: Response) => response.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookie}=`))
    const response = await auth(new NextRequest(`${origin}/page`, { headers: { cookie: jar.header() } }))
    expect(response.headers.get("x-middleware-next")).toBe("1")
    expect(setsSession(response)).toBe(false)

    // A day later (updateAge, by default) the session slides: the proxy keeps sessions alive.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 24 * 60 * 60 * 1000 + 1000 })
    try {
      const later = await auth(new NextRequest(`${origin}/page`, { headers: { cookie: jar.header() } }))
      expect(setsSession(later)).toBe(true)
      const slid = await auth(new NextRequest(`${origin}/page`, { headers: { cookie: jar.take(later).header() } }))
      expect(slid.headers.getSetCookie()).toEqual([])
    } finally {
      vi.useRealTimers()
    }

    // A session the read changes (here the jwt callback counts reads) is written at once.
    let reads = 0
    const changing = NextAuth(baseConfig({ callbacks: { jwt: ({ token }) => ({ ...token, reads: ++reads }) } }))
    const changed = await changing.auth(new NextRequest(`${origin}/page`, { headers: { cookie: (await signedInJar(changing.handlers)).header() } }))
    expect(setsSession(changed)).toBe(true)
    // updateAge: 0 re-issues on every request, as before.
    const everyTime = NextAuth(baseConfig({ session: { updateAge: 0 } }))
    expect(setsSession(await everyTime.auth(new NextRequest(`${origin}/page`, { headers: { cookie: (await signedInJar(everyTime.handlers)).header() } })))).toBe(true)
  })

  it("as the proxy: an answer to a request sent before a Server Action sign-out (a link prefetch) does not sign the browser in again", async () => {
    const { handlers, auth, signOut } = NextAuth(baseConfig())
    const jar = await signedInJar(handlers)
    // The prefetch leaves with the session cookie; its answer comes back after the sign-out's.
    const prefetch = auth(new NextRequest(`${origin}/protected`, { headers: { cookie: jar.header(), "next-router-prefetch": "1" } }))
    useIncoming("/protected", jar)
    expect(await redirectOf(signOut({ redirectTo: "/" }))).toBe(`${origin}/`)
    expect(next.store.has(sessionCookie)).toBe(false)
    jar.cookies.delete(sessionCookie)
    jar.take(await prefetch)
    expect(jar.get(sessionCookie)).toBeUndefined()
    expect(await (await handlers.GET(new NextRequest(`${origin}/api/auth/session`, { headers: { cookie: jar.header() } }))).json()).toBeNull()
  })

  it("as the proxy: sends refused requests to the sign-in page with callbackUrl, except the sign-in page", async () => {
    const authorized = vi.fn(({ auth }: { auth: unknown }) => !!auth)
    const { auth } = NextAuth(baseConfig({ callbacks: { authorized } }))
    const refused = await auth(new NextRequest(`${origin}/middleware-protected?tab=1`))
    expect(refused.status).toBe(307)
    const location = new URL(refused.headers.get("location")!)
    expect(location.pathname).toBe("/api/auth/signin")
    expect(location.searchParams.get("callbackUrl")).toBe(`${origin}/middleware-protected?tab=1`)
    expect(authorized).toHaveBeenCalledWith(expect.objectContaining({ auth: null }))

    const onSignIn = await auth(new NextRequest(`${origin}/api/auth/signin`))
    expect(onSignIn.headers.get("x-middleware-next")).toBe("1")

    const custom = NextAuth(baseConfig({ pages: { signIn: "/login" }, callbacks: { authorized: () => false } }))
    const toLogin = await custom.auth(new NextRequest(`${origin}/a`))
    expect(new URL(toLogin.headers.get("location")!).pathname).toBe("/login")
    expect((await custom.auth(new NextRequest(`${origin}/login`))).headers.get("x-middleware-next")).toBe("1")
  })

  it("as the proxy: builds callbackUrl from the address the browser used", async () => {
    const { auth } = NextAuth(baseConfig({ callbacks: { authorized: ({ auth }) => !!auth } }))
    // `next start` hands the proxy its own address; the browser's is in the forwarded headers.
    const behindNext = await auth(
      new NextRequest("http://localhost:3000/middleware-protected?x=1", {
        headers: { host: "localhost:3000", "x-forwarded-host": "127.0.0.1:3917", "x-forwarded-proto": "http" },
      }),
    )
    const location = new URL(behindNext.headers.get("location")!)
    expect(location.origin).toBe("http://127.0.0.1:3917")
    expect(location.searchParams.get("callbackUrl")).toBe("http://127.0.0.1:3917/middleware-protected?x=1")

    vi.stubEnv("AUTH_URL", "https://public.example")
    const seen: string[] = []
    const withEnv = NextAuth(baseConfig({ callbacks: { authorized: ({ request }) => void seen.push(request.url) } }))
    const refused = await withEnv.auth(new NextRequest("http://10.0.0.5:3000/admin", { headers: { "x-forwarded-host": "evil.example" } }))
    expect(seen).toEqual(["https://public.example/admin"])
    expect(new URL(refused.headers.get("location")!).searchParams.get("callbackUrl")).toBe("https://public.example/admin")
  })

  it("as the proxy: a configured origin wins over forwarded headers (a hostile X-Forwarded-Host builds no redirect)", async () => {
    const { auth } = NextAuth(baseConfig({ origin: "https://app.example", callbacks: { authorized: ({ auth }) => !!auth } }))
    const refused = await auth(new NextRequest("http://10.0.0.5:3000/admin", { headers: { host: "10.0.0.5:3000", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } }))
    const location = new URL(refused.headers.get("location")!)
    expect(location.origin).toBe("https://app.example")
    expect(location.searchParams.get("callbackUrl")).toBe("https://app.example/admin")
  })

  it("as the proxy: answers the Response authorized returns, but never one that redirects to itself", async () => {
    const teapot = NextAuth(baseConfig({ callbacks: { authorized: () => new Response("no", { status: 418 }) } }))
    const answer = await teapot.auth(new NextRequest(`${origin}/x`))
    expect(answer.status).toBe(418)
    expect(await answer.text()).toBe("no")

    const loop = NextAuth(baseConfig({ callbacks: { authorized: ({ request }) => Response.redirect(request.nextUrl.href) } }))
    expect((await loop.auth(new NextRequest(`${origin}/x`))).headers.get("x-middleware-next")).toBe("1")
  })

  it("wraps a handler: the request carries auth, and a refused request never reaches it", async () => {
    const { handlers, auth } = NextAuth(
      // updateAge 0: the session is re-issued on every read, and that cookie reaches the handler's answer.
      baseConfig({ session: { updateAge: 0 }, callbacks: { authorized: ({ auth, request }) => !!auth || !request.nextUrl.pathname.startsWith("/private") } }),
    )
    const jar = await signedInJar(handlers)
    const handler = vi.fn((request: { auth: { user?: { name?: string | null } } | null }, context: { params: string }) =>
      Response.json({ name: request.auth?.user?.name ?? null, params: context.params }),
    )
    const wrapped = auth(handler)
    const response = await wrapped(new NextRequest(`${origin}/private/data`, { headers: { cookie: jar.header() } }), { params: "p" })
    expect(await response.json()).toEqual({ name: "Ada Lovelace", params: "p" })
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookie}=`))).toBe(true)

    const anonymous = await wrapped(new NextRequest(`${origin}/public`), { params: "q" })
    expect(await anonymous.json()).toEqual({ name: null, params: "q" })
    handler.mockClear()
    const refused = await wrapped(new NextRequest(`${origin}/private/data`), { params: "r" })
    expect(refused.status).toBe(307)
    expect(handler).not.toHaveBeenCalled()

    const passThrough = await auth(() => undefined)(new NextRequest(`${origin}/public`), undefined)
    expect(passThrough.headers.get("x-middleware-next")).toBe("1")
  })

  it("in the Pages Router: reads the session and writes the refreshed cookie to the response", async () => {
    const { handlers, auth } = NextAuth(baseConfig({ session: { updateAge: 0 } }))
    const jar = await signedInJar(handlers)
    const written: string[] = []
    const req = { headers: { host: "app.test", cookie: jar.header() }, socket: {} }
    const res = { appendHeader: (_name: string, value: string) => void written.push(value) }
    const session = await auth(req as unknown as IncomingMessage, res as unknown as ServerResponse)
    expect(session?.user?.name).toBe("Ada Lovelace")
    expect(written.some((c) => c.startsWith(`${sessionCookie}=`))).toBe(true)
    const fromContext = await auth({ req, res } as unknown as { req: IncomingMessage; res: ServerResponse })
    expect(fromContext?.user?.name).toBe("Ada Lovelace")
  })
})

describe("server actions", () => {
  it("signIn with credentials writes the session cookie and redirects to redirectTo", async () => {
    const { signIn, auth } = NextAuth(baseConfig())
    useIncoming("/signin")
    const form = new FormData()
    form.set("username", "ada")
    form.set("password", "lovelace")
    form.set("redirectTo", "/protected")
    form.set("$ACTION_ID_abc", "")
    expect(await redirectOf(signIn("credentials", form))).toBe(`${origin}/protected`)
    expect(next.store.get(sessionCookie)?.options).toMatchObject({ httpOnly: true, path: "/", sameSite: "lax" })
    expect((await auth())?.user?.name).toBe("Ada Lovelace")
  })

  it("signIn returns the URL with redirect: false, and defaults to the calling page", async () => {
    const { signIn } = NextAuth(baseConfig())
    useIncoming("/here")
    expect(await signIn("credentials", { username: "ada", password: "lovelace", redirect: false })).toBe(`${origin}/here`)
    expect(next.store.has(sessionCookie)).toBe(true)
  })

  it("signIn throws CredentialsSignin to the caller on wrong credentials", async () => {
    const { signIn } = NextAuth(baseConfig())
    useIncoming("/signin")
    await expect(signIn("credentials", { username: "ada", password: "nope" })).rejects.toBeInstanceOf(CredentialsSignin)
    expect(next.store.has(sessionCookie)).toBe(false)
  })

  it("signInAction: a wrong password comes back as { error } for the form, a right one redirects, a configuration error throws", async () => {
    const { signInAction } = NextAuth(baseConfig())
    useIncoming("/signin")
    const form = new FormData()
    form.set("username", "ada")
    form.set("password", "nope")
    form.set("$ACTION_KEY", "k")
    expect(await signInAction("credentials", form, { redirectTo: "/protected" })).toEqual({ error: "CredentialsSignin", code: "credentials" })
    expect(next.store.has(sessionCookie)).toBe(false)

    form.set("password", "lovelace")
    expect(await redirectOf(signInAction("credentials", form, { redirectTo: "/protected" }))).toBe(`${origin}/protected`)
    expect(next.store.has(sessionCookie)).toBe(true)

    useIncoming("/signin")
    expect(await signInAction("credentials", { username: "ada", password: "lovelace", redirect: false })).toBeNull()
    const refusing = NextAuth(baseConfig({ callbacks: { signIn: () => false } }))
    useIncoming("/signin")
    expect(await refusing.signInAction("credentials", { username: "ada", password: "lovelace" })).toEqual({ error: "AccessDenied" })

    vi.stubEnv("NODE_ENV", "production")
    const broken = NextAuth({ ...baseConfig(), secret: undefined })
    await expect(broken.signInAction("credentials", form)).rejects.toThrow(/configuration error/)
  })

  it("signIn without a known provider sends the user to the sign-in page", async () => {
    const { signIn } = NextAuth(baseConfig())
    useIncoming("/page")
    expect(await redirectOf(signIn())).toBe(`${origin}/api/auth/signin?${new URLSearchParams({ callbackUrl: `${origin}/page` })}`)
    expect(await signIn("nope", { redirectTo: "/x", redirect: false })).toBe(`${origin}/api/auth/signin?callbackUrl=%2Fx`)
  })

  it("signOut clears the session cookie and redirects", async () => {
    const { handlers, signOut, auth } = NextAuth(baseConfig())
    const jar = await signedInJar(handlers)
    useIncoming("/protected", jar)
    expect(await redirectOf(signOut({ redirectTo: "/" }))).toBe(`${origin}/`)
    expect(next.store.has(sessionCookie)).toBe(false)
    expect(await auth()).toBeNull()
    useIncoming("/protected", jar)
    expect(await signOut({ redirect: false })).toBe(`${origin}/protected`)
  })

  it("unstable_update reaches the jwt callback and rewrites the cookie", async () => {
    const { handlers, unstable_update, auth } = NextAuth(baseConfig())
    const jar = await signedInJar(handlers)
    useIncoming("/protected", jar)
    const before = next.store.get(sessionCookie)?.value
    const session = await unstable_update({ name: "Ada King" } as never)
    expect(session?.user?.name).toBe("Ada King")
    expect(next.store.get(sessionCookie)?.value).not.toBe(before)
    expect((await auth())?.user?.name).toBe("Ada King")
    useIncoming("/protected")
    expect(await unstable_update({ user: { name: "Nobody" } })).toBeNull()
  })
})
