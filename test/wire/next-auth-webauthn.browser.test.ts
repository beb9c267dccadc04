/**
 * The Auth.js browser client for passkeys, `next-auth/webauthn` (next-auth 5 beta), against an
 * authflow server in Chromium: a page script that imports its `signIn` (and `getSession` /
 * `signOut` from `next-auth/react`) is bundled with esbuild and served with `Auth()` from one
 * loopback origin on node:http; CDP's virtual authenticator stands in for the platform one.
 * The client finds authflow's `/auth` base path the two ways next-auth documents: `NEXTAUTH_URL`
 * (inlined into the bundle), or `<SessionProvider basePath>` in a React page, where `useSession`
 * and its `update` run with their effects.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { build } from "esbuild"
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest"
import { browserSuite, launchChromium } from "../support/chromium.js"
import { Auth } from "../../src/index.js"
import { sendWebResponse, toWebRequest } from "../../src/frameworks/node.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Passkey from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import { recordingLogger } from "../helpers.js"

/** The page script: the real Auth.js client functions, on `window.authjs`. */
const pageScript = `
import { signIn } from "next-auth/webauthn"
import { getSession, getProviders, signOut } from "next-auth/react"
window.authjs = { signIn, getSession, getProviders, signOut }
window.authjsReady = true
`

/**
 * A React page: `SessionProvider` with authflow's base path (no NEXTAUTH_URL in this bundle), a
 * component showing `useSession()`, and its `update` on `window`.
 */
const reactScript = `
import { createElement as h } from "react"
import { createRoot } from "react-dom/client"
import { SessionProvider, signOut, useSession } from "next-auth/react"
import { signIn } from "next-auth/webauthn"
function Status() {
  const { data, status, update } = useSession()
  window.update = update
  return h("p", { id: "status" }, status + ":" + (data?.user?.email ?? "-") + ":" + (data?.user?.name ?? "-"))
}
window.authjs = { signIn, signOut }
createRoot(document.getElementById("root")).render(h(SessionProvider, { basePath: "/auth" }, h(Status)))
window.authjsReady = true
`

/** What the page script puts on `window` (typed for `page.evaluate`). */
interface PageClient {
  signIn(provider: string, options?: Record<string, unknown>): Promise<{ error: string | null; code: string | null; status: number; ok: boolean; url: string | null } | undefined>
  getSession(): Promise<{ user?: { email?: string | null } } | null>
  getProviders(): Promise<Record<string, { id: string; type: string; signinUrl: string; callbackUrl: string }> | null>
  signOut(options?: Record<string, unknown>): Promise<{ url: string } | undefined>
}
declare const window: { authjs: PageClient; location: Location; update(data?: unknown): Promise<unknown> }

