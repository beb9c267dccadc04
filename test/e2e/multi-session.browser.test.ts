/**
 * Three accounts in one Chromium (`multiSession`), on the built-in pages and the routes the browser
 * client calls, with both session strategies: sign in A, add B and C through "Use another account",
 * list them, switch to A, sign out B alone, then sign out all.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import Password from "../../src/providers/password.js"
import { browserSuite } from "../support/chromium.js"
import { servePages, type ServedPages } from "./served-pages.js"
import { buildRequest, CookieJar } from "../helpers.js"
import type { AuthConfig } from "../../src/types.js"

const password = "correct horse battery"

browserSuite("three accounts in one browser, in Chromium", () => {
  let served: ServedPages
  let browser: Browser
  let origin: string
  const configOf = (strategy: "jwt" | "database"): AuthConfig => ({
    secret: "multi-session-browser-secret-of-32-chars",
    trustHost: true,
    basePath: `/auth-${strategy}`,
    adapter: MemoryAdapter(),
    session: { strategy },
    multiSession: true,
    providers: [Password({ hashing: { scrypt: { ln: 10 } } })],
  })
  const configs = { jwt: configOf("jwt"), database: configOf("database") }

  beforeAll(async () => {
    served = await servePages((url) => (url.startsWith("/auth-jwt") ? configs.jwt : url.startsWith("/auth-database") ? configs.database : undefined))
    browser = served.browser
    origin = served.origin
    // The three accounts exist (signed up elsewhere).
    for (const strategy of ["jwt", "database"] as const) {
      for (const who of ["a", "b", "c"]) {
        const jar = new CookieJar()
        const base = `${origin}/auth-${strategy}`
        const csrf = await Auth(buildRequest(`${base}/csrf`, {}, jar), configs[strategy])
        jar.take(csrf)
        const { csrfToken } = (await csrf.json()) as { csrfToken: string }
        await Auth(buildRequest(`${base}/signup/password`, { form: { csrfToken, email: `${who}@example.test`, password } }, jar), configs[strategy])
      }
    }
  })

  afterAll(() => served?.close())

  async function signInOnPage(page: Page, email: string) {
    await page.getByLabel("Email").fill(email)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: /sign in with/i }).click()
    await page.waitForURL(`${origin}/home`)
  }

  /** What `listAccounts()` of authflow/client reads: the active account's email, then the others'. */
  async function accounts(page: Page, base: string): Promise<(string | null)[]> {
    return page.evaluate(async (url) => {
      const { active, others } = (await (await fetch(url, { headers: { Accept: "application/json" } })).json()) as { active: { user: { email: string } } | null; others: { id: string; user: { email: string } }[] }
      return [active?.user.email ?? null, ...others.map((other) => other.user.email)]
    }, `${origin}${base}/sessions`)
  }

  /** A POST as `authflow/client` sends it (CSRF token from `/csrf`), answered JSON. */
  async function post(page: Page, base: string, path: string, fields: Record<string, string>): Promise<number> {
    return page.evaluate(
      async ({ base, path, fields }) => {
        const { csrfToken } = (await (await fetch(`${base}/csrf`)).json()) as { csrfToken: string }
        const response = await fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json", "X-Auth-Return-Redirect": "1" }, body: JSON.stringify({ csrfToken, ...fields }) })
        return response.status
      },
      { base: `${origin}${base}`, path, fields },
    )
  }

  async function idOf(page: Page, base: string, email: string): Promise<string> {
    return page.evaluate(
      async ({ url, email }) => {
        const { others } = (await (await fetch(url)).json()) as { others: { id: string; user: { email: string } }[] }
        return others.find((other) => other.user.email === email)!.id
      },
      { url: `${origin}${base}/sessions`, email },
    )
  }

  for (const strategy of ["jwt", "database"] as const) {
    it(`signs in A, adds B and C, lists, switches to A, signs out B, then all (${strategy} sessions)`, async () => {
      const base = `/auth-${strategy}`
      const context = await browser.newContext()
      const page = await context.newPage()

      await page.goto(`${origin}${base}/signin?callbackUrl=${encodeURIComponent(`${origin}/home`)}`)
      expect(await page.getByRole("link", { name: "Use another account" }).count()).toBe(0)
      await signInOnPage(page, "a@example.test")
      for (const email of ["b@example.test", "c@example.test"]) {
        await page.goto(`${origin}${base}/signin?callbackUrl=${encodeURIComponent(`${origin}/home`)}`)
        await page.getByRole("link", { name: "Use another account" }).click()
        await page.waitForLoadState("load")
        expect(page.url()).toContain("addAccount=1")
        await signInOnPage(page, email)
      }
      expect(await accounts(page, base)).toEqual(["c@example.test", "b@example.test", "a@example.test"])

      expect(await post(page, base, "/sessions/switch", { account: await idOf(page, base, "a@example.test") })).toBe(200)
      expect(await accounts(page, base)).toEqual(["a@example.test", "c@example.test", "b@example.test"])
      const session = await page.evaluate(async (url) => (await (await fetch(url)).json()) as { user: { email: string } }, `${origin}${base}/session`)
      expect(session.user.email).toBe("a@example.test")

      expect(await post(page, base, "/signout", { account: await idOf(page, base, "b@example.test") })).toBe(200)
      expect(await accounts(page, base)).toEqual(["a@example.test", "c@example.test"])

      // Sign out all on the built-in sign-out page.
      await page.goto(`${origin}${base}/signout`)
      await page.getByRole("button", { name: /sign out/i }).click()
      await page.waitForLoadState("load")
      expect(await accounts(page, base)).toEqual([null])
      expect((await context.cookies()).map((cookie) => cookie.name).filter((name) => name.includes("session"))).toEqual([])
      await context.close()
    })
  }
})
