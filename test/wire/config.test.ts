import { afterEach, describe, expect, it, vi } from "vitest"
import { Duo, authflow, authjs, credentialsConfig, expectSameWire, recorder, sessionCookieName, sides, typesOf, type Side, type SideName } from "./harness.js"
import { setEnvDefaults as authflowSetEnvDefaults } from "../../src/index.js"
import { setEnvDefaults as authjsSetEnvDefaults } from "@auth/core"
import type { Adapter, AdapterSession, AdapterUser } from "../../src/adapters.js"
import type { AuthConfig } from "../../src/types.js"
import { cookieNames } from "../helpers.js"

afterEach(() => {
  vi.restoreAllMocks()
})

const serverMessage = { message: "There was a problem with the server configuration. Check the server logs for more information." }

function setup(extra: (side: Side) => Partial<AuthConfig>) {
  const logs = { authflow: recorder(), authjs: recorder() }
  const duo = new Duo((side) => ({ ...credentialsConfig(side, { logger: logs[side.name].logger }), ...extra(side) }))
  return { duo, logs }
}

/** Every method of the database-session contract, as own properties. */
function fullAdapter(): Adapter {
  const user: AdapterUser = { id: "u1", email: "ada@example.test", emailVerified: null, name: "Ada" }
  const session: AdapterSession = { sessionToken: "tok", userId: "u1", expires: new Date(Date.now() + 86_400_000) }
  return {
    createUser: async (u) => ({ ...user, ...u }),
    getUser: async () => user,
    getUserByEmail: async () => user,
    getUserByAccount: async () => user,
    updateUser: async (u) => ({ ...user, ...u }),
    linkAccount: async () => undefined,
    createSession: async (s) => s,
    getSessionAndUser: async (token) => (token === "tok" ? { session, user } : null),
    updateSession: async () => session,
    deleteSession: async () => session,
  }
}

/** An OAuth provider that passes the endpoint checks (it has an issuer); never signed in with here. */
const oauthProvider = { id: "idp", name: "IdP", type: "oauth", issuer: "https://idp.test", clientId: "client" } as never

interface Case {
  title: string
  type: string
  extra: (side: Side) => Partial<AuthConfig>
  /** Extra request parts that trigger the check. */
  query?: string
  cookie?: string
}

const cases: Case[] = [
  { title: "trustHost unset", type: "UntrustedHost", extra: () => ({ trustHost: undefined }) },
  { title: "trustHost false", type: "UntrustedHost", extra: () => ({ trustHost: false }) },
  { title: "no secret", type: "MissingSecret", extra: () => ({ secret: undefined }) },
  { title: "empty secret", type: "MissingSecret", extra: () => ({ secret: "" }) },
  { title: "empty secret array", type: "MissingSecret", extra: () => ({ secret: [] }) },
  {
    title: "a credentials provider without authorize",
    type: "MissingAuthorize",
    extra: () => ({ providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: {} } as never] }),
  },
  {
    // Not credentials alone: Auth.js would answer UnsupportedStrategy first (see the difference below).
    title: "database strategy without an adapter",
    type: "MissingAdapter",
    extra: (side) => ({ session: { strategy: "database" }, providers: [...credentialsConfig(side).providers, oauthProvider] }),
  },
  {
    title: "an adapter missing database-session methods",
    type: "MissingAdapterMethods",
    extra: () => {
      const { getSessionAndUser, deleteSession, ...partial } = fullAdapter()
      void getSessionAndUser, void deleteSession
      return { adapter: partial }
    },
  },
]

/** Requests whose `callbackUrl` (query or cookie) is not a URL: Auth.js calls them a configuration error. */
const invalidCallbackUrls: { title: string; query?: string; cookie?: string }[] = [
  { title: "a javascript: callbackUrl in the query", query: "callbackUrl=javascript%3Aalert(1)" },
  { title: "an ftp: callbackUrl in the query", query: "callbackUrl=ftp%3A%2F%2Fapp.test%2F" },
  { title: "a relative callbackUrl without a leading slash", query: "callbackUrl=dashboard" },
  { title: "a javascript: callback-url cookie", cookie: `${cookieNames.https.callbackUrl}=javascript%3Aalert(1)` },
]

