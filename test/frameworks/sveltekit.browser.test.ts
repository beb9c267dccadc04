/**
 * examples/sveltekit, built with `vite build` (adapter-node) and served by `node build`, in
 * Chromium: the `signIn` form action signs in with credentials, `locals.auth()` shows the session
 * in a server load function, a wrong password is a form failure, and the `signOut` form action
 * signs out, after which the protected page sends the user home. Screenshots go to
 * test-output/e2e/.
 */
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { browserSuite, launchChromium } from "../e2e/browser.js"
import { prepareExample, startExample, type ExampleServer } from "./sveltekit-example.js"

const output = fileURLToPath(new URL("../../test-output/e2e/", import.meta.url))

browserSuite("examples/sveltekit (SvelteKit 2, adapter-node) in Chromium", () => {
  let server: ExampleServer
  let browser: Browser
  let base: string

  beforeAll(async () => {
    mkdirSync(output, { recursive: true })
    const prepared = prepareExample()
    console.log(
      `examples/sveltekit: ${prepared.installed}; root build ${prepared.seconds.rootBuild} s, install ${prepared.seconds.install} s, vite build ${prepared.seconds.viteBuild} s` +
        (prepared.addedExports.length ? `; added to the installed package.json exports: ${prepared.addedExports.join(", ")}` : ""),
    )
    server = await startExample({ AUTH_SECRET: "sveltekit-example-secret-sveltekit-example", AUTH_TRUST_HOST: "true" })
    base = server.url
    browser = await launchChromium()
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  async function signIn(page: Page, password = "lovelace") {
    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in" }).click()
  }

  async function sessionOf(context: BrowserContext): Promise<unknown> {
    return (await context.request.get(`${base}/auth/session`)).json()
  }

  it("a signed-out visitor is sent from the protected page to the home page", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${base}/protected`)
    await page.waitForURL(`${base}/`)
    expect(await page.getByTestId("home-status").innerText()).toBe("Not signed in")
    expect(await sessionOf(context)).toBeNull()
    await context.close()
  })

  it("signs in through the signIn form action and shows the session on the protected page", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${base}/signin`)
    await signIn(page)
    await page.waitForURL(`${base}/protected`)
    expect(await page.getByTestId("protected-name").innerText()).toBe("Signed in as Ada Lovelace")
    expect(await page.getByTestId("protected-email").innerText()).toBe("ada@example.test")
    await page.screenshot({ path: `${output}sveltekit-protected.png` })
    expect(await sessionOf(context)).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } })
    const cookies = await context.cookies()
    expect(cookies.find((c) => c.name === "authjs.session-token")).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" })

    await page.goto(`${base}/`)
    expect(await page.getByTestId("home-status").innerText()).toBe("Signed in as Ada Lovelace")
    await context.close()
  })

  it("refuses a wrong password with a form failure and stays signed out", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${base}/signin`)
    await signIn(page, "wrong")
    await expect.poll(() => page.locator("main").getByRole("alert").innerText()).toBe("Wrong username or password.")
    expect(await sessionOf(context)).toBeNull()
    await context.close()
  })

  it("signs out through the signOut form action, and the protected page sends the user home again", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${base}/signin`)
    await signIn(page)
    await page.waitForURL(`${base}/protected`)
    await page.getByRole("button", { name: "Sign out and go home" }).click()
    await page.waitForURL(`${base}/`)
    expect(await page.getByTestId("home-status").innerText()).toBe("Not signed in")
    expect(await sessionOf(context)).toBeNull()
    expect((await context.cookies()).some((c) => c.name === "authjs.session-token")).toBe(false)

    await page.goto(`${base}/protected`)
    await page.waitForURL(`${base}/`)
    await page.screenshot({ path: `${output}sveltekit-signed-out.png` })
    await context.close()
  })
})
