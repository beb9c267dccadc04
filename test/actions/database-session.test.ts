import { describe, expect, it, vi } from "vitest"
import Credentials from "../../src/providers/credentials.js"
import { CookieJar, cookieNames, csrfTokenFor, send } from "../helpers.js"
import type { Adapter, AdapterSession, AdapterUser } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"

const sessionCookie = cookieNames.https.sessionToken

/** The smallest adapter database sessions need, over Maps, recording its calls. */
function mapAdapter() {
  const users = new Map<string, AdapterUser>([["u1", { id: "u1", name: "Ada", email: "ada@example.test", emailVerified: null }]])
  const sessions = new Map<string, AdapterSession>()
  const adapter = {
    createUser: vi.fn(async (user: AdapterUser) => (users.set(user.id, user), user)),
    getUser: vi.fn(async (id: string) => users.get(id) ?? null),
    getUserByEmail: vi.fn(async (email: string) => [...users.values()].find((u) => u.email === email) ?? null),
    getUserByAccount: vi.fn(async () => null),
    updateUser: vi.fn(async (user: Partial<AdapterUser> & { id: string }) => ({ ...users.get(user.id)!, ...user })),
    linkAccount: vi.fn(async () => undefined),
    createSession: vi.fn(async (session: AdapterSession) => (sessions.set(session.sessionToken, session), session)),
    getSessionAndUser: vi.fn(async (token: string) => {
      const session = sessions.get(token)
      return session ? { session, user: users.get(session.userId)! } : null
    }),
    updateSession: vi.fn(async (update: Partial<AdapterSession> & { sessionToken: string }) => {
      const session = { ...sessions.get(update.sessionToken)!, ...update }
      sessions.set(update.sessionToken, session)
      return session
    }),
    deleteSession: vi.fn(async (token: string) => {
      const session = sessions.get(token)
      sessions.delete(token)
      return session
    }),
  } satisfies Adapter
  return { adapter, sessions }
}

function setup(overrides: Partial<AuthConfig> = {}) {
  const { adapter, sessions } = mapAdapter()
  const signOut = vi.fn()
  const config: AuthConfig = {
    secret: "db-secret",
    trustHost: true,
    adapter,
    providers: [Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1", name: "Ada", email: "ada@example.test" }) })],
    events: { signOut },
    ...overrides,
  }
  return { config, adapter, sessions, signOut }
}

async function signIn(config: AuthConfig) {
  const jar = new CookieJar()
  const csrfToken = await csrfTokenFor(config, jar)
  const response = await send(config, jar, "/callback/credentials", { form: { csrfToken, username: "ada" } })
  return { jar, csrfToken, response }
}

describe("database sessions", () => {
  it("credentials sign-in creates a session row and the cookie holds only its token", async () => {
    const { config, sessions } = setup()
    const { jar, response } = await signIn(config)
    expect(response.status).toBe(302)
    expect(sessions.size).toBe(1)
    const [token, row] = [...sessions][0]!
    expect(jar.get(sessionCookie)).toBe(token)
    expect(token).toMatch(/^[0-9a-f-]{36}$/)
    expect(row.userId).toBe("u1")
  })

  it("GET /session reads through getSessionAndUser and the session callback gets the row and the user", async () => {
    const session = vi.fn(({ session, user }) => ({ expires: session.expires.toISOString(), user: { name: user.name }, rowExpiresIsDate: session.expires instanceof Date }))
    const { config, adapter } = setup({ callbacks: { session } })
    const { jar } = await signIn(config)
    const body = await (await send(config, jar, "/session")).json()
    expect(body.user).toEqual({ name: "Ada" })
    expect(body.rowExpiresIsDate).toBe(true)
    expect(adapter.getSessionAndUser).toHaveBeenCalledWith(jar.get(sessionCookie))
  })

  it("updateAge throttles writes; 0 writes on every read", async () => {
    const throttled = setup()
    const first = await signIn(throttled.config)
    await send(throttled.config, first.jar, "/session")
    expect(throttled.adapter.updateSession).not.toHaveBeenCalled()

    const eager = setup({ session: { updateAge: 0 } })
    const second = await signIn(eager.config)
    await send(eager.config, second.jar, "/session")
    await send(eager.config, second.jar, "/session")
    expect(eager.adapter.updateSession).toHaveBeenCalledTimes(2)
  })

  it("an expired session is deleted, reads as null and its cookie is cleared", async () => {
    const { config, sessions, adapter } = setup()
    const { jar } = await signIn(config)
    const [token, row] = [...sessions][0]!
    sessions.set(token, { ...row, expires: new Date(Date.now() - 1000) })
    const response = await send(config, jar, "/session")
    expect(await response.json()).toBeNull()
    expect(adapter.deleteSession).toHaveBeenCalledWith(token)
    expect(sessions.size).toBe(0)
    expect(jar.get(sessionCookie)).toBeUndefined()
  })

  it("a cookie with no session row reads as null and is cleared", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    jar.cookies.set(sessionCookie, "no-such-token")
    expect(await (await send(config, jar, "/session")).json()).toBeNull()
    expect(jar.get(sessionCookie)).toBeUndefined()
  })

  it("sign-out deletes the row and fires events.signOut with it", async () => {
    const { config, sessions, signOut } = setup()
    const { jar, csrfToken } = await signIn(config)
    const [token] = [...sessions][0]!
    await send(config, jar, "/signout", { form: { csrfToken } })
    expect(sessions.size).toBe(0)
    expect(signOut).toHaveBeenCalledWith({ session: expect.objectContaining({ sessionToken: token, userId: "u1" }) })
    expect(jar.get(sessionCookie)).toBeUndefined()
  })

  it("a throwing adapter on read logs SessionTokenError and answers null, not 500", async () => {
    const errors: Error[] = []
    const { config, adapter } = setup({ logger: { error: (e) => void errors.push(e) } })
    const { jar } = await signIn(config)
    adapter.getSessionAndUser.mockRejectedValueOnce(new Error("connection reset"))
    const response = await send(config, jar, "/session")
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(errors.map((e) => e.name)).toContain("SessionTokenError")
  })
})