describe("authflow differs: a callbackUrl that is not a URL is the request's mistake, answered 400 (Auth.js: 500 configuration error)", () => {
  const badRequest = { message: "Invalid callback URL: use a path on this site (such as /dashboard) or an http(s) URL." }

  it.each(invalidCallbackUrls)("$title → 400 JSON on API routes, InvalidCallbackUrl logged on both sides", async ({ query, cookie }) => {
    const { duo, logs } = setup(() => ({}))
    for (const path of ["/session", "/csrf", "/providers"]) {
      const { authflow: ours, authjs: theirs } = await duo.send(`${path}${query ? `?${query}` : ""}`, cookie ? { cookie } : {})
      expect(theirs.status).toBe(500)
      expect(await theirs.json()).toEqual(serverMessage)
      expect(ours.status).toBe(400)
      expect(await ours.json()).toEqual(badRequest)
    }
    const { authflow: ours, authjs: theirs } = await duo.send(`/signin${query ? `?${query}` : ""}`, { form: {}, ...(cookie && { cookie }) })
    expect([ours.status, theirs.status]).toEqual([400, 500])
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["InvalidCallbackUrl", "InvalidCallbackUrl", "InvalidCallbackUrl", "InvalidCallbackUrl"])
  })

  it.each(invalidCallbackUrls)("$title → the error page with 400 on GET /signin (Auth.js: the Configuration page, 500)", async ({ query, cookie }) => {
    const { duo } = setup(() => ({}))
    const { authflow: ours, authjs: theirs } = await duo.send(`/signin${query ? `?${query}` : ""}`, cookie ? { cookie } : {})
    expect(theirs.status).toBe(500)
    expect(ours.status).toBe(400)
    expect(ours.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(await ours.text()).not.toMatch(/server configuration/i)
  })

  it("an invalid callback-url cookie is cleared, so the next request from that browser is served", async () => {
    const { duo } = setup(() => ({}))
    const cookie = `${cookieNames.https.callbackUrl}=javascript%3Aalert(1)`
    const first = await duo.sendTo(authflow, "/session", { cookie, noJar: true })
    expect(first.status).toBe(400)
    const cleared = first.headers.getSetCookie().find((header) => header.startsWith(`${cookieNames.https.callbackUrl}=`))
    expect(cleared).toMatch(/^__Secure-authjs\.callback-url=;.*Max-Age=0/i)
    // A valid query with the invalid cookie: still refused (the cookie is checked too), and cleared again.
    const second = await duo.sendTo(authflow, "/session?callbackUrl=%2Fok", { cookie, noJar: true })
    expect(second.status).toBe(400)
    expect(second.headers.getSetCookie().some((header) => header.startsWith(`${cookieNames.https.callbackUrl}=;`))).toBe(true)
    // An invalid query with no cookie clears nothing.
    const third = await duo.sendTo(authflow, "/session?callbackUrl=dashboard", { noJar: true })
    expect(third.headers.getSetCookie()).toEqual([])
  })

  it("with pages.error set, GET /signin redirects there with error=Default (Auth.js: error=Configuration)", async () => {
    const { duo } = setup(() => ({ pages: { error: "/oops" } }))
    const ours = await duo.sendTo(authflow, "/signin?callbackUrl=dashboard", { noJar: true })
    expect(ours.status).toBe(302)
    expect(ours.headers.get("location")).toBe("https://app.test/oops?error=Default")
  })
})

