/**
 * examples/qwik, built with Vite (client, then the Node server adapter) and served by Node, in
 * Chromium: `useSignIn` signs in with credentials, the protected page shows the session read by
 * `onRequest`/`useSession`, `useSignOut` signs out and the protected page sends the user to sign
 * in again; a validation failure of `useSignIn` comes back in the interface's shape. Plus HTTP
 * checks of `onRequest` without a browser. Screenshots go to test-output/e2e/.
 */
import type { BrowserContext } from "playwright-core"
import { expect, it } from "vitest"
import { browserSuite } from "../support/chromium.js"
import { exampleInChromium, screenshots as output, type ExampleApp, submitDemoCredentials as signIn } from "./example-app.js"
import { cookieNames } from "../helpers.js"

/** examples/qwik: `vite build` of the client, then of the Node server adapter, served by Node. */
const qwik: ExampleApp = {
  name: "qwik",
  exports: { "./qwik": { types: "./dist/frameworks/qwik/index.d.ts", import: "./dist/frameworks/qwik/index.js" } },
  build: [
    { script: "node_modules/vite/bin/vite.js", args: ["build"] },
    { script: "node_modules/vite/bin/vite.js", args: ["build", "-c", "adapters/node-server/vite.config.ts"] },
  ],
  buildName: "vite build",
  start: (port) => ({ script: "server/entry.node-server.js", env: { PORT: String(port), HOST: "127.0.0.1" } }),
  readyPath: "/auth/providers",
}

browserSuite("examples/qwik (Qwik City 1.20) in Chromium", () => {
  const example = exampleInChromium(qwik, { AUTH_SECRET: "qwik-example-secret-qwik-example-secret", AUTH_TRUST_HOST: "true" })

  async function sessionOf(context: BrowserContext): Promise<unknown> {
    return (await context.request.get(`${example.base}/auth/session`)).json()
  }

  it("useSignIn signs in with credentials and the protected page shows the session", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/protected/`)
    await page.waitForURL(`${example.base}/signin/?callbackUrl=%2Fprotected%2F`)
    await signIn(page)
    await page.waitForURL(`${example.base}/protected/`)
    await expect.poll(() => page.getByTestId("protected-name").innerText()).toBe("Signed in as Ada Lovelace")
    await page.screenshot({ path: `${output}qwik-protected.png` })
    expect(await sessionOf(context)).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } })
    const cookies = await context.cookies()
    expect(cookies.find((c) => c.name === cookieNames.http.sessionToken)).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" })
    await page.goto(`${example.base}/`)
    expect(await page.getByTestId("status").innerText()).toBe("Signed in as Ada Lovelace")
    await context.close()
  })

  it("signs in without JavaScript too (a plain form post to the action)", async () => {
    const context = await example.browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${example.base}/signin/`)
    await signIn(page)
    await page.waitForURL(`${example.base}/protected/`)
    expect(await page.getByTestId("protected-name").innerText()).toBe("Signed in as Ada Lovelace")
    await context.close()
  })

  it("a wrong password sends the user back to the sign-in page with error=CredentialsSignin", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/signin/`)
    await signIn(page, "wrong")
    await page.waitForURL(/\/signin\/?\?error=CredentialsSignin&code=credentials/)
    expect(await page.getByRole("alert").innerText()).toBe("Wrong username or password.")
    expect(await sessionOf(context)).toBeNull()
    await context.close()
  })

  it("a validation failure of useSignIn is the action's value: failed, formErrors, one fieldErrors entry per field", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/signin/`)
    // A form field `redirectTo.nested` makes redirectTo an object, which the validator refuses.
    await page.locator('input[name="redirectTo"]').evaluate((input) => input.setAttribute("name", "redirectTo.nested"))
    await signIn(page)
    const failure = page.getByTestId("signin-failure")
    await failure.waitFor()
    expect(JSON.parse(await failure.innerText())).toEqual({
      failed: true,
      formErrors: [],
      fieldErrors: { authorizationParams: null, options: null, providerId: null, redirectTo: ["Expected string, received object"] },
    })
    expect(new URL(page.url()).pathname).toBe("/signin/")
    expect(await sessionOf(context)).toBeNull()
    await context.close()
  })

  it("useSignOut signs out and redirects; the protected page then sends the user to sign in", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/signin/`)
    await signIn(page)
    await page.waitForURL(`${example.base}/protected/`)
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(`${example.base}/`)
    await expect.poll(() => page.getByTestId("status").innerText()).toBe("Not signed in")
    expect(await sessionOf(context)).toBeNull()
    expect((await context.cookies()).some((c) => c.name === cookieNames.http.sessionToken)).toBe(false)
    await page.goto(`${example.base}/protected/`)
    await page.waitForURL(`${example.base}/signin/?callbackUrl=%2Fprotected%2F`)
    await page.screenshot({ path: `${output}qwik-signed-out.png` })
    await context.close()
  })

  it("onRequest serves authflow's routes under /auth/ and refuses cross-site form posts to them", async () => {
    const providers = await fetch(`${example.base}/auth/providers`)
    expect(await providers.json()).toMatchObject({ credentials: { id: "credentials", type: "credentials" } })
    const signinPage = await fetch(`${example.base}/auth/signin`, { redirect: "manual" })
    expect(signinPage.status).toBe(302)
    expect(signinPage.headers.get("location")).toMatch(/\/signin(\?|$)/)
    const crossSite = await fetch(`${example.base}/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: "http://evil.test", "content-type": "application/x-www-form-urlencoded" },
      body: "callbackUrl=%2F",
    })
    expect(crossSite.status).toBe(403)
    const sameSite = await fetch(`${example.base}/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: example.base, "content-type": "application/x-www-form-urlencoded" },
      body: "callbackUrl=%2F",
    })
    expect(sameSite.status).toBe(302)
  })
})
