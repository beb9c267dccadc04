/**
 * Passkeys on the built-in sign-in page in Chromium, with CDP's virtual authenticator standing in
 * for the platform authenticator: register, sign out, sign in with the passkey (button and
 * conditional UI). The server is `Auth()` behind node:http with the memory adapter.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest"
import { browserSuite, launchChromium } from "../support/chromium.js"
import { Auth } from "../../src/index.js"
import { sendWebResponse, toWebRequest } from "../../src/frameworks/node.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Passkey from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import { recordingLogger } from "../helpers.js"

browserSuite("passkeys on the built-in sign-in page (Chromium virtual authenticator)", () => {
  let browser: Browser
  let server: Server
  let origin: string
  let config: AuthConfig
  let context: BrowserContext
  let page: Page
  let cdp: CDPSession
  let authenticatorId: string

  beforeAll(async () => {
    browser = await launchChromium()
    server = createServer((req, res) => {
      void (async () => {
        const url = req.url ?? "/"
        if (url.startsWith("/auth/")) return sendWebResponse(res, await Auth(await toWebRequest(req), config))
        res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><title>App</title><p>app page</p>")
      })().catch((error: unknown) => res.writeHead(500).end(String(error)))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    // "localhost" (not the IP): a relying party ID must be a domain, and localhost is a secure context.
    origin = `http://localhost:${(server.address() as AddressInfo).port}`
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  function configWith(provider: ReturnType<typeof Passkey>): AuthConfig {
    return {
      basePath: "/auth",
      secret: "a-secret-long-enough-for-browser-tests-0123456789",
      trustHost: true,
      adapter: MemoryAdapter(),
      providers: [provider],
      experimental: { enableWebAuthn: true },
      logger: recordingLogger().logger,
    }
  }

  beforeEach(async () => {
    context = await browser.newContext()
    page = await context.newPage()
    cdp = await context.newCDPSession(page)
    await cdp.send("WebAuthn.enable")
    ;({ authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    }))
  })

  afterEach(async () => {
    await context?.close()
  })

  async function sessionEmail(): Promise<string | undefined> {
    const response = await page.request.get(`${origin}/auth/session`)
    const session = (await response.json()) as { user?: { email?: string } } | null
    return session?.user?.email
  }

  async function signOut() {
    await page.goto(`${origin}/auth/signout`)
    await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/auth/signout")), page.getByRole("button", { name: "Sign out" }).click()])
    expect(await sessionEmail()).toBeUndefined()
  }

  async function register(email: string) {
    await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/welcome`)}`)
    await page.getByLabel("Email").fill(email)
    await Promise.all([page.waitForURL(`${origin}/welcome`), page.getByRole("button", { name: "Sign in with Passkey" }).click()])
    expect(await sessionEmail()).toBe(email)
    const { credentials } = (await cdp.send("WebAuthn.getCredentials", { authenticatorId: authenticatorId })) as { credentials: { isResidentCredential: boolean }[] }
    expect(credentials).toHaveLength(1)
    expect(credentials[0]?.isResidentCredential).toBe(true)
  }

  it("registers a passkey, signs out, and signs in with it from the passkey button", async () => {
    // Without conditional UI, so that only the button starts a ceremony.
    config = configWith(Passkey({ enableConditionalUI: false }))
    await register("ada@example.test")
    await signOut()

    await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/again`)}`)
    await page.getByLabel("Email").fill("ada@example.test")
    await Promise.all([page.waitForURL(`${origin}/again`), page.getByRole("button", { name: "Sign in with Passkey" }).click()])
    expect(await sessionEmail()).toBe("ada@example.test")
    // An authentication, not a second registration: still one credential, now used once.
    const { credentials } = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })) as { credentials: { signCount: number }[] }
    expect(credentials).toHaveLength(1)
    expect(credentials[0]?.signCount).toBeGreaterThan(0)
  }, 60_000)

  it("signs in through conditional UI: the page offers the passkey to autofill, which the virtual authenticator accepts", async () => {
    config = configWith(Passkey())
    await register("grace@example.test")
    await signOut()

    const requests: string[] = []
    const hosts = new Set<string>()
    page.on("request", (request) => {
      const url = new URL(request.url())
      hosts.add(url.origin)
      requests.push(`${request.method()} ${url.pathname}${url.search}`)
    })
    // No click: the page starts a conditional-mediation ceremony on load.
    await Promise.all([page.waitForURL(`${origin}/again`), page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/again`)}`)])
    expect(await sessionEmail()).toBe("grace@example.test")
    expect(requests).toContain("GET /auth/webauthn-options/passkey?action=authenticate")
    expect(requests).toContain("POST /auth/callback/passkey")
    // Everything, @simplewebauthn/browser included, comes from the app itself.
    expect([...hosts]).toEqual([origin])
  }, 60_000)
})