describe("configuration assertions: 500 JSON for API routes", () => {
  it.each(cases)("$title → $type", async ({ type, extra, query, cookie }) => {
    const { duo, logs } = setup(extra)
    for (const path of ["/session", "/csrf", "/providers"]) {
      const wire = await expectSameWire(await duo.send(`${path}${query ? `?${query}` : ""}`, cookie ? { cookie } : {}))
      expect(wire).toMatchObject({ status: 500, contentType: "application/json", body: serverMessage, cookies: {}, location: null })
    }
    const post = await expectSameWire(await duo.send(`/signin${query ? `?${query}` : ""}`, { form: {}, ...(cookie && { cookie }) }))
    expect(post).toMatchObject({ status: 500, body: serverMessage })
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual([type, type, type, type])
  })

  it("the logged error says what is wrong", async () => {
    const { duo, logs } = setup(() => ({ trustHost: false }))
    await duo.send("/session?x=1")
    // Deliberate difference: the message says how to fix it, and leaves the URL (which may carry a token) out.
    expect(logs.authjs.errors[0]!.message).toMatch(/^Host must be trusted\. URL was: https:\/\/app\.test\/auth\/session\?x=1/)
    expect(logs.authflow.errors[0]!.message).toMatch(/^The request's Host cannot be trusted: set AUTH_URL \(or `origin`\).*AUTH_TRUST_HOST=true/)
    expect(logs.authflow.errors[0]!.message).not.toContain("x=1")
    const missing = setup(() => {
      const { getSessionAndUser, deleteSession, ...partial } = fullAdapter()
      void getSessionAndUser, void deleteSession
      return { adapter: partial }
    })
    await missing.duo.send("/session")
    for (const side of sides) {
      expect(missing.logs[side.name].errors[0]!.message).toMatch(/^Required adapter methods were missing: getSessionAndUser, deleteSession/)
    }
  })

  it("the first failing check wins: UntrustedHost before MissingSecret before InvalidCallbackUrl", async () => {
    const { duo, logs } = setup(() => ({ trustHost: false, secret: undefined }))
    await duo.send("/session?callbackUrl=javascript%3Ax")
    const second = setup(() => ({ secret: undefined }))
    await second.duo.send("/session?callbackUrl=javascript%3Ax")
    for (const side of sides) {
      expect(typesOf(logs[side.name].errors)).toEqual(["UntrustedHost"])
      expect(typesOf(second.logs[side.name].errors)).toEqual(["MissingSecret"])
    }
  })

  it("an invalid callbackUrl in the body is not a configuration error (only the query is checked)", async () => {
    const { duo } = setup(() => ({}))
    const wire = await expectSameWire(await duo.post("/signin", { callbackUrl: "javascript:alert(1)" }))
    expect(wire.status).toBe(302)
  })

  it("a relative callbackUrl with a leading slash is valid", async () => {
    const { duo } = setup(() => ({}))
    const wire = await expectSameWire(await duo.send("/session?callbackUrl=%2Fdashboard"))
    expect(wire.status).toBe(200)
  })

  it("X-Auth-Return-Redirect does not change a configuration error", async () => {
    const { duo } = setup(() => ({ trustHost: false }))
    const wire = await expectSameWire(await duo.post("/callback/credentials", {}, { headers: { "X-Auth-Return-Redirect": "1" } }))
    expect(wire).toMatchObject({ status: 500, body: serverMessage })
  })
})

describe("configuration assertions: page GETs", () => {
  const pages = ["/signin", "/signout", "/error", "/verify-request"]

  it.each(pages)("GET %s → the built-in Configuration page, 500", async (path) => {
    const { duo } = setup(() => ({ secret: undefined }))
    const wire = await expectSameWire(await duo.send(path))
    expect(wire).toMatchObject({ status: 500, contentType: "text/html", body: "<html>", cookies: {} })
  })

  it.each(pages)("GET %s with pages.error → 302 to <origin><pages.error>?error=Configuration", async (path) => {
    const { duo, logs } = setup(() => ({ secret: undefined, pages: { error: "/oops" } }))
    const wire = await expectSameWire(await duo.send(path))
    expect(wire).toMatchObject({ status: 302, location: "https://app.test/oops?error=Configuration" })
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["MissingSecret"])
  })

  it.each(cases)("$title → $type: GET /signin is the Configuration page, or the pages.error redirect", async ({ type, extra, query, cookie }) => {
    const path = `/signin${query ? `?${query}` : ""}`
    const plain = setup(extra)
    const page = await expectSameWire(await plain.duo.send(path, cookie ? { cookie } : {}))
    expect(page).toMatchObject({ status: 500, contentType: "text/html", cookies: {} })
    const redirected = setup((side) => ({ ...extra(side), pages: { error: "/oops" } }))
    const redirect = await expectSameWire(await redirected.duo.send(path, cookie ? { cookie } : {}))
    expect(redirect).toMatchObject({ status: 302, location: "https://app.test/oops?error=Configuration" })
    for (const side of sides) expect(typesOf([...plain.logs[side.name].errors, ...redirected.logs[side.name].errors])).toEqual([type, type])
  })

  it("an API route with pages.error is still 500 JSON", async () => {
    const { duo } = setup(() => ({ secret: undefined, pages: { error: "/oops" } }))
    expect((await expectSameWire(await duo.send("/session"))).status).toBe(500)
  })

  it("ErrorPageLoop: a callbackUrl that starts with pages.error → logged, built-in page instead of the redirect", async () => {
    const { duo, logs } = setup(() => ({ trustHost: false, pages: { error: "/oops" } }))
    const wire = await expectSameWire(await duo.send("/signin?callbackUrl=%2Foops%3Ferror%3DConfiguration"))
    expect(wire).toMatchObject({ status: 500, contentType: "text/html", location: null })
    for (const side of sides) {
      expect(typesOf(logs[side.name].errors)).toEqual(["UntrustedHost", "ErrorPageLoop"])
      expect(logs[side.name].errors[1]!.message).toMatch(/^The error page \/oops should not require authentication/)
    }
  })

  it("the built-in Configuration page says there is a problem with the server configuration", async () => {
    const { duo } = setup(() => ({ trustHost: false }))
    const pair = await duo.send("/signin")
    for (const side of sides) {
      const html = await pair[side.name].text()
      expect(html).toContain("Server error")
      expect(html).toContain("There is a problem with the server configuration.")
    }
  })

  it("authflow differs: an absolute pages.error is honoured (Auth.js prefixes it with the origin)", async () => {
    const { duo } = setup(() => ({ secret: undefined, pages: { error: "https://status.test/auth-error" } }))
    const { authflow: ours, authjs: theirs } = await duo.send("/signin")
    expect(ours.headers.get("location")).toBe("https://status.test/auth-error?error=Configuration")
    expect(theirs.headers.get("location")).toMatch(/^https:\/\/app\.testhttps/)
  })
})

