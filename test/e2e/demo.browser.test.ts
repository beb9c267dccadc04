/**
 * The demo (`npm start`) in a real browser: sign in with a demo account, see the session, sign out;
 * a wrong password shows the sign-in error. Screenshots go to test-output/e2e/.
 */
import { mkdirSync } from "node:fs"
import type { AddressInfo } from "node:net"
import type { Server } from "node:http"
import { fileURLToPath } from "node:url"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { createDemoServer } from "../../demo/server.js"
import { browserSuite, launchChromium } from "./browser.js"

const output = fileURLToPath(new URL("../../test-output/e2e/", import.meta.url))

browserSuite("the demo in Chromium", () => {
  let server: Server
  let browser: Browser
  let base: string

  beforeAll(async () => {
    mkdirSync(output, { recursive: true })
    server = createDemoServer()
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  it("signs in with credentials, shows the session, and signs out", async () => {
    const page = await browser.newPage()
    await page.goto(base)
    expect(await page.locator("main").innerText()).toContain("You are not signed in.")
    await page.getByRole("link", { name: "Sign in" }).click()
    await page.waitForURL(`${base}/auth/signin`)
    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill("lovelace")
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(`${base}/`)
    expect(await page.locator("main").innerText()).toContain("Signed in as Ada Lovelace")
    await page.screenshot({ path: `${output}demo-signed-in.png` })

    const session = await (await page.request.get(`${base}/auth/session`)).json()
    expect(session.user).toEqual({ name: "Ada Lovelace", email: "ada@example.test" })

    await page.getByRole("link", { name: "Sign out" }).click()
    await page.waitForURL(`${base}/auth/signout`)
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(`${base}/`)
    expect(await page.locator("main").innerText()).toContain("You are not signed in.")
    expect(await (await page.request.get(`${base}/auth/session`)).json()).toBeNull()
    await page.close()
  })

  it("shows the credentials error on a wrong password and keeps the user signed out", async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/auth/signin`)
    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill("wrong")
    await page.getByRole("button", { name: "Sign in with Demo account" }).click()
    await page.waitForURL(/\/auth\/signin\?error=CredentialsSignin&code=credentials$/)
    expect(await page.getByRole("alert").innerText()).toContain("Sign in failed. Check the details you provided are correct.")
    await page.screenshot({ path: `${output}demo-wrong-password.png` })
    expect(await (await page.request.get(`${base}/auth/session`)).json()).toBeNull()
    await page.close()
  })
})
