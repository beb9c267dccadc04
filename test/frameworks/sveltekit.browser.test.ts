/**
 * examples/sveltekit, built with `vite build` (adapter-node) and served by `node build`, in
 * Chromium: the `signIn` form action signs in with credentials, `locals.auth()` shows the session
 * in a server load function, a wrong password is a form failure, and the `signOut` form action
 * signs out, after which the protected page sends the user home. Screenshots go to
 * test-output/e2e/.
 */
import type { BrowserContext } from "playwright-core"
import { expect, it } from "vitest"
import { browserSuite } from "../support/chromium.js"
import { exampleInChromium, screenshots as output, type ExampleApp, submitDemoCredentials as signIn } from "./example-app.js"
import { cookieNames } from "../helpers.js"

/**
 * examples/sveltekit: `svelte-kit sync` and `vite build` (adapter-node writes `build/`), served by
 * `node build`.
 */
const sveltekit: ExampleApp = {
  name: "sveltekit",
  /**
   * The `svelte` condition makes vite-plugin-svelte bundle authflow into the server build
   * (`ssr.noExternal`), so `redirect()` of authflow/sveltekit throws the `Redirect` class of the
   * very `@sveltejs/kit` copy the app runs on: adapter-node bundles `@sveltejs/kit` (a
   * devDependency) but would leave authflow (a dependency) external, and its own `@sveltejs/kit`
   * import would then be a second copy.
   */
  exports: {
    "./sveltekit": {
      types: "./dist/frameworks/sveltekit/index.d.ts",
      svelte: "./dist/frameworks/sveltekit/index.js",
      import: "./dist/frameworks/sveltekit/index.js",
    },
  },
  build: [
    { script: "node_modules/@sveltejs/kit/svelte-kit.js", args: ["sync"] },
    { script: "node_modules/vite/bin/vite.js", args: ["build"] },
  ],
  buildName: "vite build",
  /**
   * `ORIGIN` is set: without it adapter-node assumes `https://<host>`, and SvelteKit then refuses
   * the browser's `http://` form posts as cross-site.
   */
  start: (port, url) => ({ script: "build/index.js", env: { HOST: "127.0.0.1", PORT: String(port), ORIGIN: url } }),
  readyPath: "/auth/providers",
}

browserSuite("examples/sveltekit (SvelteKit 2, adapter-node) in Chromium", () => {
  const example = exampleInChromium(sveltekit, { AUTH_SECRET: "sveltekit-example-secret-sveltekit-example", AUTH_TRUST_HOST: "true" })

  async function sessionOf(context: BrowserContext): Promise<unknown> {
    return (await context.request.get(`${example.base}/auth/session`)).json()
  }

  it("a signed-out visitor is sent from the protected page to the home page", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/protected`)
    await page.waitForURL(`${example.base}/`)
    expect(await page.getByTestId("home-status").innerText()).toBe("Not signed in")
    expect(await sessionOf(context)).toBeNull()
    await context.close()
  })

  it("signs in through the signIn form action and shows the session on the protected page", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/signin`)
    await signIn(page)
    await page.waitForURL(`${example.base}/protected`)
    expect(await page.getByTestId("protected-name").innerText()).toBe("Signed in as Ada Lovelace")
    expect(await page.getByTestId("protected-email").innerText()).toBe("ada@example.test")
    await page.screenshot({ path: `${output}sveltekit-protected.png` })
    expect(await sessionOf(context)).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } })
    const cookies = await context.cookies()
    expect(cookies.find((c) => c.name === cookieNames.http.sessionToken)).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" })

    await page.goto(`${example.base}/`)
    expect(await page.getByTestId("home-status").innerText()).toBe("Signed in as Ada Lovelace")
    await context.close()
  })

  it("refuses a wrong password with a form failure and stays signed out", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/signin`)
    await signIn(page, "wrong")
    await expect.poll(() => page.locator("main").getByRole("alert").innerText()).toBe("Wrong username or password.")
    expect(await sessionOf(context)).toBeNull()
    await context.close()
  })

  it("signs out through the signOut form action, and the protected page sends the user home again", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/signin`)
    await signIn(page)
    await page.waitForURL(`${example.base}/protected`)
    await page.getByRole("button", { name: "Sign out and go home" }).click()
    await page.waitForURL(`${example.base}/`)
    expect(await page.getByTestId("home-status").innerText()).toBe("Not signed in")
    expect(await sessionOf(context)).toBeNull()
    expect((await context.cookies()).some((c) => c.name === cookieNames.http.sessionToken)).toBe(false)

    await page.goto(`${example.base}/protected`)
    await page.waitForURL(`${example.base}/`)
    await page.screenshot({ path: `${output}sveltekit-signed-out.png` })
    await context.close()
  })
})
