/**
 * examples/next, built with `next build` and served by `next start`, in Chromium: a Server Action
 * signs in with credentials, `auth()` shows the session in a Server Component, the proxy guards a
 * page with `callbacks.authorized`, `useSession` reads and updates the session, tabs stay in step,
 * and signing out locks the pages again; a wrong password comes back to the form (`signInAction`),
 * the app works on 127.0.0.1, the auth routes also run on the edge runtime (app/api/edge-auth), passkeys work with Chromium's virtual authenticator, and a server
 * without AUTH_TRUST_HOST says what to set. Screenshots go to test-output/e2e/.
 */
import { readFileSync } from "node:fs"
import type { BrowserContext } from "playwright-core"
import { expect, it } from "vitest"
import { browserSuite } from "../support/chromium.js"
import { exampleInChromium, root, screenshots as output, startExample, submitDemoCredentials as signIn } from "./example-app.js"
import { nextExample as next, nextExampleSecret as secret, signOutThroughServerAction } from "./next-example.js"
import { cookieNames } from "../helpers.js"

browserSuite("examples/next (Next.js 16) in Chromium", () => {
  const example = exampleInChromium(next, { AUTH_SECRET: secret, AUTH_TRUST_HOST: "true" })

  async function sessionOf(context: BrowserContext): Promise<unknown> {
    return (await context.request.get(`${example.base}/api/auth/session`)).json()
  }

  it("signs in through the Server Action and shows the session on the protected page", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/protected`)
    await page.waitForURL(`${example.base}/signin?callbackUrl=%2Fprotected`)
    await signIn(page)
    await page.waitForURL(`${example.base}/protected`)
    expect(await page.getByTestId("server-name").innerText()).toBe("Signed in as Ada Lovelace")
    await page.screenshot({ path: `${output}next-protected.png` })
    expect(await sessionOf(context)).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } })
    const cookies = await context.cookies()
    expect(cookies.find((c) => c.name === cookieNames.http.sessionToken)).toMatchObject({ httpOnly: true, sameSite: "Lax" })
    await context.close()
  })

  it("a wrong password comes back to the form with the error (signInAction), and the next try signs in", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    const failures: string[] = []
    page.on("pageerror", (error) => failures.push(error.message))
    await page.goto(`${example.base}/signin?callbackUrl=%2Fprotected`)
    await signIn(page, "wrong")
    const alert = page.locator("main").getByRole("alert")
    await expect.poll(() => alert.count()).toBe(1)
    expect(await alert.innerText()).toBe("Wrong username or password.")
    expect(new URL(page.url()).pathname).toBe("/signin")
    expect(await page.getByLabel("Username").inputValue()).toBe("ada")
    expect(await page.getByLabel("Password").getAttribute("aria-describedby")).toBe(await alert.getAttribute("id"))
    await page.screenshot({ path: `${output}next-wrong-password.png` })
    expect(await sessionOf(context)).toBeNull()

    await page.getByLabel("Password").fill("lovelace")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.waitForURL(`${example.base}/protected`)
    expect(await page.getByTestId("server-name").innerText()).toBe("Signed in as Ada Lovelace")
    expect(failures).toEqual([])
    await context.close()
  })

  it("the proxy sends signed-out visitors to the sign-in page with callbackUrl, and back after signing in", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/middleware-protected`)
    await page.waitForURL(/\/signin\?/)
    const url = new URL(page.url())
    expect(url.pathname).toBe("/signin")
    expect(url.searchParams.get("callbackUrl")).toBe(`${example.base}/middleware-protected`)
    await page.screenshot({ path: `${output}next-signin.png` })
    await signIn(page)
    await page.waitForURL(`${example.base}/middleware-protected`)
    expect(await page.getByTestId("middleware-name").innerText()).toBe("Let through: Ada Lovelace")
    await context.close()
  })

  it("useSession shows the status, and update() changes the name through the jwt callback", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/`)
    await expect.poll(() => page.getByTestId("client-status").innerText()).toBe("Status: unauthenticated")

    await page.goto(`${example.base}/signin`)
    await signIn(page)
    await page.waitForURL(`${example.base}/protected`)
    await page.goto(`${example.base}/`)
    await expect.poll(() => page.getByTestId("client-status").innerText()).toBe("Status: authenticated")
    expect(await page.getByTestId("client-name").innerText()).toBe("Client sees: Ada Lovelace")

    // At once, while the link prefetches may still pass the proxy with the old cookie: the proxy does
    // not re-issue a fresh, unchanged session, so their answers cannot overwrite the updated one.
    await page.getByRole("button", { name: "Change name to Ada King" }).click()
    await expect.poll(() => page.getByTestId("client-name").innerText()).toBe("Client sees: Ada King")
    expect(await page.getByTestId("client-status").innerText()).toBe("Status: authenticated")
    await page.screenshot({ path: `${output}next-use-session.png` })
    expect(await sessionOf(context)).toMatchObject({ user: { name: "Ada King" } })
    await page.goto(`${example.base}/protected`)
    expect(await page.getByTestId("server-name").innerText()).toBe("Signed in as Ada King")
    await context.close()
  })

  it("a client sign-out in one tab signs the other tab's useSession out", async () => {
    const context = await example.browser.newContext()
    const first = await context.newPage()
    await first.goto(`${example.base}/signin`)
    await signIn(first)
    await first.waitForURL(`${example.base}/protected`)
    await first.goto(`${example.base}/`)
    const second = await context.newPage()
    await second.goto(`${example.base}/`)
    await expect.poll(() => second.getByTestId("client-status").innerText()).toBe("Status: authenticated")
    await expect.poll(() => first.getByTestId("client-status").innerText()).toBe("Status: authenticated")
    // At once, as in the update test above: a prefetch still passing the proxy with the old cookie
    // sets no session cookie back after the sign-out.

    await first.getByRole("button", { name: "Sign out (client)" }).click()
    await expect.poll(() => second.getByTestId("client-status").innerText()).toBe("Status: unauthenticated")
    await expect.poll(() => first.getByTestId("client-status").innerText()).toBe("Status: unauthenticated")
    expect(await sessionOf(context)).toBeNull()
    await context.close()
  })

  it("on 127.0.0.1, the built-in sign-out page posts to 127.0.0.1 (not the localhost Next.js names) and signs out", async () => {
    expect(new URL(example.base).hostname).toBe("127.0.0.1")
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/signin`)
    await signIn(page)
    await page.waitForURL(`${example.base}/protected`)
    await page.goto(`${example.base}/api/auth/signout`)
    expect(await page.locator("form").first().getAttribute("action")).toBe(`${example.base}/api/auth/signout`)
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/api/auth/")), page.getByRole("button", { name: "Sign out" }).click()])
    expect(new URL(page.url()).origin).toBe(example.base)
    expect(await sessionOf(context)).toBeNull()
    const providers = (await (await context.request.get(`${example.base}/api/auth/providers`)).json()) as Record<string, { signinUrl: string }>
    expect(providers.credentials?.signinUrl).toBe(`${example.base}/api/auth/signin/credentials`)
    await context.close()
  })

  it("the proxy runs on pages but not on authflow's routes or static files (the README's matcher)", async () => {
    const context = await example.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.base}/signin`)
    await signIn(page)
    await page.waitForURL(`${example.base}/protected`)
    // The proxy reads the session on every request it sees: a session cookie that does not decrypt
    // is cleared there, and only there (a valid one is re-issued only once it is a day old).
    // From a context of its own, whose cookie header is only this one.
    const stranger = await example.browser.newContext()
    const clears = async (path: string) =>
      (await stranger.request.get(`${example.base}${path}`, { headers: { cookie: `${cookieNames.http.sessionToken}=not-a-token` }, maxRedirects: 0 }))
        .headersArray()
        .some((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith(`${cookieNames.http.sessionToken}=;`))
    expect(await clears("/middleware-protected")).toBe(true)
    expect(await clears("/api/auth/csrf")).toBe(false)
    expect(await clears("/api/auth/providers")).toBe(false)
    const script = await page.locator("script[src^='/_next/static/']").first().getAttribute("src")
    expect(await clears(script!)).toBe(false)
    // A fresh session is not re-issued on every page: a prefetch's answer cannot undo a sign-out.
    const sets = (await context.request.get(`${example.base}/middleware-protected`)).headersArray().filter((h) => h.name.toLowerCase() === "set-cookie")
    expect(sets.filter((h) => h.value.startsWith(`${cookieNames.http.sessionToken}=`))).toEqual([])
    await stranger.close()
    await context.close()
  })

  it("signs out through the Server Action, and the protected pages send the user to sign in again", async () => {
    // Signed out at once, while the protected page's link prefetches (which carry the session
    // cookie through the proxy) may still be on their way; checked once they all have their answer.
    // `npm run stress:next-signout` runs this 50 times beside two CPU burners.
    expect(await signOutThroughServerAction(example.browser, example.base, `${output}next-signed-out.png`)).toEqual({
      clientStatus: "Status: unauthenticated",
      session: null,
      sessionCookie: false,
      protectedPage: `${example.base}/signin?callbackUrl=%2Fprotected`,
      middlewarePage: `${example.base}/signin?callbackUrl=${encodeURIComponent(`${example.base}/middleware-protected`)}`,
    })
  })

  it("passkeys (experimental): registers one with Chromium's virtual authenticator, signs out, and signs in with it", async () => {
    // A relying party ID must be a domain, not an IP: the same server, as localhost.
    const base = example.base.replace("//127.0.0.1:", "//localhost:")
    const context = await example.browser.newContext()
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send("WebAuthn.enable")
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })
    const credentials = async () =>
      ((await cdp.send("WebAuthn.getCredentials", { authenticatorId })) as { credentials: { isResidentCredential: boolean; signCount: number }[] }).credentials
    const email = async () => ((await (await context.request.get(`${base}/api/auth/session`)).json()) as { user?: { email?: string } } | null)?.user?.email

    await page.goto(`${base}/signin?callbackUrl=%2Fprotected`)
    await page.getByLabel("Email").fill("grace@example.test")
    await Promise.all([page.waitForURL(`${base}/protected`), page.getByRole("button", { name: "Create a passkey" }).click()])
    expect(await page.getByTestId("server-name").innerText()).toBe("Signed in as grace@example.test")
    expect(await email()).toBe("grace@example.test")
    expect(await credentials()).toMatchObject([{ isResidentCredential: true }])

    await Promise.all([page.waitForURL(`${base}/`), page.getByRole("button", { name: "Sign out", exact: true }).click()])
    expect(await email()).toBeUndefined()

    await page.goto(`${base}/signin?callbackUrl=%2Fprotected`)
    await Promise.all([page.waitForURL(`${base}/protected`), page.getByRole("button", { name: "Use a passkey" }).click()])
    expect(await page.getByTestId("server-name").innerText()).toBe("Signed in as grace@example.test")
    await page.screenshot({ path: `${output}next-passkey.png` })
    // An authentication, not a second registration: one credential, now used.
    const [used, ...others] = await credentials()
    expect(others).toEqual([])
    expect(used?.signCount).toBeGreaterThan(0)
    await context.close()
  }, 60_000)

  it("the edge route (runtime = \"edge\"): signs in with credentials, reads and ends the session, and the Node.js routes share it", async () => {
    // `next build` put the route in the edge functions, not among the Node.js routes.
    const manifest = JSON.parse(readFileSync(`${root}examples/next/.next/server/middleware-manifest.json`, "utf8")) as { functions: Record<string, unknown> }
    expect(Object.keys(manifest.functions)).toContain("/api/edge-auth/[...nextauth]/route")
    expect(Object.keys(manifest.functions)).not.toContain("/api/auth/[...nextauth]/route")

    const context = await example.browser.newContext()
    const page = await context.newPage()
    const edge = `${example.base}/api/edge-auth`
    const runtimeOf = async (path: string) => (await context.request.get(`${edge}${path}`)).headers()["x-runtime"]
    // The route sets the header from `globalThis.EdgeRuntime`, defined only on the edge runtime.
    expect(await runtimeOf("/providers")).toBe("edge")

    // A wrong password comes back to the edge route's own sign-in page.
    const signinPage = await page.goto(`${edge}/signin?callbackUrl=%2Fprotected`)
    expect(signinPage?.headers()["x-runtime"]).toBe("edge")
    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill("wrong")
    await Promise.all([page.waitForURL(/error=CredentialsSignin/), page.getByRole("button", { name: "Sign in with Credentials" }).click()])
    expect(new URL(page.url()).pathname).toBe("/api/edge-auth/signin")

    await page.getByLabel("Username").fill("ada")
    await page.getByLabel("Password").fill("lovelace")
    await Promise.all([page.waitForURL(`${example.base}/protected`), page.getByRole("button", { name: "Sign in with Credentials" }).click()])
    // The session the edge minted: read by the edge route, the Node.js route and a Server Component.
    const session = await context.request.get(`${edge}/session`)
    expect(session.headers()["x-runtime"]).toBe("edge")
    expect(await session.json()).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.test" } })
    expect(await sessionOf(context)).toMatchObject({ user: { name: "Ada Lovelace" } })
    expect(await page.getByTestId("server-name").innerText()).toBe("Signed in as Ada Lovelace")
    await page.screenshot({ path: `${output}next-edge-route.png` })

    const signout = await page.goto(`${edge}/signout`)
    expect(signout?.headers()["x-runtime"]).toBe("edge")
    // The form posts to the page's own URL, as Auth.js's does; on the edge, Next.js adds the route's
    // parameter to the request's query (`?nextauth=signout`), which the POST ignores.
    const action = new URL((await page.locator("form").first().getAttribute("action"))!)
    expect(`${action.origin}${action.pathname}`).toBe(`${edge}/signout`)
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/api/")), page.getByRole("button", { name: "Sign out" }).click()])
    expect(await (await context.request.get(`${edge}/session`)).json()).toBeNull()
    expect(await sessionOf(context)).toBeNull()
    await context.close()
  }, 60_000)

  it("next start without AUTH_TRUST_HOST: /api/auth/* refuses with a one-line fix in the log, pages still read the session", async () => {
    // Ready when a page answers: every /api/auth/* route refuses here.
    const untrusted = await startExample({ ...next, readyPath: "/" }, { AUTH_SECRET: secret })
    try {
      const context = await example.browser.newContext()
      const page = await context.newPage()
      // Signed in on the configured server; cookies do not depend on the port.
      await page.goto(`${example.base}/signin`)
      await signIn(page)
      await page.waitForURL(`${example.base}/protected`)

      const answer = await context.request.get(`${untrusted.url}/api/auth/session`)
      expect(answer.status()).toBe(500)
      expect(await answer.json()).toHaveProperty("message")
      // eslint-disable-next-line no-control-regex -- colour codes, if the logger writes any
      const lines = untrusted.output().replace(/\x1b\[[0-9;]*m/g, "").split("\n").filter((line) => line.includes("UntrustedHost"))
      expect(lines.length).toBeGreaterThan(0)
      expect(lines[0]).toMatch(/^\[auth\]\[error\] UntrustedHost: .*set AUTH_URL.*AUTH_TRUST_HOST=true/)

      await page.goto(`${untrusted.url}/protected`)
      expect(await page.getByTestId("server-name").innerText()).toBe("Signed in as Ada Lovelace")
      await context.close()
    } finally {
      await untrusted.close()
    }
  }, 120_000)
})
