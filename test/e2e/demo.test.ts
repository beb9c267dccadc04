/**
 * The demo over plain HTTP (no browser): where it listens, the providers its environment adds and
 * the variables its home page names, the protected page, the favicon, the readable expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { humanExpiry, startDemo, type Demo } from "../../demo/server.js"
import { CookieJar, buildRequest } from "../helpers.js"

describe("the demo (npm start)", () => {
  let demo: Demo

  beforeAll(async () => {
    demo = await startDemo({ port: 0, databaseFile: ":memory:", env: { AUTH_GITHUB_ID: "gh-client", AUTH_GITHUB_SECRET: "gh-secret" }, onSignInLink: () => {} })
  })
  afterAll(() => demo?.close())

  it("listens on 127.0.0.1 by default, so the inspector is not on the network", () => {
    expect((demo.server.address() as { address: string }).address).toBe("127.0.0.1")
  })

  it("adds GitHub from AUTH_GITHUB_ID/SECRET, and its home page names each provider's variables and callback URL", async () => {
    const providers = (await (await fetch(`${demo.url}/auth/providers`)).json()) as Record<string, { id: string }>
    expect(Object.keys(providers)).toEqual(expect.arrayContaining(["demo-idp", "email", "credentials", "github"]))
    expect(Object.keys(providers)).not.toContain("google")
    const home = await (await fetch(demo.url)).text()
    expect(home).toContain("<strong>GitHub</strong> (on): <code>AUTH_GITHUB_ID</code> and <code>AUTH_GITHUB_SECRET</code>")
    expect(home).toContain("<strong>Google</strong> (off): <code>AUTH_GOOGLE_ID</code> and <code>AUTH_GOOGLE_SECRET</code>")
    expect(home).toContain(`${demo.url}/auth/callback/github`)
    // The GitHub sign-in goes to GitHub with the client id from the environment, never an empty one.
    const csrf = await fetch(`${demo.url}/auth/csrf`)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const jar = new CookieJar().take(csrf)
    const start = await fetch(buildRequest(`${demo.url}/auth/signin/github`, { form: { csrfToken } }, jar), { redirect: "manual" })
    expect(new URL(start.headers.get("location")!).searchParams.get("client_id")).toBe("gh-client")
  })

  it("redirects a signed-out visitor of /protected to the sign-in page, coming back after", async () => {
    const response = await fetch(`${demo.url}/protected`, { redirect: "manual" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${demo.url}/auth/signin?callbackUrl=${encodeURIComponent(`${demo.url}/protected`)}`)
  })

  it("serves a favicon, and links it from its pages", async () => {
    const icon = await fetch(`${demo.url}/favicon.ico`)
    expect(icon.headers.get("content-type")).toBe("image/svg+xml")
    expect(await icon.text()).toMatch(/^<svg /)
    expect(await (await fetch(demo.url)).text()).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">')
  })

  it("shows expiry instants for people", () => {
    const now = Date.parse("2026-11-25T08:00:00.000Z")
    expect(humanExpiry("2026-12-25T08:00:00.000Z", now)).toBe("in 30 days (25 Dec 2026, 08:00 UTC)")
    expect(humanExpiry("2026-11-25T09:30:00.000Z", now)).toBe("in 2 hours (25 Nov 2026, 09:30 UTC)")
    expect(humanExpiry("not a date", now)).toBe("not a date")
  })
})