describe("session strategies and adapters", () => {
  it("an adapter without an explicit strategy means database sessions: the session is looked up by token", async () => {
    const { duo } = setup(() => ({ adapter: fullAdapter(), providers: [] }))
    const wire = await expectSameWire(await duo.send("/session", { cookie: `${sessionCookieName()}=tok` }))
    expect(wire.body).toMatchObject({ user: { name: "Ada", email: "ada@example.test" } })
    expect(wire.cookies[sessionCookieName()]).toMatchObject({ value: "tok", attributes: { expires: "43200 min" } })
  })

  it("authflow differs: UnsupportedStrategy is an unknown strategy string (Auth.js does not check it)", async () => {
    const { duo, logs } = setup(() => ({ session: { strategy: "cookie" as never } }))
    const { authflow: ours } = await duo.send("/session")
    expect(ours.status).toBe(500)
    expect(await ours.json()).toEqual(serverMessage)
    expect(typesOf(logs.authflow.errors)).toEqual(["UnsupportedStrategy"])
    expect(logs.authjs.errors.map((error) => (error as { type?: string }).type)).not.toContain("UnsupportedStrategy")
  })

  it("authflow differs: credentials with database sessions is supported (Auth.js answers UnsupportedStrategy)", async () => {
    const created: unknown[] = []
    const adapter = (): Adapter => ({ ...fullAdapter(), createSession: async (session) => (created.push(session), session) })
    const { duo, logs } = setup(() => ({ adapter: adapter(), session: { strategy: "database" } }))
    const { authflow: ours, authjs: theirs } = await duo.post("/callback/credentials", { username: "ada" })
    expect(theirs.status).toBe(500)
    expect(typesOf(logs.authjs.errors)).toContain("UnsupportedStrategy")
    expect(ours.status).toBe(302)
    expect(created).toHaveLength(1)
    expect(ours.headers.getSetCookie().some((header) => header.startsWith(`${sessionCookieName()}=`))).toBe(true)
  })

  it("authflow differs: adapter methods on a class prototype are used (Auth.js drops them)", async () => {
    class PrototypeAdapter {
      constructor(private readonly inner = fullAdapter()) {}
      createUser(user: AdapterUser) { return this.inner.createUser!(user) }
      getUser(id: string) { return this.inner.getUser!(id) }
      getUserByEmail(email: string) { return this.inner.getUserByEmail!(email) }
      getUserByAccount(account: { provider: string; providerAccountId: string }) { return this.inner.getUserByAccount!(account) }
      updateUser(user: Partial<AdapterUser> & { id: string }) { return this.inner.updateUser!(user) }
      linkAccount() { return undefined }
      createSession(session: AdapterSession) { return this.inner.createSession!(session) }
      getSessionAndUser(token: string) { return this.inner.getSessionAndUser!(token) }
      updateSession(session: Partial<AdapterSession> & { sessionToken: string }) { return this.inner.updateSession!(session) }
      deleteSession(token: string) { return this.inner.deleteSession!(token) }
    }
    const { duo, logs } = setup(() => ({ adapter: new PrototypeAdapter() as Adapter, providers: [] }))
    const { authflow: ours, authjs: theirs } = await duo.send("/session", { cookie: `${sessionCookieName()}=tok` })
    expect(await ours.json()).toMatchObject({ user: { name: "Ada" } })
    expect(await theirs.json()).toBeNull()
    expect(typesOf(logs.authjs.errors)).toEqual(["SessionTokenError"])
    expect(logs.authflow.errors).toEqual([])
  })
})