browserSuite("next-auth/webauthn against an authflow server (Chromium virtual authenticator)", () => {
  let browser: Browser
  let server: Server
  let origin: string
  let bundle: string
  let reactBundle: string
  let config: AuthConfig
  let recorder: ReturnType<typeof recordingLogger>
  let context: BrowserContext
  let page: Page
  let cdp: CDPSession
  let authenticatorId: string
  const served: string[] = []

  beforeAll(async () => {
    browser = await launchChromium()
    server = createServer((req, res) => {
      void (async () => {
        const url = req.url ?? "/"
        served.push(`${req.method} ${url}`)
        if (url.startsWith("/auth/")) return sendWebResponse(res, await Auth(await toWebRequest(req), config))
        if (url === "/app.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(bundle)
        if (url === "/react.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(reactBundle)
        const script = url.startsWith("/react-app") ? "/react.js" : "/app.js"
        res.writeHead(200, { "content-type": "text/html" }).end(`<!DOCTYPE html><title>App</title><p>${url}</p><div id="root"></div><script src="${script}"></script>`)
      })().catch((error: unknown) => res.writeHead(500).end(String(error)))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    // "localhost" (not the IP): a relying party ID must be a domain, and localhost is a secure context.
    origin = `http://localhost:${(server.address() as AddressInfo).port}`
    const bundled = async (contents: string, env: Record<string, string>) => {
      const result = await build({
        stdin: { contents, resolveDir: process.cwd(), loader: "js" },
        bundle: true,
        write: false,
        format: "esm",
        platform: "browser",
        target: "es2022",
        logLevel: "silent",
        define: { "process.env": JSON.stringify(env) },
      })
      return result.outputFiles[0]!.text
    }
    bundle = await bundled(pageScript, { NEXTAUTH_URL: `${origin}/auth`, NODE_ENV: "production" })
    reactBundle = await bundled(reactScript, { NODE_ENV: "production" })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  beforeEach(async () => {
    recorder = recordingLogger()
    config = {
      basePath: "/auth",
      secret: "a-secret-long-enough-for-browser-tests-0123456789",
      trustHost: true,
      adapter: MemoryAdapter(),
      session: { strategy: "jwt" },
      providers: [Passkey()],
      experimental: { enableWebAuthn: true },
      logger: recorder.logger,
      callbacks: {
        jwt({ token, trigger, session }) {
          const name = (session as { name?: unknown } | undefined)?.name
          if (trigger === "update" && typeof name === "string") token.name = name
          return token
        },
      },
    }
    context = await browser.newContext()
    page = await context.newPage()
    cdp = await context.newCDPSession(page)
    await cdp.send("WebAuthn.enable")
    ;({ authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    }))
    served.length = 0
    await page.goto(`${origin}/app`)
    await page.waitForFunction(() => (window as unknown as { authjsReady?: boolean }).authjsReady === true)
  })

  afterEach(async () => {
    await context?.close()
  })

  const sessionEmail = () => page.evaluate(async () => (await window.authjs.getSession())?.user?.email ?? null)
  const credentials = async () =>
    ((await cdp.send("WebAuthn.getCredentials", { authenticatorId })) as { credentials: { isResidentCredential: boolean; signCount: number }[] }).credentials

  it("the bundle is standalone: it reads the base path from NEXTAUTH_URL and lists authflow's passkey provider", async () => {
    expect(bundle.length).toBeGreaterThan(1000)
    const providers = await page.evaluate(() => window.authjs.getProviders())
    expect(providers?.passkey).toEqual({ id: "passkey", name: "Passkey", type: "webauthn", signinUrl: `${origin}/auth/signin/passkey`, callbackUrl: `${origin}/auth/callback/passkey` })
    expect(served).toContain("GET /auth/providers")
  })

  it("registers a passkey (redirect: false), signs out, signs in with it (discoverable), then by email with a redirect", async () => {
    // An unknown email and no action: the server decides "register".
    const registered = await page.evaluate(() => window.authjs.signIn("passkey", { email: "ada@example.test", redirect: false }))
    expect(registered).toEqual({ error: null, code: null, status: 200, ok: true, url: `${origin}/app` })
    expect(await sessionEmail()).toBe("ada@example.test")
    expect(await credentials()).toMatchObject([{ isResidentCredential: true }])
    expect(served).toContain("GET /auth/webauthn-options/passkey?email=ada%40example.test")
    expect(served).toContain("POST /auth/callback/passkey?")

    await page.evaluate(() => window.authjs.signOut({ redirect: false }))
    expect(await sessionEmail()).toBeNull()

    // No email: authentication with discoverable credentials, the virtual authenticator picks Ada's.
    const signedIn = await page.evaluate(() => window.authjs.signIn("passkey", { redirect: false, callbackUrl: "/dashboard" }))
    expect(signedIn).toEqual({ error: null, code: null, status: 200, ok: true, url: `${origin}/dashboard` })
    expect(await sessionEmail()).toBe("ada@example.test")
    expect(served).toContain("GET /auth/webauthn-options/passkey?")
    expect((await credentials())[0]!.signCount).toBeGreaterThan(0)

    await page.evaluate(() => window.authjs.signOut({ redirect: false }))
    // A known email: authentication with that user's credentials; the client follows the redirect.
    await Promise.all([
      page.waitForURL(`${origin}/welcome`),
      page.evaluate(() => void window.authjs.signIn("passkey", { email: "ada@example.test", redirectTo: "/welcome" })),
    ])
    await page.waitForFunction(() => (window as unknown as { authjsReady?: boolean }).authjsReady === true)
    expect(await sessionEmail()).toBe("ada@example.test")
    expect(await credentials()).toHaveLength(1)
    expect(recorder.errors).toEqual([])
  }, 60_000)

  it("a signed-in user adds a second passkey with action: register", async () => {
    await page.evaluate(() => window.authjs.signIn("passkey", { email: "grace@example.test", redirect: false }))
    // The virtual authenticator excludes the credential it already holds: a second authenticator registers.
    const second = (await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "usb", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })) as { authenticatorId: string }
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId })
    const added = await page.evaluate(() => window.authjs.signIn("passkey", { action: "register", redirect: false }))
    expect(added).toMatchObject({ error: null, ok: true })
    const user = await config.adapter!.getUserByEmail!("grace@example.test")
    expect(await config.adapter!.listAuthenticatorsByUserId!(user!.id)).toHaveLength(2)
    const { credentials: held } = (await cdp.send("WebAuthn.getCredentials", { authenticatorId: second.authenticatorId })) as { credentials: unknown[] }
    expect(held).toHaveLength(1)
  }, 60_000)

  it("a refused ceremony comes back as the Auth.js error shape: register for a known email while signed out", async () => {
    await page.evaluate(() => window.authjs.signIn("passkey", { email: "lin@example.test", redirect: false }))
    await page.evaluate(() => window.authjs.signOut({ redirect: false }))
    const errors: string[] = []
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()))
    // next-auth/webauthn logs the options error and resolves undefined, as against Auth.js.
    const refused = await page.evaluate(() => window.authjs.signIn("passkey", { email: "lin@example.test", action: "register", redirect: false }))
    expect(refused).toBeUndefined()
    expect(errors.join("\n")).toContain('{"error":"Invalid request"}')
    expect(await sessionEmail()).toBeNull()
  }, 60_000)

  it("in a React page: SessionProvider with basePath follows next-auth/webauthn's sign-in, update() and signOut", async () => {
    await page.goto(`${origin}/react-app`)
    const status = page.locator("#status")
    await expect.poll(() => status.textContent()).toBe("unauthenticated:-:-")

    await page.evaluate(() => window.authjs.signIn("passkey", { email: "ada@example.test", redirect: false }))
    await expect.poll(() => status.textContent()).toBe("authenticated:ada@example.test:-")
    expect(served).toContain("GET /auth/session")

    await page.evaluate(() => window.update({ name: "Ada Lovelace" }))
    await expect.poll(() => status.textContent()).toBe("authenticated:ada@example.test:Ada Lovelace")
    expect(served).toContain("POST /auth/session")

    await page.evaluate(() => window.authjs.signOut({ redirect: false }))
    await expect.poll(() => status.textContent()).toBe("unauthenticated:-:-")

    await page.evaluate(() => window.authjs.signIn("passkey", { redirect: false }))
    await expect.poll(() => status.textContent()).toBe("authenticated:ada@example.test:-")
    expect(await credentials()).toHaveLength(1)
    expect(recorder.errors).toEqual([])
  }, 60_000)
})
