/**
 * Token refresh through the framework wrappers' server-side session reads: `auth()` of
 * `authflow/next`, `locals.auth()` of `authflow/sveltekit` and `getSession` of
 * `authflow/solid-start` all read through `GET <basePath>/session`, so each refreshes a due access
 * token (one grant at the provider's token endpoint, a stand-in behind the provider's `customFetch`)
 * and reads a refused refresh as `error: "RefreshTokenError"`.
 */
import { describe, expect, it, vi } from "vitest"
import type { RequestEvent } from "@sveltejs/kit"
import { customFetch } from "../../src/index.js"
import { encode } from "../../src/jwt.js"
import { tokensClaim } from "../../src/actions/token-refresh.js"
import NextAuth from "../../src/frameworks/next/index.js"
import SvelteKitAuth from "../../src/frameworks/sveltekit/index.js"
import { getSession } from "../../src/frameworks/solid-start/index.js"
import { cookieNames, recordingLogger } from "../helpers.js"
import type { AuthConfig, Session } from "../../src/types.js"

const next = vi.hoisted(() => ({ headers: new Headers(), store: new Map<string, string>() }))
vi.mock("next/headers", () => ({
  headers: async () => next.headers,
  cookies: async () => ({
    get: (name: string) => (next.store.has(name) ? { name, value: next.store.get(name) } : undefined),
    getAll: () => [...next.store].map(([name, value]) => ({ name, value })),
    set: (name: string, value: string) => void next.store.set(name, value),
  }),
}))
vi.mock("next/navigation", () => ({ redirect: (url: string) => Promise.reject(new Error(`redirect ${url}`)) }))
// Outside a Next.js request the real connection() throws; auth() awaits it before reading anything.
vi.mock("next/server", async (original) => ({ ...(await original<object>()), connection: async () => {} }))

const secret = "refresh-wrappers-secret-0123456789abcdef"
const origin = "http://app.test"
const sessionCookie = cookieNames.http.sessionToken

/** A provider whose token endpoint grants (or refuses) refreshes, counting them. */
function world(answer: "grant" | "refuse") {
  const grants: URLSearchParams[] = []
  const refreshToken = `rt-${crypto.randomUUID()}`
  const tokenFetch = (async (_input: string | URL | Request, init?: RequestInit) => {
    grants.push(new URLSearchParams(String(init?.body)))
    if (answer === "refuse") return Response.json({ error: "invalid_grant" }, { status: 400 })
    return Response.json({ access_token: "at-2", refresh_token: "rt-2", token_type: "Bearer", expires_in: 3600 })
  }) as typeof fetch
  const provider = {
    id: "op",
    name: "OP",
    type: "oauth",
    clientId: "client",
    clientSecret: "client-secret",
    authorization: "https://op.test/authorize",
    token: "https://op.test/token",
    userinfo: "https://op.test/userinfo",
    refresh: true,
    [customFetch]: tokenFetch,
  }
  return { grants, provider: provider as never, refreshToken }
}

/**
 * A session cookie whose access token expires in 10 s (due with the default 60 s skew), with a
 * refresh token of its own (results are kept per refresh token, process-wide).
 */
async function dueSessionCookie(refreshToken: string): Promise<string> {
  const token = { name: "Ada", email: "ada@example.test", sub: "u1", [tokensClaim]: { op: { access_token: "at-1", refresh_token: refreshToken, expires_at: Math.floor(Date.now() / 1000) + 10 } } }
  return `${sessionCookie}=${await encode({ token, secret, salt: sessionCookie })}`
}

function expectRefreshed(session: Session | null, grants: URLSearchParams[], refreshToken: string) {
  expect(session).toMatchObject({ user: { name: "Ada", email: "ada@example.test" } })
  expect(session?.error).toBeUndefined()
  expect(grants.map((grant) => Object.fromEntries(grant))).toEqual([expect.objectContaining({ grant_type: "refresh_token", refresh_token: refreshToken })])
}

function expectRefused(session: Session | null, grants: URLSearchParams[]) {
  expect(session).toMatchObject({ user: { name: "Ada", email: "ada@example.test" }, error: "RefreshTokenError" })
  expect(grants).toHaveLength(1)
}

describe.each(["grant", "refuse"] as const)("the provider's token endpoint answers: %s", (answer) => {
  const check = answer === "grant" ? expectRefreshed : expectRefused

  it("authflow/next: auth() in a Server Component", async () => {
    const { grants, provider, refreshToken } = world(answer)
    const { auth } = NextAuth({ secret, trustHost: true, logger: recordingLogger().logger, providers: [provider] })
    const cookie = await dueSessionCookie(refreshToken)
    next.headers = new Headers({ host: "app.test", "x-forwarded-proto": "http", cookie })
    next.store.clear()
    next.store.set(sessionCookie, cookie.slice(sessionCookie.length + 1))
    check(await auth(), grants, refreshToken)
  })

  it("authflow/sveltekit: locals.auth()", async () => {
    const { grants, provider, refreshToken } = world(answer)
    const { handle } = SvelteKitAuth({ providers: [provider], logger: recordingLogger().logger } as never, { env: { AUTH_SECRET: secret, AUTH_TRUST_HOST: "true" } })
    const request = new Request(`${origin}/protected`, { headers: { cookie: await dueSessionCookie(refreshToken) } })
    const event = { request, url: new URL(request.url), cookies: { set: () => {}, get: () => undefined }, locals: {} } as unknown as RequestEvent
    await handle({ event, resolve: async () => new Response("page") })
    check(await (event.locals as { auth(): Promise<Session | null> }).auth(), grants, refreshToken)
  })

  it("authflow/solid-start: getSession()", async () => {
    const { grants, provider, refreshToken } = world(answer)
    const config = { secret, trustHost: true, logger: recordingLogger().logger, providers: [provider] } as AuthConfig
    const request = new Request(`${origin}/protected`, { headers: { cookie: await dueSessionCookie(refreshToken) } })
    check(await getSession(request, config), grants, refreshToken)
  })
})