describe("database sessions through the adapter", () => {
  const token = `${sessionCookieName()}=tok`

  function databaseSetup(adapter: () => Adapter, extra: Partial<AuthConfig> = {}) {
    return setup(() => ({ adapter: adapter(), ...extra }))
  }

  it("each adapter call is debug-logged as adapter_<method>", async () => {
    const { duo, logs } = databaseSetup(fullAdapter)
    await expectSameWire(await duo.send("/session", { cookie: token }))
    for (const side of sides) expect(logs[side.name].debugs).toContain("adapter_getSessionAndUser")
  })

  it("a failing adapter method is logged as AdapterError, then SessionTokenError; the answer is null", async () => {
    const { duo, logs } = databaseSetup(() => ({ ...fullAdapter(), getSessionAndUser: () => Promise.reject(new Error("db down")) }))
    const wire = await expectSameWire(await duo.send("/session", { cookie: token }))
    expect(wire.body).toBeNull()
    for (const side of sides) {
      expect(typesOf(logs[side.name].errors)).toEqual(["AdapterError", "SessionTokenError"])
      const [adapterError, sessionError] = logs[side.name].errors as [Error, Error]
      expect((adapterError.cause as { err: Error }).err.message).toBe("db down")
      // Auth.js flattens the nested cause (err is the original error); authflow keeps the chain.
      const err = (sessionError.cause as { err: Error }).err
      expect(err === adapterError || err === (adapterError.cause as { err: Error }).err).toBe(true)
    }
  })

  it("an unknown session token: null and the cookie cleared", async () => {
    const { duo } = databaseSetup(fullAdapter)
    const wire = await expectSameWire(await duo.send("/session", { cookie: `${sessionCookieName()}=unknown` }))
    expect(wire.body).toBeNull()
    expect(wire.cookies[sessionCookieName()]).toMatchObject({ value: "", attributes: { "max-age": "0" } })
  })

  it("an expired session is deleted and the cookie cleared", async () => {
    const deleted: Record<SideName, string[]> = { authflow: [], authjs: [] }
    const logs = { authflow: recorder(), authjs: recorder() }
    const duo = new Duo((side) => ({
      ...credentialsConfig(side, { logger: logs[side.name].logger }),
      adapter: {
        ...fullAdapter(),
        getSessionAndUser: async () => ({
          session: { sessionToken: "tok", userId: "u1", expires: new Date(Date.now() - 1000) },
          user: { id: "u1", email: "ada@example.test", emailVerified: null },
        }),
        deleteSession: async (sessionToken: string) => void deleted[side.name].push(sessionToken),
      },
    }))
    const wire = await expectSameWire(await duo.send("/session", { cookie: token }))
    expect(wire.body).toBeNull()
    expect(wire.cookies[sessionCookieName()]).toMatchObject({ value: "" })
    expect(deleted).toEqual({ authflow: ["tok"], authjs: ["tok"] })
  })

  it("updateAge throttles updateSession; the cookie is re-emitted either way", async () => {
    // A session written a minute ago: due for an update only when updateAge is under a minute.
    const fresh = () => ({
      session: { sessionToken: "tok", userId: "u1", expires: new Date(Date.now() + 30 * 86_400_000 - 60_000) },
      user: { id: "u1", email: "ada@example.test", emailVerified: null },
    })
    for (const [updateAge, expected] of [[86_400, 0], [0, 1]] as const) {
      const updates: Record<SideName, number> = { authflow: 0, authjs: 0 }
      const duo = new Duo((side) => ({
        ...credentialsConfig(side, { logger: recorder().logger, session: { updateAge } }),
        adapter: { ...fullAdapter(), getSessionAndUser: async () => fresh(), updateSession: async () => void (updates[side.name] += 1) },
      }))
      const wire = await expectSameWire(await duo.send("/session", { cookie: token }))
      expect(wire.cookies[sessionCookieName()]).toMatchObject({ value: "tok", attributes: { expires: "43200 min" } })
      expect(updates).toEqual({ authflow: expected, authjs: expected })
    }
  })

  it("POST /signout deletes the session and gives events.signOut what deleteSession returned", async () => {
    const seen: Record<SideName, unknown[]> = { authflow: [], authjs: [] }
    const duo = new Duo((side) => ({
      ...credentialsConfig(side, { logger: recorder().logger, events: { signOut: (message) => void seen[side.name].push(message) } }),
      adapter: { ...fullAdapter(), deleteSession: async (sessionToken: string) => ({ sessionToken, userId: "u1", expires: new Date(0) }) },
    }))
    const wire = await expectSameWire(await duo.post("/signout", {}, { cookie: token }))
    expect(wire.cookies[sessionCookieName()]).toMatchObject({ value: "" })
    expect(seen.authflow).toEqual([{ session: { sessionToken: "tok", userId: "u1", expires: new Date(0) } }])
    expect(seen.authjs).toEqual(seen.authflow)
  })

  it("a failing deleteSession at sign-out: AdapterError then SignOutError; the cookie is cleared anyway", async () => {
    const { duo, logs } = databaseSetup(() => ({ ...fullAdapter(), deleteSession: () => Promise.reject(new Error("db down")) }))
    const wire = await expectSameWire(await duo.post("/signout", {}, { cookie: token }))
    expect(wire.cookies[sessionCookieName()]).toMatchObject({ value: "" })
    for (const side of sides) expect(typesOf(logs[side.name].errors)).toEqual(["AdapterError", "SignOutError"])
  })
})

