/**
 * The docs site as a reader meets it: `npm run docs:build` (TypeDoc, then VitePress), the built site
 * served from a static server on loopback, and every page opened in Chromium. Each page must load
 * without a console error or an uncaught exception, and load nothing from another host (no web
 * fonts, no CDN: the site works offline). The local search must find `redirectProxyUrl` and lead to
 * a page that explains it. Prints the build time and the site's weight.
 *
 * `DOCS_BUILT=1` skips the build and opens the site `npm run docs:build` last wrote.
 */
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { extname, join, normalize, relative } from "node:path"
import type { Browser, Request } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { browserSuite, launchChromium } from "../support/chromium.js"

const root = new URL("../..", import.meta.url).pathname
const dist = join(root, "docs/.vitepress/dist")

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json",
}

/** Every file under `dir`, relative to it. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
}

/** A static server for the built site, as any host would serve it: `/x/` is `/x/index.html`. */
function serve(): Promise<Server> {
  const server = createServer((request, response) => {
    let path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname))
    if (path.endsWith("/")) path += "index.html"
    const file = join(dist, path)
    try {
      if (!file.startsWith(dist) || !statSync(file).isFile()) throw new Error("not a file")
      response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" })
      response.end(readFileSync(file))
    } catch {
      response.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end(readFileSync(join(dist, "404.html")))
    }
  })
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)))
}

browserSuite("the docs site in Chromium", () => {
  let server: Server
  let browser: Browser
  let base: string
  let pages: string[]

  beforeAll(async () => {
    const started = performance.now()
    if (!process.env.DOCS_BUILT) execFileSync("npm", ["run", "docs:build"], { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } })
    const seconds = process.env.DOCS_BUILT ? "skipped (DOCS_BUILT)" : `${((performance.now() - started) / 1000).toFixed(1)} s`
    const files = filesIn(dist)
    const bytes = files.reduce((sum, file) => sum + statSync(join(dist, file)).size, 0)
    pages = files.filter((file) => file.endsWith(".html") && file !== "404.html").sort()
    console.log(`[docs] npm run docs:build: ${seconds}; ${pages.length} pages, ${files.length} files, ${(bytes / 1024).toFixed(0)} KB`)
    server = await serve()
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await launchChromium()
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((done) => server?.close(done))
  })

  it("opens every page without a console error, loading nothing from another host", async () => {
    expect(pages.length).toBeGreaterThan(30)
    const context = await browser.newContext()
    const outside: string[] = []
    await context.route("**/*", (route) => {
      if (route.request().url().startsWith(base)) return route.continue()
      outside.push(route.request().url())
      return route.abort()
    })
    const problems: string[] = []
    const page = await context.newPage()
    let current = ""
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`${current}: console error: ${message.text()}`)
    })
    page.on("pageerror", (error) => problems.push(`${current}: ${error.message}`))
    for (const file of pages) {
      current = file
      // Scripts run (and the page hydrates) before "load"; a console error there is caught above.
      const response = await page.goto(`${base}/${file}`, { waitUntil: "load" })
      expect(response?.status(), file).toBe(200)
      expect((await page.locator(".vp-doc h1").first().textContent())?.trim(), `${file} has a title`).toBeTruthy()
    }
    await context.close()
    expect(problems).toEqual([])
    expect(outside, "requests to other hosts").toEqual([])
  }, 300_000)

  it("weighs a typical page: what a first visit to a guide loads", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const sizes: Promise<number>[] = []
    // A request that finishes while the context closes cannot report its size: count it as 0 rather than leave a rejection nobody awaits.
    const record = (request: Request) => void sizes.push(request.sizes().then((size) => size.responseBodySize, () => 0))
    page.on("requestfinished", record)
    await page.goto(`${base}/guides/providers.html`, { waitUntil: "load" })
    // What the page needs, until "load"; then, once idle, VitePress prefetches the pages it links to.
    const loaded = sizes.slice()
    await page.waitForLoadState("networkidle")
    const total = (list: Promise<number>[]) => Promise.all(list).then((all) => all.reduce((sum, size) => sum + size, 0))
    const bytes = await total(loaded)
    page.off("requestfinished", record)
    const prefetched = (await total(sizes)) - bytes
    await context.close()
    // The static server sends files as they are: a host that compresses sends about 40% of this.
    console.log(`[docs] a first visit to guides/providers.html loads ${loaded.length} files, ${(bytes / 1024).toFixed(0)} KB (uncompressed), then prefetches ${sizes.length - loaded.length} files, ${(prefetched / 1024).toFixed(0)} KB`)
    expect(bytes).toBeGreaterThan(100_000)
    expect(bytes, "a guide's first visit stays light").toBeLessThan(1024 * 1024)
  })

  it("finds redirectProxyUrl with the local search, and leads to a page that explains it", async () => {
    const page = await browser.newPage()
    await page.goto(`${base}/index.html`, { waitUntil: "networkidle" })
    await page.locator("button.DocSearch-Button").click()
    await page.locator("#localsearch-input").fill("redirectProxyUrl")
    const results = page.locator(".results .result")
    await results.first().waitFor()
    expect(await results.count()).toBeGreaterThan(0)
    await results.first().click()
    // The site navigates inside the page: the address changes first, the text once the page's chunk
    // has loaded, so wait for the text (a network-idle wait can come before the new page's request).
    await page.waitForURL((url) => url.href !== `${base}/index.html`)
    await page.locator(".vp-doc", { hasText: "redirectProxyUrl" }).waitFor({ timeout: 15_000 })
    expect(await page.locator(".vp-doc").innerText()).toContain("redirectProxyUrl")
    await page.close()
  })
})
