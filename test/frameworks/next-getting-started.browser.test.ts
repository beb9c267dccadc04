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
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { browserSuite, launchChromium } from "../support/chromium.js"
import { screenshots } from "./example-app.js"
import {
  build,
  createApp,
  createCommand,
  errorLines,
  freePort,
  googleFontsStandIn,
  installAuthflow,
  packAuthflow,
  pasteFiles,
  resolvedVersion,
  runSecretStep,
  startApp,
  type AppServer,
  type CreatedApp,
} from "./getting-started.js"

const page = "nextjs.md"

browserSuite("docs/getting-started/nextjs.md, from create-next-app to a signed-in page in Chromium", () => {
  const work = mkdtempSync(join(tmpdir(), "authflow-next-getting-started-"))
  const seconds: Record<string, number> = {}
  let lapStarted = 0
  const lap = (name: string) => {
    seconds[name] = Math.round((Date.now() - lapStarted) / 100) / 10
    lapStarted = Date.now()
  }
  let created: CreatedApp
  let pasted: string[] = []
  let buildLog = ""
  let server: AppServer | undefined
  let browser: Browser | undefined

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true })
    const tarball = packAuthflow()
    const { words, name, range } = createCommand(page)
    expect(words.slice(2)).toEqual(["my-app", "--yes"])
    const version = resolvedVersion(name, range)
    lapStarted = Date.now()
    // As the page says, with the version pinned to what the range gives today; no git repository.
    created = createApp(`${name}-${version}`, ["npx", `${name}@${version}`, "my-app", "--yes", "--disable-git"], work)
    lap("copy of the created app")
    installAuthflow(created.dir, tarball)
    lap("npm install authflow")
    pasted = pasteFiles(created.dir, page)
    runSecretStep(created.dir, page)
    lap("paste and secret")
    const fonts = await googleFontsStandIn(created.dir, work)
    try {
      buildLog = await build(created.dir, ["npm", "run", "build"], { NEXT_TELEMETRY_DISABLED: "1", ...fonts.env })
    } finally {
      await fonts.close()
    }
    lap("npm run build")
    const port = await freePort()
    const url = `http://localhost:${port}`
    server = await startApp(created.dir, ["npm", "start", "--", "-p", String(port)], url, "/api/auth/providers", { AUTH_URL: url, NEXT_TELEMETRY_DISABLED: "1" })
    lap("npm start")
    browser = await launchChromium()
  }, 900_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    rmSync(work, { recursive: true, force: true })
  })

  it("the app has create-next-app 16's defaults: cacheComponents on, the @/* alias", () => {
    expect(readFileSync(join(created.dir, "next.config.ts"), "utf8")).toMatch(/cacheComponents:\s*true/)
    expect(readFileSync(join(created.dir, "tsconfig.json"), "utf8")).toContain('"@/*": ["./*"]')
    expect(pasted.sort()).toEqual(["app/actions.ts", "app/api/auth/[...nextauth]/route.ts", "app/page.tsx", "app/signin/form.tsx", "app/signin/page.tsx", "auth.ts", "proxy.ts"])
    expect(readFileSync(join(created.dir, ".env.local"), "utf8")).toMatch(/^AUTH_SECRET=\S{32,}$/m)
    expect(errorLines(buildLog)).toEqual([])
  })

  async function signInAs(tab: Page, password: string): Promise<void> {
    await tab.locator('input[name="username"]').fill("ada")
    await tab.locator('input[name="password"]').fill(password)
    await tab.getByRole("button", { name: "Sign in" }).click()
  }

  it("signs in and out as the page says, and the server logs no error while the signed-in page renders", async () => {
    const base = server!.url
    const context = await browser!.newContext()
    const tab = await context.newPage()
    const pageErrors: string[] = []
    tab.on("pageerror", (error) => pageErrors.push(error.message))

    await tab.goto(`${base}/`)
    await expect.poll(() => tab.locator("body").innerText()).toContain("Not signed in.")
    await tab.getByRole("link", { name: "Sign in" }).click()
    await tab.waitForURL(`${base}/signin`)

    await signInAs(tab, "wrong")
    await expect.poll(() => tab.locator("p[role=alert]").innerText()).toBe("Wrong username or password.")

    const logBefore = server!.output().length
    await signInAs(tab, "lovelace")
    await tab.waitForURL(`${base}/`)
    await expect.poll(() => tab.locator("body").innerText()).toContain("Hello Ada Lovelace.")
    lap("sign in in Chromium")
    // The signed-in page again, as a fresh request (not the Server Action's redirect).
    await tab.reload()
    await expect.poll(() => tab.locator("body").innerText()).toContain("Hello Ada Lovelace.")
    await tab.screenshot({ path: `${screenshots}next-getting-started-signed-in.png` })
    const signedInLog = server!.output().slice(logBefore)
    expect(errorLines(signedInLog), signedInLog).toEqual([])

    await tab.getByRole("button", { name: "Sign out" }).click()
    await expect.poll(() => tab.locator("body").innerText()).toContain("Not signed in.")
    expect((await (await context.request.get(`${base}/api/auth/session`)).json()) as unknown).toBeNull()
    expect(pageErrors).toEqual([])
    expect(errorLines(server!.output())).toEqual([])
    await context.close()

    const afterCreate = Object.values(seconds).reduce((sum, value) => sum + value, 0)
    const create = Math.round(created.createMs / 100) / 10
    console.log(
      `[getting-started] Next.js: ${created.command.join(" ")} ${create} s${created.cached ? " (when it was made; cached since)" : ""}, ` +
        `${Object.entries(seconds).map(([name, value]) => `${name} ${value} s`).join(", ")}; ` +
        `from the create command to a signed-in page: ${(create + afterCreate - (seconds["copy of the created app"] ?? 0)).toFixed(1)} s`,
    )
  })
})