describe("logger", () => {
  it("a custom logger gets every level; debug is called even without debug: true", async () => {
    const { duo, logs } = setup(() => ({}))
    await duo.send("/nope")
    for (const side of sides) {
      expect(typesOf(logs[side.name].errors)).toEqual(["UnknownAction"])
      expect(logs[side.name].debugs).toEqual(["request"])
    }
  })

  it("each level is overridable alone: a custom warn, the built-in error (console.error)", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {})
    const warnings: Record<SideName, string[]> = { authflow: [], authjs: [] }
    const duo = new Duo((side) =>
      credentialsConfig(side, { skipCSRFCheck: side.skipCSRFCheck, logger: { warn: (code: string) => void warnings[side.name].push(code) } }),
    )
    await duo.sendTo(authflow, "/csrf")
    expect(warnings.authflow).toEqual(["csrf-disabled"])
    await duo.sendTo(authflow, "/signin/credentials")
    expect(consoleError.mock.calls.some(([first]) => String(first).includes("[auth][error]") && String(first).includes("UnknownAction"))).toBe(true)
    consoleError.mockClear()
    await duo.sendTo(authjs, "/csrf")
    expect(warnings.authjs).toEqual(["csrf-disabled"])
    await duo.sendTo(authjs, "/signin/credentials")
    expect(consoleError.mock.calls.some(([first]) => String(first).includes("[auth][error]") && String(first).includes("UnknownAction"))).toBe(true)
  })

  it("without a custom logger, debug output needs debug: true", async () => {
    const consoleLog = vi.spyOn(console, "log").mockImplementation(() => {})
    vi.spyOn(console, "error").mockImplementation(() => {})
    vi.spyOn(console, "warn").mockImplementation(() => {})
    for (const side of sides) {
      consoleLog.mockClear()
      const quiet = { ...credentialsConfig(side), debug: false }
      await side.Auth(new Request("https://app.test/auth/nope"), quiet)
      expect(consoleLog.mock.calls.filter(([first]) => String(first).includes("[auth][debug]"))).toEqual([])
      const loud = { ...credentialsConfig(side), debug: true }
      await side.Auth(new Request("https://app.test/auth/nope"), loud)
      expect(consoleLog.mock.calls.some(([first, second]) => String(first).includes("[auth][debug]") && second !== undefined), side.name).toBe(true)
    }
  })

  it("a custom debug level replaces the debug flag (debug: false does not silence it)", async () => {
    const debugs: Record<SideName, string[]> = { authflow: [], authjs: [] }
    const duo = new Duo((side) => credentialsConfig(side, { debug: false, logger: { debug: (m: string) => void debugs[side.name].push(m), error() {} } }))
    await duo.send("/nope")
    expect(debugs.authflow).toEqual(["request"])
    expect(debugs.authjs).toEqual(debugs.authflow)
  })

  it("debug: true warns debug-enabled (authflow: once per configuration; Auth.js: once per process)", async () => {
    const { logs } = { logs: recorder() }
    const config = credentialsConfig(authflow, { debug: true, logger: logs.logger })
    await authflow.Auth(new Request("https://app.test/auth/session"), config)
    await authflow.Auth(new Request("https://app.test/auth/session"), config)
    expect(logs.warnings).toEqual(["debug-enabled"])
  })
})

