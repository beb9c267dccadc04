/**
 * A second factor in Chromium, on the built-in pages only: sign in with a password, enrol an
 * authenticator app reading the key the page shows, sign out; sign in with the password and the
 * app's code; then with a backup code; then once more ticking "Don't ask again", after which the
 * password alone signs in from that browser.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { softwareTotp } from "../../src/testing/index.js"
import { browserSuite } from "../support/chromium.js"
import { servePages, type ServedPages } from "./served-pages.js"
import { ada, adaCredentials } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

browserSuite("second factor on the built-in pages, in Chromium", () => {
  let served: ServedPages
  let browser: Browser
  let origin: string
  const adapter = MemoryAdapter()
  const config: AuthConfig = {
    secret: "second-factor-browser-secret-32-characters",
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    providers: [adaCredentials()],
    secondFactor: { issuer: "Example" },
  }

  beforeAll(async () => {
    await adapter.createUser({ ...ada, emailVerified: null })
    served = await servePages((url) => (url.startsWith("/auth") ? config : undefined))
    browser = served.browser
    origin = served.origin
  })

  afterAll(() => served?.close())

  async function signInWithPassword(page: Page) {
    await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/home`)}`)
    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill("lovelace")
    await page.getByRole("button", { name: /sign in with/i }).click()
    await page.waitForLoadState("load")
  }

  async function signedIn(page: Page): Promise<string | undefined> {
    const response = await page.request.get(`${origin}/auth/session`)
    return ((await response.json()) as { user?: { email?: string } } | null)?.user?.email
  }

  it("enrols on the page, then signs in with the app's code, a backup code, and a trusted device", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()

    await signInWithPassword(page)
    expect(await signedIn(page)).toBe(ada.email)

    await page.goto(`${origin}/auth/factors`)
    await page.getByRole("button", { name: "Add an authenticator app" }).click()
    expect(await page.locator(".qr svg").count()).toBe(1)
    const key = (await page.locator("code.secret").textContent())!.replaceAll(" ", "")
    const app = softwareTotp(key)
    await page.getByLabel("Name").fill("Phone")
    await page.getByLabel("Code from the app").fill(await app.code())
    await page.getByRole("button", { name: "Add" }).click()
    const codes = await page.locator(".backup-codes code").allTextContents()
    expect(codes).toHaveLength(10)
    await page.getByRole("link", { name: "Done" }).click()
    expect(await page.getByText("Backup codes left: 10").count()).toBe(1)

    await context.clearCookies()
    await signInWithPassword(page)
    expect(new URL(page.url()).pathname).toBe("/auth/second-factor")
    expect(await signedIn(page)).toBeUndefined()
    await page.getByLabel("Code from your authenticator app").fill("000000")
    await page.locator("form.second-factor").first().getByRole("button", { name: "Verify" }).click()
    expect(await page.getByRole("alert").textContent()).toContain("That code is not right")
    // The enrolment used the current code: the next step's code signs in.
    await page.getByLabel("Code from your authenticator app").fill(await app.code(Date.now() + 30_000))
    await page.locator("form.second-factor").first().getByRole("button", { name: "Verify" }).click()
    await page.waitForURL(`${origin}/home`)
    expect(await signedIn(page)).toBe(ada.email)

    await context.clearCookies()
    await signInWithPassword(page)
    await page.getByText("Use a backup code instead").click()
    await page.getByLabel("Backup code").fill(codes[0]!)
    await page.locator("form.second-factor").nth(1).getByRole("button", { name: "Verify" }).click()
    await page.waitForURL(`${origin}/home`)
    expect(await signedIn(page)).toBe(ada.email)

    await context.clearCookies()
    await signInWithPassword(page)
    await page.getByText("Use a backup code instead").click()
    await page.getByLabel("Backup code").fill(codes[1]!)
    await page.locator("form.second-factor").nth(1).getByLabel(/Don't ask again/).check()
    await page.locator("form.second-factor").nth(1).getByRole("button", { name: "Verify" }).click()
    await page.waitForURL(`${origin}/home`)

    await context.clearCookies({ name: "authjs.session-token" })
    await signInWithPassword(page)
    expect(page.url()).toBe(`${origin}/home`)
    expect(await signedIn(page)).toBe(ada.email)
    await context.close()
  })
})
