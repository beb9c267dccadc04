/**
 * Password accounts in Chromium, on the built-in pages only, with both session strategies: sign up
 * (the address must be verified), follow the mailed link, sign in, sign out; forget the password,
 * follow the reset link, choose a new one; the old password is refused and the new one signs in;
 * change it while signed in. Verified by code (`verifyBy: "code"`): sign up, type the mailed code,
 * signed in, sign out.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password, { type PasswordMail } from "../../src/providers/password.js"
import { hashPassword } from "../../src/core/password/index.js"
import { browserSuite } from "../support/chromium.js"
import { servePages, type ServedPages } from "./served-pages.js"
import type { AuthConfig } from "../../src/types.js"

browserSuite("password accounts on the built-in pages, in Chromium", () => {
  let served: ServedPages
  let browser: Browser
  let origin: string
  const mails: PasswordMail[] = []
  const configOf = (strategy: "jwt" | "database", verifyBy: "link" | "code"): AuthConfig => ({
    secret: "password-browser-secret-of-32-characters",
    trustHost: true,
    basePath: verifyBy === "code" ? `/auth-${strategy}-code` : `/auth-${strategy}`,
    adapter: MemoryAdapter(),
    session: { strategy },
    providers: [Password({ verification: "required", verifyBy, hashing: { scrypt: { ln: 12 } }, sendMail: (mail) => void mails.push(mail) })],
  })

  const configs = { jwt: configOf("jwt", "link"), database: configOf("database", "link") }

  beforeAll(async () => {
    const all = [configs.jwt, configs.database, configOf("jwt", "code"), configOf("database", "code")]
    served = await servePages((url) => all.find(({ basePath }) => url === basePath || url.startsWith(`${basePath}/`) || url.startsWith(`${basePath}?`)))
    browser = served.browser
    origin = served.origin
  })

  afterAll(() => served?.close())

  async function signedIn(page: Page, base: string): Promise<string | undefined> {
    const response = await page.request.get(`${origin}${base}/session`)
    return ((await response.json()) as { user?: { email?: string } } | null)?.user?.email
  }

  async function signIn(page: Page, base: string, email: string, password: string) {
    await page.goto(`${origin}${base}/signin?callbackUrl=${encodeURIComponent(`${origin}/home`)}`)
    await page.getByLabel("Email").fill(email)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: /sign in with/i }).click()
    await page.waitForLoadState("load")
  }

  async function signOut(page: Page, base: string) {
    await page.goto(`${origin}${base}/signout`)
    await page.getByRole("button", { name: /sign out/i }).click()
    await page.waitForLoadState("load")
  }

  const lastMail = <K extends PasswordMail["kind"]>(kind: K, to: string) => mails.filter((mail): mail is Extract<PasswordMail, { kind: K }> => mail.kind === kind && mail.to === to).at(-1)

  for (const strategy of ["jwt", "database"] as const) {
    it(`signs up, verifies the address by the mailed link, signs in and out (${strategy} sessions)`, async () => {
      const base = `/auth-${strategy}`
      const email = `ada-${strategy}@example.test`
      const context = await browser.newContext()
      const page = await context.newPage()

      await page.goto(`${origin}${base}/signin`)
      await page.getByRole("link", { name: "Create an account" }).click()
      await page.getByLabel("Email").fill(email)
      await page.getByLabel("Name (optional)").fill("Ada")
      await page.getByLabel("Password").fill("correct horse battery")
      await page.getByRole("button", { name: "Create account" }).click()
      await page.waitForLoadState("load")
      expect(await page.getByRole("status").textContent()).toContain("we sent a link to verify the address")
      expect(await signedIn(page, base)).toBeUndefined()

      // Not verified yet: the password alone does not sign in.
      await signIn(page, base, email, "correct horse battery")
      expect(await signedIn(page, base)).toBeUndefined()

      const verify = lastMail("verify-email", email)!
      await page.goto(verify.url)
      expect(await page.getByRole("status").textContent()).toContain("Your email address is verified")

      await signIn(page, base, email, "correct horse battery")
      expect(page.url()).toBe(`${origin}/home`)
      expect(await signedIn(page, base)).toBe(email)

      await signOut(page, base)
      expect(await signedIn(page, base)).toBeUndefined()
      await context.close()
    })
  }

  for (const strategy of ["jwt", "database"] as const) {
    it(`signs up, types the mailed code, is signed in, signs out (${strategy} sessions)`, async () => {
      const base = `/auth-${strategy}-code`
      const email = `grace-${strategy}@example.test`
      const context = await browser.newContext()
      const page = await context.newPage()

      await page.goto(`${origin}${base}/signup/password?callbackUrl=${encodeURIComponent(`${origin}/home`)}`)
      await page.getByLabel("Email").fill(email)
      await page.getByLabel("Password").fill("correct horse battery")
      await page.getByRole("button", { name: "Create account" }).click()
      await page.waitForLoadState("load")
      expect(await page.textContent("body")).toContain("to verify your address")
      expect(await signedIn(page, base)).toBeUndefined()

      const { code } = lastMail("verify-email", email)!
      expect(code).toMatch(/^\d{6}$/)
      await page.getByLabel("Code from your email").fill(code!)
      await page.getByRole("button", { name: "Verify" }).click()
      await page.waitForLoadState("load")
      expect(page.url()).toBe(`${origin}/home`)
      expect(await signedIn(page, base)).toBe(email)

      await signOut(page, base)
      expect(await signedIn(page, base)).toBeUndefined()
      await context.close()
    })
  }
  describe("forgot, reset and change the password", () => {
    /** A verified account with `password`, written through the adapter (sign-up has its own walk above). */
    async function account(strategy: "jwt" | "database", email: string, password: string) {
      const adapter = configs[strategy].adapter as ReturnType<typeof MemoryAdapter>
      const user = await adapter.createUser({ id: crypto.randomUUID(), email, name: "Grace", emailVerified: new Date() })
      await adapter.linkAccount({ userId: user.id, type: "credentials" as never, provider: "password", providerAccountId: user.id, refresh_token: await hashPassword(password, { scrypt: { ln: 12 } }) })
    }

    for (const strategy of ["jwt", "database"] as const) {
      it(`forgets the password, resets it by the mailed link, signs in with the new one, then changes it (${strategy} sessions)`, async () => {
        const base = `/auth-${strategy}`
        const email = `hopper-${strategy}@example.test`
        await account(strategy, email, "the old password")
        const context = await browser.newContext()
        const page = await context.newPage()

        // Forgot password? on the sign-in page, then the mailed link and its new-password form.
        await page.goto(`${origin}${base}/signin`)
        await page.getByRole("link", { name: "Forgot password?" }).click()
        await page.getByLabel("Email").fill(email)
        await page.getByRole("button", { name: "Send the link" }).click()
        await page.waitForLoadState("load")
        expect(await page.getByRole("status").textContent()).toContain("we mailed it a link to choose a new password")
        const reset = lastMail("reset-password", email)!
        await page.goto(reset.url)
        await page.getByLabel("New password").fill("the new password")
        await page.getByRole("button", { name: "Set the new password" }).click()
        await page.waitForLoadState("load")
        expect(await page.getByRole("status").textContent()).toContain("Sign in with the new one")
        expect(lastMail("password-changed", email)).toBeDefined()

        // The old password is refused, the new one signs in.
        await signIn(page, base, email, "the old password")
        expect(await signedIn(page, base)).toBeUndefined()
        await signIn(page, base, email, "the new password")
        expect(page.url()).toBe(`${origin}/home`)
        expect(await signedIn(page, base)).toBe(email)

        // The link worked once: followed again, it is refused.
        await page.goto(reset.url)
        await page.getByLabel("New password").fill("yet another password")
        await page.getByRole("button", { name: "Set the new password" }).click()
        await page.waitForLoadState("load")
        expect(page.url()).toContain("error=PasswordLinkInvalid")

        // Changed while signed in: this session stays, the next sign-in needs the newest password.
        await page.goto(`${origin}${base}/change-password/password`)
        await page.getByLabel("Current password").fill("the new password")
        await page.getByLabel("New password").fill("the newest password")
        await page.getByRole("button", { name: "Change password" }).click()
        await page.waitForLoadState("load")
        expect(await page.getByRole("status").textContent()).toContain("Your password was changed.")
        expect(await signedIn(page, base)).toBe(email)
        await context.clearCookies()
        await signIn(page, base, email, "the new password")
        expect(await signedIn(page, base)).toBeUndefined()
        await signIn(page, base, email, "the newest password")
        expect(await signedIn(page, base)).toBe(email)
        await context.close()
      })
    }
  })
})
