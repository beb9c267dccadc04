/**
 * Arabic and Hebrew pages in Chromium: the document is right to left, text starts at the right,
 * nothing is clipped or overflows sideways, at a desktop and a phone width. Screenshots go to
 * test/pages/__screenshots__/ (not committed).
 */
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { translatorOf } from "../../src/core/i18n/load.js"
import { renderErrorPage, renderSignInPage } from "../../src/pages/index.js"
import { renderSecondFactorPage } from "../../src/pages/second-factor.js"
import { browserSuite, launchChromium } from "../support/chromium.js"
import { BASE, CSRF, ORIGIN, allProviders } from "./fixtures.js"

const OUTPUT = fileURLToPath(new URL("./__screenshots__/", import.meta.url))
const VIEWPORTS = { desktop: { width: 900, height: 1000 }, phone: { width: 360, height: 800 } } as const

async function pagesIn(locale: "ar" | "he"): Promise<Record<string, string>> {
  const text = await translatorOf(undefined, locale)
  return {
    signin: renderSignInPage({ providers: allProviders, csrfToken: CSRF, callbackUrl: `${ORIGIN}/dashboard`, theme: {}, text }).html,
    "signin-error": renderSignInPage({ providers: allProviders, csrfToken: CSRF, error: "MissingCSRF", theme: {}, text }).html,
    "error-verification": renderErrorPage({ error: "Verification", url: `${BASE}/error?error=Verification`, signinUrl: `${BASE}/signin`, host: ORIGIN, theme: {}, text }).html,
    "error-default": renderErrorPage({ url: `${BASE}/error`, signinUrl: `${BASE}/signin`, host: ORIGIN, theme: {}, text }).html,
    "second-factor": renderSecondFactorPage({ action: `${BASE}/second-factor`, csrfToken: CSRF, methods: ["totp", "backup", "email"], refusal: "wrong-code", trustedDeviceDays: 30, theme: {}, text }).html,
  }
}

/** Every visible element with text of its own that is clipped or reaches outside the viewport. */
function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    const width = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth > width + 1) found.push(`document: scrollWidth ${document.documentElement.scrollWidth} > ${width}`)
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const own = Array.from(el.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== "")
      if (!own) continue
      const rect = el.getBoundingClientRect()
      if (rect.width === 0 || rect.height === 0) continue
      const name = `${el.tagName.toLowerCase()} "${el.textContent!.trim().slice(0, 30)}"`
      if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) found.push(`${name}: scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`)
      if (rect.left < -1 || rect.right > width + 1) found.push(`${name}: outside the viewport (${Math.round(rect.left)}..${Math.round(rect.right)} of ${width})`)
    }
    return found
  })
}

browserSuite("right-to-left pages in Chromium", () => {
  let browser: Browser

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true })
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
  })

  for (const locale of ["ar", "he"] as const) {
    describe(locale, () => {
      for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
        it(`sign-in, error and second-factor pages are rtl, start at the right and clip nothing (${viewportName})`, async () => {
          const context = await browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme: "light" })
          try {
            const page = await context.newPage()
            await page.route("**/*", (route) => route.abort())
            for (const [name, html] of Object.entries(await pagesIn(locale))) {
              await page.setContent(html, { waitUntil: "load" })
              await page.screenshot({ path: `${OUTPUT}${locale}-${name}-${viewportName}.png`, fullPage: true })
              const layout = await page.evaluate(() => {
                const label = document.querySelector("label")
                let labelEdges: { text: number; box: number } | undefined
                if (label?.firstChild) {
                  const range = document.createRange()
                  range.selectNodeContents(label)
                  const box = label.getBoundingClientRect()
                  labelEdges = { text: range.getBoundingClientRect().right, box: box.right - parseFloat(getComputedStyle(label).paddingRight) }
                }
                return {
                  direction: getComputedStyle(document.documentElement).direction,
                  lang: document.documentElement.lang,
                  labelEdges,
                }
              })
              expect(layout.direction, name).toBe("rtl")
              expect(layout.lang, name).toBe(locale)
              // A label's text starts at the right edge of its box, as right-to-left text does.
              if (layout.labelEdges) expect(Math.abs(layout.labelEdges.text - layout.labelEdges.box), name).toBeLessThanOrEqual(1)
              expect(await clipped(page), `${locale} ${name} (${viewportName})`).toEqual([])
            }
          } finally {
            await context.close()
          }
        }, 60_000)
      }
    })
  }
})
