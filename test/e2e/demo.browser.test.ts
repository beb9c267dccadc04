/**
 * The demo (`npm start`) in a real browser: sign in with a demo account, with an email link, and
 * through the in-process OpenID Provider; register a passkey (signed in, or with a new email), sign
 * out and sign in with it (Chromium's virtual authenticator through CDP); see the session; sign out
 * (or cancel); a wrong password shows the sign-in error, focused and tied to the fields, with the
 * username kept; the protected page; the favicon and dark mode; the demo listens on 127.0.0.1
 * only. Screenshots go to test-output/e2e/.
 */
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it, vi } from "vitest"
import { startDemo, type Demo } from "../../demo/server.js"
import { browserSuite, launchChromium } from "../support/chromium.js"

const output = fileURLToPath(new URL("../../test-output/e2e/", import.meta.url))

browserSuite("the demo in Chromium", () => {
  let demo: Demo
  let browser: Browser
  const links: { email: string; url: string }[] = []

  const warnings: string[] = []

  beforeAll(async () => {
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(" ")))
    mkdirSync(output, { recursive: true })
    demo = await startDemo({ port: 0, databaseFile: ":memory:", env: {}, onSignInLink: (email, url) => void links.push({ email, url }) })
    browser = await launchChromium()
  })

  afterAll(async () => {
    vi.restoreAllMocks()
    await browser?.close()
    await demo?.close()
  })

  async function signOut(page: Page) {
    await page.getByRole("link", { name: "Sign out" }).click()
    await page.waitForURL(`${demo.url}/auth/signout`)
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(`${demo.url}/`)
    expect(await page.locator("main").innerText()).toContain("You are not signed in.")
    expect(await (await page.request.get(`${demo.url}/auth/session`)).json()).toBeNull()
  }

  it("signs in with credentials, shows the session, and signs out", async () => {
    const page = await browser.newPage()
    await page.goto(demo.url)
    expect(await page.locator("main").innerText()).toContain("You are not signed in.")
    await page.getByRole("link", { name: "Sign in" }).click()
    await page.waitForURL(`${demo.url}/auth/signin`)
    await page.screenshot({ path: `${output}demo-signin-page.png`, fullPage: true })
    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill("lovelace")
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(`${demo.url}/`)
    expect(await page.locator("main").innerText()).toContain("Signed in as Ada Lovelace")
    await page.screenshot({ path: `${output}demo-signed-in.png` })
    const session = await (await page.request.get(`${demo.url}/auth/session`)).json()
    expect(session.user).toMatchObject({ name: "Ada Lovelace", email: "ada@example.test" })
    await signOut(page)
    await page.close()
  })

  it("listens on 127.0.0.1 unless told otherwise, inspector included", () => {
    expect((demo.server.address() as { address: string }).address).toBe("127.0.0.1")
  })

  it("shows the credentials error on a wrong password, focused and tied to the fields, keeps the username, and the user signed out", async () => {
    const page = await browser.newPage()
    await page.goto(`${demo.url}/auth/signin`)
    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill("wrong")
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(/\/auth\/signin\?error=CredentialsSignin&code=credentials$/)
    expect(await page.getByRole("alert").innerText()).toContain("Sign in failed. Check the details you provided are correct.")
    expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("alert")
    expect(await page.getByLabel("Username").inputValue()).toBe("ada")
    expect(await page.getByLabel("Password").inputValue()).toBe("")
    for (const label of ["Username", "Password"]) {
      expect(await page.getByLabel(label).getAttribute("aria-invalid")).toBe("true")
      expect(await page.getByLabel(label).getAttribute("aria-describedby")).toBe("signin-error")
    }
    // A fresh visit to the sign-in page starts empty again.
    await page.goto(`${demo.url}/auth/signin`)
    expect(await page.getByLabel("Username").inputValue()).toBe("")
    await page.screenshot({ path: `${output}demo-wrong-password.png` })
    expect(await (await page.request.get(`${demo.url}/auth/session`)).json()).toBeNull()
    await page.close()
  })

  it("a stale form (no CSRF cookie) says to reload, and the sign-out page can be cancelled", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${demo.url}/auth/signin`)
    await context.clearCookies()
    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill("lovelace")
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(/error=MissingCSRF/)
    expect(await page.getByRole("alert").innerText()).toMatch(/Unable to sign in\.\s+The form was out of date, or your browser did not send this site's cookies\. Reload the page/)
    await page.goto(`${demo.url}/auth/signout`)
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Sign out")
    await page.getByRole("link", { name: "Cancel" }).click()
    await page.waitForURL(`${demo.url}/`)
    await context.close()
  })

  it("sends a signed-out visitor of /protected to sign in, and back; shows the expiry for people", async () => {
    const page = await browser.newPage()
    await page.goto(`${demo.url}/protected`)
    await page.waitForURL(/\/auth\/signin\?callbackUrl=/)
    await page.getByLabel("Username").fill("grace")
    await page.getByLabel("Password").fill("hopper")
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(`${demo.url}/protected`)
    const text = await page.locator("main").innerText()
    expect(text).toContain("Protected page")
    expect(text).toMatch(/Session expires in 30 days \(\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC\)/)
    // Signing out here comes back to /protected, which now sends the visitor to sign in.
    await page.getByRole("link", { name: "Sign out" }).click()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(/\/auth\/signin\?callbackUrl=.*%2Fprotected$/)
    expect(await (await page.request.get(`${demo.url}/auth/session`)).json()).toBeNull()
    await page.close()
  })

  it("has a favicon and a dark home page in dark mode", async () => {
    const icon = await fetch(`${demo.url}/favicon.ico`)
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"])
    const page = await browser.newPage({ colorScheme: "dark" })
    await page.goto(demo.url)
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(background).toBe("rgb(13, 17, 23)")
    await page.screenshot({ path: `${output}demo-home-dark.png` })
    await page.close()
  })

  it("signs in with an email link opened in another browser context", async () => {
    const page = await browser.newPage()
    await page.goto(`${demo.url}/auth/signin`)
    await page.getByLabel("Email", { exact: true }).fill("Linus@Example.test")
    await page.getByRole("button", { name: "Sign in with Email" }).click()
    await page.waitForURL(/\/auth\/verify-request/)
    expect(await page.locator("body").innerText()).toContain("Check your email")
    expect(links.at(-1)?.email).toBe("linus@example.test")
    const otherDevice = await browser.newContext()
    const phone = await otherDevice.newPage()
    await phone.goto(links.at(-1)!.url)
    await phone.waitForURL(`${demo.url}/`)
    expect(await phone.locator("main").innerText()).toContain("linus@example.test")
    await otherDevice.close()
    await page.close()
  })

  it("links to the flow inspector, which shows a sign-in that just happened", async () => {
    const page = await browser.newPage()
    await page.goto(demo.url)
    await page.getByRole("link", { name: "Open the flow inspector" }).click()
    await page.waitForURL(`${demo.url}/inspect`)
    const other = await browser.newPage()
    await other.goto(`${demo.url}/auth/signin`)
    await other.getByLabel("Username").fill("grace")
    await other.getByLabel("Password").fill("hopper")
    await other.getByRole("button", { name: "Sign in with Demo account" }).click()
    await other.waitForURL(`${demo.url}/`)
    const flow = page.locator("a.flow-link", { hasText: "credentials-sign-in" }).filter({ hasText: "succeeded" }).first()
    await flow.waitFor({ timeout: 10_000 })
    await flow.click()
    await page.locator('svg.statechart .sc-state.is-current[data-path="signedIn"]').waitFor()
    await page.screenshot({ path: `${output}demo-inspector.png` })
    await other.close()
    await page.close()
  })

  it("signs in through the in-process OpenID Provider", async () => {
    const page = await browser.newPage()
    await page.goto(`${demo.url}/auth/signin`)
    await page.getByRole("button", { name: "Sign in with Demo OpenID Provider" }).click()
    await page.waitForURL((url) => url.href.startsWith(demo.identityProvider.issuer))
    await page.locator('input[name="login"]').fill("marie")
    await page.locator('input[name="password"]').fill("any")
    await page.locator('button[type="submit"]').click()
    await page.locator('button[type="submit"]').click() // consent
    await page.waitForURL(`${demo.url}/`)
    expect(await page.locator("main").innerText()).toContain("marie@example.test")
    await signOut(page)
    await page.close()
  })

  /** A browser context whose platform authenticator is CDP's virtual one (resident keys, user verification). */
  async function withPasskeys(): Promise<{ context: BrowserContext; page: Page; credentials(): Promise<{ isResidentCredential: boolean; signCount: number }[]> }> {
    const context = await browser.newContext()
    const page = await context.newPage()
    const cdp: CDPSession = await context.newCDPSession(page)
    await cdp.send("WebAuthn.enable")
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })
    const credentials = async () => ((await cdp.send("WebAuthn.getCredentials", { authenticatorId })) as { credentials: { isResidentCredential: boolean; signCount: number }[] }).credentials
    return { context, page, credentials }
  }

  /** Opens the sign-in page and lets the browser's autofill (conditional UI) offer the passkey, which the virtual authenticator accepts. */
  async function signInWithPasskey(page: Page): Promise<string[]> {
    const requests: string[] = []
    page.on("request", (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}${new URL(request.url()).search}`))
    // The page starts at home (after signing out): open the sign-in page first, then wait to be sent home.
    await page.goto(`${demo.url}/auth/signin`)
    await page.waitForURL(`${demo.url}/`)
    return requests
  }

  it("signed in with the demo account, adds a passkey, signs out, and signs in with it", async () => {
    const { context, page, credentials } = await withPasskeys()
    await page.goto(`${demo.url}/auth/signin`)
    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill("lovelace")
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(`${demo.url}/`)
    await Promise.all([
      page.waitForResponse((response) => response.url() === `${demo.url}/auth/callback/passkey` && response.status() === 302),
      page.getByRole("button", { name: "Add a passkey" }).click(),
    ])
    await page.waitForURL(`${demo.url}/`)
    const [registered, ...more] = await credentials()
    expect(more).toEqual([])
    expect(registered?.isResidentCredential).toBe(true)
    await signOut(page)

    const requests = await signInWithPasskey(page)
    expect(await page.locator("main").innerText()).toContain("Signed in as Ada Lovelace")
    expect(requests).toContain("GET /auth/webauthn-options/passkey?action=authenticate")
    expect(requests).toContain("POST /auth/callback/passkey")
    // An authentication with the same credential, not a second registration.
    expect(await credentials()).toHaveLength(1)
    expect((await credentials())[0]!.signCount).toBeGreaterThan(registered!.signCount)
    await page.screenshot({ path: `${output}demo-passkey-signed-in.png` })
    await context.close()
  }, 60_000)

  it("registers a passkey with a new email on the sign-in page, signs out, and signs in with it", async () => {
    const { context, page, credentials } = await withPasskeys()
    await page.goto(`${demo.url}/auth/signin`)
    await page.getByLabel("Email for your passkey").fill("hedy@example.test")
    await Promise.all([page.waitForURL(`${demo.url}/`), page.getByRole("button", { name: "Sign in with Passkey" }).click()])
    expect(await page.locator("main").innerText()).toContain("hedy@example.test")
    expect(await credentials()).toHaveLength(1)
    await signOut(page)

    await signInWithPasskey(page)
    expect(await page.locator("main").innerText()).toContain("hedy@example.test")
    expect(await (await page.request.get(`${demo.url}/auth/session`)).json()).toMatchObject({ user: { email: "hedy@example.test" } })
    await context.close()
  }, 60_000)

  it("the inspector lists the passkey sign-ins but not the options each sign-in page view asked for", async () => {
    // Every view of the sign-in page above asked for passkey options (the browser's autofill).
    const flows = async (query = "") => (await (await fetch(`${demo.url}/inspect/api/flows?limit=200${query}`)).json()) as { total: number; recorded: number; unlisted: number; flows: { machine: string; state: string; status: string; unlisted?: true }[] }
    const listed = await flows()
    const webauthn = await flows("&machine=webauthn")
    const optionsOnly = webauthn.flows.filter((flow) => flow.unlisted)
    expect(optionsOnly.length).toBeGreaterThanOrEqual(4)
    expect(optionsOnly.every((flow) => flow.state === "awaitingCeremony" && flow.status === "waiting")).toBe(true)
    expect(listed.unlisted).toBe(optionsOnly.length)
    expect(listed.total + listed.unlisted).toBe(listed.recorded)
    expect(listed.flows.filter((flow) => flow.unlisted)).toEqual([])
    // The ceremonies that were answered (two registrations, two passkey sign-ins) stay listed.
    expect(listed.flows.filter((flow) => flow.machine === "webauthn" && flow.status === "succeeded").length).toBeGreaterThanOrEqual(4)

    const page = await browser.newPage()
    await page.goto(`${demo.url}/inspect`)
    const hint = page.locator("#flow-list li.unlisted")
    await expect.poll(() => hint.innerText()).toContain(`${optionsOnly.length} passkey options requests that went no further are not listed`)
    expect(await page.locator("a.flow-link", { hasText: "options only" }).count()).toBe(0)
    await page.screenshot({ path: `${output}demo-inspector-unlisted.png` })
    await page.getByLabel("Machine").selectOption("webauthn")
    await expect.poll(() => page.locator("a.flow-link", { hasText: "options only" }).count()).toBe(Math.min(optionsOnly.length, 50))
    await page.locator("a.flow-link", { hasText: "options only" }).first().click()
    await expect.poll(() => page.locator("#view").innerText()).toContain("has only issued passkey options")
    await page.close()
  })

  it("printed the experimental WebAuthn warning once, for all the requests above", () => {
    expect(warnings.filter((warning) => warning.includes("[experimental-webauthn]"))).toHaveLength(1)
  })
})
