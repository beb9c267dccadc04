/**
 * `authflow/client/passkey` against a real `Auth()`: `fetch` reaches `Auth()` with a cookie jar,
 * and `@simplewebauthn/browser` is replaced by the Node software authenticator.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, basePath, origin } from "../helpers.js"
import { passkeyConfig, sessionOf } from "../support/passkey-flow.js"
import { SoftCredential } from "../../src/testing/authenticator.js"

const authenticator = vi.hoisted(() => ({ credential: undefined as unknown, calls: [] as string[] }))

vi.mock("@simplewebauthn/browser", () => ({
  startRegistration: async ({ optionsJSON }: { optionsJSON: never }) => {
    authenticator.calls.push("register")
    return (authenticator.credential as SoftCredential).register(optionsJSON, origin)
  },
  startAuthentication: async ({ optionsJSON, useBrowserAutofill }: { optionsJSON: never; useBrowserAutofill?: boolean }) => {
    authenticator.calls.push(useBrowserAutofill ? "authenticate:autofill" : "authenticate")
    return (authenticator.credential as SoftCredential).authenticate(optionsJSON, origin)
  },
}))

const { signIn } = await import("../../src/client/passkey.js")
const client = await import("../../src/client/index.js")

function browserFor(config: AuthConfig) {
  const jar = new CookieJar()
  const requests: { method: string; url: URL; body: string }[] = []
  vi.stubGlobal("fetch", async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input), origin)
    const headers = new Headers(init?.headers)
    if (jar.cookies.size) headers.set("cookie", jar.header())
    const body = typeof init?.body === "string" ? init.body : ""
    requests.push({ method: init?.method ?? "GET", url, body })
    const response = await Auth(new Request(url, { method: init?.method ?? "GET", headers, body: body || undefined }), config)
    jar.take(response)
    return response
  })
  const location = { href: `${origin}/account`, reload: vi.fn() }
  vi.stubGlobal("window", { location })
  return { jar, requests, location }
}

describe("authflow/client/passkey", () => {
  beforeEach(() => {
    client.configure({ basePath })
    authenticator.credential = new SoftCredential("app.test")
    authenticator.calls = []
  })
  afterEach(() => vi.unstubAllGlobals())

  it("registers a passkey, signs out, and signs in with it", async () => {
    const config = passkeyConfig()
    const browser = browserFor(config)
    const registered = await signIn("passkey", { action: "register", email: "ada@example.test", redirect: false, redirectTo: "/dashboard" })
    expect(registered).toMatchObject({ ok: true, error: undefined, url: `${origin}/dashboard` })
    expect((await sessionOf(config, browser.jar))?.user?.email).toBe("ada@example.test")

    const options = browser.requests.find((r) => r.url.pathname === `${basePath}/webauthn-options/passkey`)!
    expect(Object.fromEntries(options.url.searchParams)).toEqual({ action: "register", email: "ada@example.test" })
    const callback = browser.requests.find((r) => r.url.pathname === `${basePath}/callback/passkey`)!
    const form = new URLSearchParams(callback.body)
    expect([...form.keys()].sort()).toEqual(["action", "callbackUrl", "csrfToken", "data"])
    expect(form.get("action")).toBe("register")
    expect(JSON.parse(form.get("data")!)).toMatchObject({ type: "public-key" })

    await client.signOut({ redirect: false })
    expect(await sessionOf(config, browser.jar)).toBeNull()

    await signIn("passkey", { action: "authenticate", redirectTo: "/again" })
    expect(browser.location.href).toBe(`${origin}/again`)
    expect((await sessionOf(config, browser.jar))?.user?.email).toBe("ada@example.test")
    expect(authenticator.calls).toEqual(["register", "authenticate"])
  })

  it("lets the server choose the ceremony, and passes conditional mediation through", async () => {
    const config = passkeyConfig()
    browserFor(config)
    await signIn("passkey", { email: "grace@example.test", redirect: false })
    await client.signOut({ redirect: false })
    const result = await signIn("passkey", { action: "authenticate", conditional: true, redirect: false })
    expect(result?.ok).toBe(true)
    expect(authenticator.calls).toEqual(["register", "authenticate:autofill"])
  })

  it("reports a refused ceremony without navigating", async () => {
    const config = passkeyConfig()
    const browser = browserFor(config)
    const result = await signIn("passkey", { action: "authenticate", redirect: false })
    expect(result).toMatchObject({ ok: false, url: null })
    expect(result?.error).toBeTruthy()
    expect(browser.location.href).toBe(`${origin}/account`)
  })

  it("is refused by the ordinary signIn of authflow/client, which points to this entry", async () => {
    browserFor(passkeyConfig())
    await expect(client.signIn("passkey")).rejects.toThrow(/authflow\/client\/passkey/)
  })

  it("hands a provider that is not WebAuthn to the ordinary signIn", async () => {
    const config = passkeyConfig()
    const browser = browserFor(config)
    await signIn("github", { redirectTo: "/after" })
    expect(browser.location.href).toContain(`${basePath}/signin?callbackUrl=`)
    expect(authenticator.calls).toEqual([])
  })
})
