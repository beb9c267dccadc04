/**
 * examples/solid-start, built with `vinxi build` (node-server preset) and served by Node, in
 * Chromium: credentials sign-in through authflow/client against `SolidAuth`'s routes, the session
 * on the server-rendered protected page (`requireSession`) and on the client-rendered one (guarded
 * by `authMiddleware`), sign-out, and the redirects to "/" of both protected pages once signed out.
 * Screenshots go to test-output/e2e/.
 */
import type { BrowserContext, Page } from "playwright-core"
import { expect, it } from "vitest"
import { browserSuite } from "../support/chromium.js"
import { exampleInChromium, screenshots as output, type ExampleApp } from "./example-app.js"
import { cookieNames } from "../helpers.js"

/** examples/solid-start: `vinxi build` (node-server preset, output in `.output/`), served by Node. */
const solidStart: ExampleApp = {
  name: "solid-start",
  exports: {
    "./solid-start": { types: "./dist/frameworks/solid-start/index.d.ts", import: "./dist/frameworks/solid-start/index.js" },
  },
  build: [{ script: "node_modules/vinxi/bin/cli.mjs", args: ["build"] }],
  buildName: "vinxi build",
  start: (port) => ({ script: ".output/server/index.mjs", env: { PORT: String(port), HOST: "127.0.0.1" } }),
  readyPath: "/api/auth/providers",
}

browserSuite("examples/solid-start (SolidStart 1.x) in Chromium", () => {
  const example = exampleInChromium(solidStart, { AUTH_SECRET: "solid-example-secret-solid-example-secret", AUTH_TRUST_HOST: "true" })

  async function signIn(page: Page, password = "lovelace") {
    await page.goto(`${example.base}/`)
    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill(password)
    // Enabled once the page is hydrated.
    await page.getByRole("button", { name: "Sign in" }).click()
  }

  async function sessionOf(context: BrowserContext): Promise<unknown> {
    return (await context.request.get(`${example.base}/api/auth/session`)).json()
  }

  it("signed out, both protected pages redirect to / (server-rendered and middleware)", async () => {
    const context = await example.browser.newContext()
    const ssr = await context.request.get(`${example.base}/protected`, { maxRedirects: 0 })
    expect(ssr.status()).toBe(302)
    expect(ssr.headers()["location"]).toBe("/")
    const middleware = await context.request.get(`${example.base}/client-protected`, { maxRedirects: 0 })
    expect(middleware.status()).toBe(302)
    expect(middleware.headers()["location"]).toBe("/")

    const page = await context.newPage()
    await page.goto(`${example.base}/protected`)
    expect(page.url()).toBe(`${example.base}/`)
    await page.goto(`${example.base}/client-protected`)
    expect(page.url()).toBe(`${example.base}/`)
    expect(await page.getByTestId("status").innerText()).toBe("Not signed in.")
    await context.close()
  })

  it("signs in with credentials and shows the session on the server-rendered protected page", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await signIn(page)
    await page.waitForURL(`${example.base}/protected`)
    expect(await page.getByTestId("server-name").innerText()).toBe("Signed in as Ada Lovelace")
    expect(await page.getByTestId("server-email").innerText()).toBe("ada@example.test")
    await page.screenshot({ path: `${output}solid-start-protected.png` })
    expect(await sessionOf(context)).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } })
    const cookies = await context.cookies()
    expect(cookies.find((c) => c.name === cookieNames.http.sessionToken)).toMatchObject({ httpOnly: true, sameSite: "Lax" })

    await page.goto(`${example.base}/`)
    expect(await page.getByTestId("status").innerText()).toBe("Signed in as Ada Lovelace")
    await page.goto(`${example.base}/client-protected`)
    expect(page.url()).toBe(`${example.base}/client-protected`)
    await expect.poll(() => page.getByTestId("client-name").innerText()).toBe("Client sees: Ada Lovelace")
    await page.screenshot({ path: `${output}solid-start-client-protected.png` })
    await context.close()
  })

  it("refuses a wrong password and stays signed out", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await signIn(page, "wrong")
    await expect.poll(() => page.getByRole("alert").innerText()).toBe("Wrong username or password.")
    expect(page.url()).toBe(`${example.base}/`)
    expect(await sessionOf(context)).toBeNull()
    await context.close()
  })

  it("signs out, and the protected pages redirect to / again", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await signIn(page)
    await page.waitForURL(`${example.base}/protected`)
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(`${example.base}/`)
    await expect.poll(() => page.getByTestId("status").innerText()).toBe("Not signed in.")
    expect(await sessionOf(context)).toBeNull()
    expect((await context.cookies()).some((c) => c.name === cookieNames.http.sessionToken)).toBe(false)
    await page.screenshot({ path: `${output}solid-start-signed-out.png` })

    await page.goto(`${example.base}/protected`)
    expect(page.url()).toBe(`${example.base}/`)
    await page.goto(`${example.base}/client-protected`)
    expect(page.url()).toBe(`${example.base}/`)
    await context.close()
  })

  it("client-side navigations to either protected page end on / when signed out", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/`)
    await expect.poll(() => page.getByRole("button", { name: "Sign in" }).isEnabled()).toBe(true)
    await page.getByRole("link", { name: "Protected (server-rendered)" }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe("/")
    expect(await page.getByTestId("server-name").count()).toBe(0)
    await page.getByRole("link", { name: "Protected (client-rendered)" }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe("/")
    await expect.poll(() => page.getByTestId("status").isVisible()).toBe(true)
    expect(await page.getByTestId("client-name").count()).toBe(0)
    await context.close()
  })
})
