/**
 * The real `next-auth/react` client functions (next-auth 5 beta) in Node against `Auth()` over HTTP:
 * getProviders, getCsrfToken, getSession, signIn (credentials and OAuth) and signOut with
 * `redirect: false`, and the `update` that `useSession` hands out. The client reads the server's URL
 * from `NEXTAUTH_URL`, as next-auth documents for server-side use; `fetch` keeps a cookie jar per
 * server, as a browser would. Each scenario runs against authflow and, as the reference, against @auth/core 0.41.3
 * behind the same kind of server; both must give the client the same answers.
 *
 * `update` lives in `SessionProvider`'s context: the provider is rendered once (with the session the
 * server gave) to get it, then it is called as an app would call it. It posts to `/session` and
 * returns the new session; rendering on the server runs no effect, so only that wire part is
 * exercised here (test/wire/next-auth-webauthn.browser.test.ts runs the provider with its
 * effects in Chromium).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { createElement } from "react"
import { renderToString } from "react-dom/server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth as authflowAuth } from "../../src/index.js"
import { sendWebResponse, toWebRequest } from "../../src/frameworks/node.js"
import GitHub from "../../src/providers/github.js"
import authjsGitHub from "@auth/core/providers/github"
import { authflow, authjs, credentialsConfig, recorder, type Side, type SideName } from "./harness.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { CookieJar, cookieNames } from "../helpers.js"

type NextAuthReact = typeof import("next-auth/react")

const users: Record<string, { id: string; name: string; email: string; password: string }> = {
  ada: { id: "1", name: "Ada Lovelace", email: "ada@example.test", password: "lovelace" },
}

function configFor(side: Side, logs: ReturnType<typeof recorder>): AuthConfig {
  const config = credentialsConfig(
    side,
    {
      basePath: "/auth",
      session: { strategy: "jwt" },
      logger: logs.logger,
      callbacks: {
        jwt({ token, trigger, session }) {
          const name = (session as { name?: unknown } | undefined)?.name
          if (trigger === "update" && typeof name === "string") token.name = name
          return token
        },
      },
    },
    ({ username, password }) => {
      const user = users[username as string]
      return user && user.password === password ? { id: user.id, name: user.name, email: user.email } : null
    },
  )
  const github = side === authflow ? GitHub : (authjsGitHub as unknown as typeof GitHub)
  return { ...config, providers: [...config.providers, github({ clientId: "gh-client", clientSecret: "gh-secret" })] }
}

interface Running {
  server: Server
  origin: string
  jar: CookieJar
  logs: ReturnType<typeof recorder>
}

async function serve(side: Side): Promise<Running> {
  const logs = recorder()
  const config = configFor(side, logs)
  const server = createServer((req, res) => {
    void (async () => {
      const request = await toWebRequest(req, `http://${req.headers.host}`)
      const response = side === authflow ? await authflowAuth(request, config) : ((await side.Auth(request, config)) as Response)
      await sendWebResponse(res, response)
    })().catch((error: unknown) => res.writeHead(500).end(String(error)))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, jar: new CookieJar(), logs }
}

describe("next-auth/react against Auth() over HTTP", () => {
  const running = {} as Record<SideName, Running>
  const originalFetch = globalThis.fetch
  let client: NextAuthReact
  let target: SideName = "authflow"
  const seen: string[] = []

  beforeAll(async () => {
    running.authflow = await serve(authflow)
    running.authjs = await serve(authjs)
    // A browser: each server's cookies go back to it; a cookie header the caller set wins.
    globalThis.fetch = async (input, init = {}) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url)
      const side = Object.values(running).find((r) => r.origin === url.origin)
      const headers = new Headers(init.headers)
      if (side && !headers.has("cookie") && side.jar.cookies.size) headers.set("cookie", side.jar.header())
      seen.push(`${init.method?.toUpperCase() ?? "GET"} ${url.pathname}${url.search}`)
      const response = await originalFetch(url, { ...init, headers, redirect: "manual" })
      side?.jar.take(response)
      return response
    }
    process.env.NEXTAUTH_URL = `${running.authflow.origin}/auth`
    client = await import("next-auth/react")
  })

  afterAll(async () => {
    globalThis.fetch = originalFetch
    delete process.env.NEXTAUTH_URL
    await Promise.all(Object.values(running).map(({ server }) => new Promise((resolve) => server.close(resolve))))
  })

  /** Points the client at one server (the reference run rewrites what NEXTAUTH_URL gave). */
  function use(side: SideName) {
    target = side
    client.__NEXTAUTH.baseUrlServer = running[side].origin
    client.__NEXTAUTH.basePathServer = "/auth"
    running[side].jar.cookies.clear()
  }

  /** `update` from `useSession`, as `SessionProvider` gives it for `session`. */
  function updateFor(session: Session): (data?: unknown) => Promise<Session | null> {
    let update: ((data?: unknown) => Promise<Session | null>) | undefined
    function Probe() {
      update = client.useSession().update as typeof update
      return null
    }
    renderToString(createElement(client.SessionProvider, { session: session as never, basePath: "/auth", children: createElement(Probe) }))
    return update!
  }

  /** The normalised answers of a whole session's worth of client calls, for the server `side`. */
  async function journey(side: SideName) {
    use(side)
    const { origin } = running[side]
    const out: Record<string, unknown> = {}
    out.providers = await client.getProviders()
    const csrfToken = await client.getCsrfToken()
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/)
    expect(running[side].jar.get(cookieNames.http.csrfToken)).toMatch(new RegExp(`^${csrfToken}\\|[0-9a-f]{64}$`))
    out.signedOut = await client.getSession()
    out.wrongPassword = await client.signIn("credentials", { username: "ada", password: "nope", redirect: false, callbackUrl: `${origin}/dashboard` })
    out.signIn = await client.signIn("credentials", { username: "ada", password: "lovelace", redirect: false, callbackUrl: "/dashboard" })
    const session = (await client.getSession()) as Session
    out.session = session
    const update = updateFor(session)
    out.updated = await update({ name: "Ada King" })
    out.afterUpdate = await client.getSession()
    out.refreshed = await update()
    out.signOut = await client.signOut({ redirect: false, callbackUrl: `${origin}/bye` })
    out.afterSignOut = await client.getSession()
    out.errors = running[side].logs.errors.map((error) => (error as { type?: string }).type)
    // The origin differs between the two servers: compare with it replaced.
    return JSON.parse(JSON.stringify(out).replaceAll(origin, "<origin>").replace(/"expires":"[^"]+"/g, '"expires":"<date>"')) as Record<string, unknown>
  }

  it("NEXTAUTH_URL points the client at authflow's base path", () => {
    expect(client.__NEXTAUTH.baseUrlServer).toBe(running.authflow.origin)
    expect(client.__NEXTAUTH.basePathServer).toBe("/auth")
  })

  it("every call gives the client what it expects, and the same as against @auth/core", async () => {
    const ours = await journey("authflow")
    expect(ours).toEqual({
      providers: {
        credentials: { id: "credentials", name: "Credentials", type: "credentials", signinUrl: "<origin>/auth/signin/credentials", callbackUrl: "<origin>/auth/callback/credentials" },
        github: { id: "github", name: "GitHub", type: "oauth", signinUrl: "<origin>/auth/signin/github", callbackUrl: "<origin>/auth/callback/github" },
      },
      signedOut: null,
      wrongPassword: { error: "CredentialsSignin", code: "credentials", status: 200, ok: true, url: null },
      signIn: { status: 200, ok: true, url: "<origin>/dashboard" },
      session: { user: { name: "Ada Lovelace", email: "ada@example.test" }, expires: "<date>" },
      updated: { user: { name: "Ada King", email: "ada@example.test" }, expires: "<date>" },
      afterUpdate: { user: { name: "Ada King", email: "ada@example.test" }, expires: "<date>" },
      refreshed: { user: { name: "Ada King", email: "ada@example.test" }, expires: "<date>" },
      signOut: { url: "<origin>/bye" },
      afterSignOut: null,
      errors: ["CredentialsSignin"],
    })
    expect(seen).toEqual(expect.arrayContaining(["GET /auth/csrf", "POST /auth/callback/credentials", "POST /auth/session", "POST /auth/signout"]))
    expect(target).toBe("authflow")

    const reference = await journey("authjs")
    expect(ours).toEqual(reference)
  })

  it("signIn with an OAuth provider (redirect: false) returns the authorization URL to go to", async () => {
    const results = {} as Record<SideName, URL>
    for (const side of ["authflow", "authjs"] as const) {
      use(side)
      const result = await client.signIn("github", { redirect: false, callbackUrl: "/after" })
      expect(result).toMatchObject({ status: 200, ok: true })
      expect(result!.error).toBeUndefined()
      results[side] = new URL(result!.url!)
      expect(running[side].jar.cookies.size).toBeGreaterThan(1) // the CSRF cookie and the flow cookie(s)
    }
    for (const url of Object.values(results)) {
      expect(`${url.origin}${url.pathname}`).toBe("https://github.com/login/oauth/authorize")
      expect(url.searchParams.get("client_id")).toBe("gh-client")
      expect(url.searchParams.get("scope")).toBe("read:user user:email")
      expect(url.searchParams.get("response_type")).toBe("code")
      expect(url.searchParams.get("code_challenge_method")).toBe("S256")
    }
    expect(results.authflow.searchParams.get("redirect_uri")).toBe(`${running.authflow.origin}/auth/callback/github`)
    expect(results.authjs.searchParams.get("redirect_uri")).toBe(`${running.authjs.origin}/auth/callback/github`)
    // authflow always sends `state` (Auth.js only when the provider asks for the check): see README.
    expect(results.authflow.searchParams.get("state")).toMatch(/^[\w-]{20,}$/)
  })

  it("a signIn without the CSRF cookie is refused the Auth.js way: MissingCSRF in the returned error", async () => {
    const results: Record<string, unknown> = {}
    for (const side of ["authflow", "authjs"] as const) {
      use(side)
      const { origin } = running[side]
      // getCsrfToken mints a cookie; drop it before the POST, as a browser blocking cookies would.
      const realFetch = globalThis.fetch
      globalThis.fetch = async (input, init) => {
        if (init?.method === "post") running[side].jar.cookies.clear()
        return realFetch(input, init)
      }
      try {
        results[side] = await client.signIn("credentials", { username: "ada", password: "lovelace", redirect: false, callbackUrl: `${origin}/x` })
      } finally {
        globalThis.fetch = realFetch
      }
      expect(await client.getSession()).toBeNull()
    }
    expect(results.authflow).toEqual({ error: "MissingCSRF", code: undefined, status: 200, ok: true, url: null })
    expect(results.authflow).toEqual(results.authjs)
  })
})