describe("environment defaults", () => {
  it("authflow differs: AUTH_TRUST_HOST=\"false\" means false (Auth.js: any non-empty string is true)", () => {
    const ours: AuthConfig = { providers: [] }
    const theirs = { providers: [] } as Parameters<typeof authjsSetEnvDefaults>[1]
    authflowSetEnvDefaults({ AUTH_TRUST_HOST: "false" }, ours)
    authjsSetEnvDefaults({ AUTH_TRUST_HOST: "false" }, theirs)
    expect(ours.trustHost).toBe(false)
    expect(theirs.trustHost).toBe(true)
  })

  it("AUTH_TRUST_HOST=\"true\" and AUTH_SECRET_1..3 rotation agree", () => {
    const env = { AUTH_TRUST_HOST: "true", AUTH_SECRET: "s0", AUTH_SECRET_1: "s1", AUTH_SECRET_3: "s3" }
    const ours: AuthConfig = { providers: [] }
    const theirs = { providers: [] } as Parameters<typeof authjsSetEnvDefaults>[1]
    authflowSetEnvDefaults(env, ours)
    authjsSetEnvDefaults(env, theirs)
    expect([ours.trustHost, ours.secret, ours.basePath]).toEqual([theirs.trustHost, theirs.secret, theirs.basePath])
    expect(ours.secret).toEqual(["s3", "s1", "s0"])
  })
})
