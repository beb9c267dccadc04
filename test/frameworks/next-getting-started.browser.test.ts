/**
 * docs/getting-started/nextjs.md walked as a new user would: the app made by create-next-app (the
 * version the page names, resolved on the npm registry now) with its defaults, `cacheComponents`
 * on; the packed authflow tarball installed; the page's files pasted from its code blocks and its
 * secret step run; `npm run build`, then `npm start` with `AUTH_URL`, as step 8 says; signed in and
 * out in Chromium. The server must log no error while the signed-in page renders (the JWT decode
 * reads the clock, which Next.js refuses while prerendering unless `auth()` waits for
 * `connection()`). Prints the time from the create command to a signed-in page.
 *
 * Not the user's: the created app comes from a cache after the first run (getting-started.ts), and
 * the build reads Google Fonts' stylesheets from a loopback stand-in, since nothing but the npm
 * registry is reachable here.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { expect, it } from "vitest"
import { browserSuite } from "../support/chromium.js"
import { screenshots } from "./example-app.js"
import { createCommand, errorLines, googleFontsStandIn, walkGettingStarted } from "./getting-started.js"

browserSuite("docs/getting-started/nextjs.md, from create-next-app to a signed-in page in Chromium", () => {
  const walked = walkGettingStarted({
    page: "nextjs.md",
    framework: "Next.js",
    // As the page says (`npx create-next-app@16 my-app --yes`), pinned to what the range gives today; no git repository.
    create: (pinned, words) => ["npx", pinned, ...words.slice(2), "--disable-git"],
    build: ["npm", "run", "build"],
    buildAid: googleFontsStandIn,
    start: (port) => ["npm", "start", "--", "-p", String(port)],
    env: (url) => ({ AUTH_URL: url, NEXT_TELEMETRY_DISABLED: "1" }),
    readyPath: "/api/auth/providers",
  })

  it("the page's create command takes create-next-app 16's defaults: cacheComponents on, the @/* alias", () => {
    expect(createCommand("nextjs.md").words).toEqual(["npx", "create-next-app@16", "my-app", "--yes"])
    const { dir } = walked.created
    expect(readFileSync(join(dir, "next.config.ts"), "utf8")).toMatch(/cacheComponents:\s*true/)
    expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).toContain('"@/*": ["./*"]')
    expect([...walked.pasted].sort()).toEqual(["app/actions.ts", "app/api/auth/[...nextauth]/route.ts", "app/page.tsx", "app/signin/form.tsx", "app/signin/page.tsx", "auth.ts", "proxy.ts"])
    expect(readFileSync(join(dir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=\S{32,}$/m)
    expect(errorLines(walked.buildLog)).toEqual([])
  })

  async function signInAs(tab: Page, password: string): Promise<void> {
    await tab.locator('input[name="username"]').fill("ada")
    await tab.locator('input[name="password"]').fill(password)
    await tab.getByRole("button", { name: "Sign in" }).click()
  }

  it("signs in and out as the page says, and the server logs no error while the signed-in page renders", async () => {
    const { server, browser } = walked
    const base = server.url
    const context = await browser.newContext()
    const tab = await context.newPage()
    const pageErrors: string[] = []
    tab.on("pageerror", (error) => pageErrors.push(error.message))

    await tab.goto(`${base}/`)
    await expect.poll(() => tab.locator("body").innerText()).toContain("Not signed in.")
    await tab.getByRole("link", { name: "Sign in" }).click()
    await tab.waitForURL(`${base}/signin`)

    await signInAs(tab, "wrong")
    await expect.poll(() => tab.locator("p[role=alert]").innerText()).toBe("Wrong username or password.")

    const logBefore = server.output().length
    await signInAs(tab, "lovelace")
    await tab.waitForURL(`${base}/`)
    await expect.poll(() => tab.locator("body").innerText()).toContain("Hello Ada Lovelace.")
    walked.signedIn()
    // The signed-in page again, as a fresh request (not the Server Action's redirect).
    await tab.reload()
    await expect.poll(() => tab.locator("body").innerText()).toContain("Hello Ada Lovelace.")
    await tab.screenshot({ path: `${screenshots}next-getting-started-signed-in.png` })
    const signedInLog = server.output().slice(logBefore)
    expect(errorLines(signedInLog), signedInLog).toEqual([])

    await tab.getByRole("button", { name: "Sign out" }).click()
    await expect.poll(() => tab.locator("body").innerText()).toContain("Not signed in.")
    expect((await (await context.request.get(`${base}/api/auth/session`)).json()) as unknown).toBeNull()
    expect(pageErrors).toEqual([])
    expect(errorLines(server.output())).toEqual([])
    await context.close()
  })
})
