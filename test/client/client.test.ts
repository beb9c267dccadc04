/**
 * The browser client (`authflow/client`) against a real `Auth()`: `fetch` is replaced by a function
 * that hands each request to `Auth()` with a cookie jar, and `window.location` by a recorder.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import * as client from "../../src/client/index.js"
import type { AuthConfig } from "../../src/types.js"
import { adaCredentials, CookieJar, cookieNames, recordingLogger } from "../helpers.js"

const origin = "http://app.test"
const page = `${origin}/account`

function configFor(basePath: string): AuthConfig {
  return {
    basePath,
    secret: "client-test-secret-client-test-secret",
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [
      adaCredentials(),
    ],
    callbacks: {
      jwt({ token, trigger, session }) {
        const name = (session as { name?: unknown } | undefined)?.name
        if (trigger === "update" && typeof name === "string") token.name = name
        return token
      },
    },
  }
}

interface Browser {
  jar: CookieJar
  requests: { method: string; url: URL; headers: Headers; body: string }[]
  location: { href: string; reload: ReturnType<typeof vi.fn> }
}

/** A browser whose `fetch` reaches `Auth(config)` and whose cookies live in a jar. */
function browserFor(config: AuthConfig): Browser {
  const jar = new CookieJar()
  const requests: Browser["requests"] = []
  vi.stubGlobal("fetch", async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input), origin)
    const headers = new Headers(init?.headers)
    if (jar.cookies.size) headers.set("cookie", jar.header())
    const body = typeof init?.body === "string" ? init.body : ""
    requests.push({ method: init?.method ?? "GET", url, headers, body })
    const response = await Auth(new Request(url, { method: init?.method ?? "GET", headers, body: body || undefined }), config)
    jar.take(response)
    return response
  })
  const location = { href: page, reload: vi.fn() }
  vi.stubGlobal("window", { location })
  return { jar, requests, location }
}

/** Collects what other tabs hear on the `next-auth` channel. */
function otherTab() {
  const heard: unknown[] = []
  const channel = new BroadcastChannel("next-auth")
  channel.onmessage = (event) => void heard.push(event.data)
  return {
    heard,
    close: () => channel.close(),
    /** Messages cross threads asynchronously. */
    settle: () => new Promise((resolve) => setTimeout(resolve, 50)),
  }
}

describe("authflow/client against Auth()", () => {
  let browser: Browser
  beforeEach(() => {
    client.configure({ basePath: "/api/auth", baseUrl: "" })
    browser = browserFor(configFor("/api/auth"))
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it("defaults to /api/auth and reads providers, a CSRF token and an empty session", async () => {
    const providers = await client.getProviders()
    expect(providers?.credentials).toMatchObject({ id: "credentials", type: "credentials", callbackUrl: `${origin}/api/auth/callback/credentials` })
    expect(await client.getCsrfToken()).toMatch(/^[0-9a-f]{64}$/)
    expect(await client.getSession()).toBeNull()
    expect(browser.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      "GET /api/auth/providers",
      "GET /api/auth/csrf",
      "GET /api/auth/session",
    ])
  })

  it("reads a rate-limited sign-in as error RateLimited with status 429, signed out", async () => {
    vi.unstubAllGlobals()
    browser = browserFor({ ...configFor("/api/auth"), rateLimit: { limits: { credentials: { identifier: { max: 0, windowSeconds: 60 } }, session: { ip: false } } } })
    const result = await client.signIn("credentials", { username: "ada", password: "lovelace", redirect: false })
    expect(result).toEqual({ error: "RateLimited", code: undefined, status: 429, ok: false, url: null })
    expect(browser.jar.get(cookieNames.http.sessionToken)).toBeUndefined()
  })

  it("signs in with credentials without navigating, posting the Auth.js client's form", async () => {
    const result = await client.signIn("credentials", { username: "ada", password: "lovelace", redirect: false }, { prompt: "none" })
    expect(result).toEqual({ error: undefined, code: undefined, status: 200, ok: true, url: page })
    expect(browser.location.href).toBe(page)
    const post = browser.requests.find((r) => r.method === "POST")!
    expect(post.url.pathname).toBe("/api/auth/callback/credentials")
    expect(post.url.search).toBe("?prompt=none")
    expect(post.headers.get("x-auth-return-redirect")).toBe("1")
    expect(post.headers.get("content-type")).toBe("application/x-www-form-urlencoded")
    const form = Object.fromEntries(new URLSearchParams(post.body))
    expect(form).toMatchObject({ username: "ada", password: "lovelace", callbackUrl: page })
    expect(form.csrfToken).toMatch(/^[0-9a-f]{64}$/)
    expect(form).not.toHaveProperty("redirect")
    const session = await client.getSession()
    expect(session?.user).toMatchObject({ name: "Ada Lovelace", email: "ada@example.test" })
  })

  it("returns the error and code of a refused sign-in", async () => {
    const result = await client.signIn("credentials", { username: "ada", password: "wrong", redirect: false })
    expect(result).toEqual({ error: "CredentialsSignin", code: "credentials", status: 200, ok: false, url: null })
    expect(await client.getSession()).toBeNull()
  })

  it("navigates to the answer, or to redirectTo", async () => {
    await client.signIn("credentials", { username: "ada", password: "lovelace", redirectTo: "/dashboard" })
    expect(browser.location.href).toBe(`${origin}/dashboard`)
    expect(browser.location.reload).not.toHaveBeenCalled()
  })

  it("reloads when the answer differs from the current page only in its fragment", async () => {
    await client.signIn("credentials", { username: "ada", password: "lovelace", redirectTo: `${page}#welcome` })
    expect(browser.location.href).toBe(`${page}#welcome`)
    expect(browser.location.reload).toHaveBeenCalledOnce()
  })

  it("sends the browser to the sign-in page for no provider or an unknown one", async () => {
    await client.signIn()
    expect(browser.location.href).toBe(`/api/auth/signin?${new URLSearchParams({ callbackUrl: page })}`)
    browser.location.href = page
    await client.signIn("nope", { redirectTo: "/after" })
    expect(browser.location.href).toBe(`/api/auth/signin?${new URLSearchParams({ callbackUrl: "/after" })}`)
    expect(browser.requests.some((r) => r.method === "POST")).toBe(false)
  })

  it("reads a FormData as the options", async () => {
    const form = new FormData()
    form.set("username", "ada")
    form.set("password", "lovelace")
    form.set("redirect", "false")
    const result = await client.signIn("credentials", form)
    expect(result?.ok).toBe(true)
  })

  it("updates the session through the jwt callback and tells the other tabs", async () => {
    await client.signIn("credentials", { username: "ada", password: "lovelace", redirect: false })
    const tab = otherTab()
    try {
      const session = await client.update({ name: "Ada King" })
      expect(session?.user?.name).toBe("Ada King")
      const post = browser.requests.at(-1)!
      expect(`${post.method} ${post.url.pathname}`).toBe("POST /api/auth/session")
      const body = JSON.parse(post.body) as { csrfToken: string; data: unknown }
      expect(body.data).toEqual({ name: "Ada King" })
      expect(body.csrfToken).toMatch(/^[0-9a-f]{64}$/)
      expect((await client.getSession())?.user?.name).toBe("Ada King")
      await tab.settle()
      expect(tab.heard).toContainEqual({ event: "session", data: { trigger: "update" } })
    } finally {
      tab.close()
    }
  })

  it("signs out, tells the other tabs and this tab's listeners, and navigates", async () => {
    await client.signIn("credentials", { username: "ada", password: "lovelace", redirect: false })
    const tab = otherTab()
    const local = vi.fn()
    const stop = client.onSessionChange(local)
    try {
      expect(await client.signOut({ redirect: false, redirectTo: "/bye" })).toEqual({ url: `${origin}/bye` })
      expect(await client.getSession()).toBeNull()
      expect(local).toHaveBeenCalledWith({ event: "session", data: { trigger: "signout" } })
      await tab.settle()
      expect(tab.heard).toContainEqual({ event: "session", data: { trigger: "signout" } })
      await client.signIn("credentials", { username: "ada", password: "lovelace", redirect: false })
      await client.signOut()
      expect(browser.location.href).toBe(page)
      const post = browser.requests.at(-1)!
      expect(post.headers.get("x-auth-return-redirect")).toBe("1")
      expect(Object.fromEntries(new URLSearchParams(post.body))).toMatchObject({ callbackUrl: page })
    } finally {
      stop()
      tab.close()
    }
  })

  it("uses the configured base path", async () => {
    vi.unstubAllGlobals()
    browser = browserFor(configFor("/auth"))
    client.configure({ basePath: "/auth/" })
    expect(client.clientConfig().basePath).toBe("/auth")
    expect((await client.signIn("credentials", { username: "ada", password: "lovelace", redirect: false }))?.ok).toBe(true)
    expect((await client.getSession())?.user?.name).toBe("Ada Lovelace")
    expect(browser.requests.every((r) => r.url.pathname.startsWith("/auth/"))).toBe(true)
  })

  it("reads a failed session request as no session", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {})
    vi.stubGlobal("fetch", async () => Response.json({ message: "There was a problem with the server configuration." }, { status: 500 }))
    expect(await client.getSession()).toBeNull()
    expect(await client.getCsrfToken()).toBeUndefined()
    expect(await client.update({ name: "x" })).toBeNull()
    expect(errors).toHaveBeenCalled()
  })
})
