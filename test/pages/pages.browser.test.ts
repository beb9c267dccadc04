/**
 * The built-in pages in a real browser (Debian's Chromium driven by playwright-core): screenshots in
 * both colour schemes, accessible names, keyboard order, focus styles, tap sizes and text contrast.
 */
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { browserSuite, launchChromium } from "../support/chromium.js"
import { contrastRatio } from "../../src/pages/theme.js"
import { pages } from "./fixtures.js"

const OUTPUT = fileURLToPath(new URL("../../test-output/pages/", import.meta.url))
const SCHEMES = ["light", "dark"] as const

type Rgba = [number, number, number, number]

function parseColor(css: string): Rgba {
  const match = /^rgba?\(([^)]+)\)$/.exec(css.trim())
  if (!match) throw new Error(`unexpected computed colour ${css}`)
  const parts = match[1]!.split(/[\s,/]+/).filter(Boolean).map(Number)
  return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1]
}

function toHex([r, g, b]: Rgba): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`
}

// Text drawn with alpha is blended over its background before measuring.
function blend(fg: Rgba, bg: Rgba): Rgba {
  const a = fg[3]
  return [fg[0] * a + bg[0] * (1 - a), fg[1] * a + bg[1] * (1 - a), fg[2] * a + bg[2] * (1 - a), 1]
}

interface TextSample {
  what: string
  color: string
  background: string
}

/** Every visible element with its own text, its colour and the first opaque background behind it. */
async function textSamples(page: Page): Promise<TextSample[]> {
  return page.evaluate(() => {
    const samples: { what: string; color: string; background: string }[] = []
    const opaqueBackground = (start: Element): string => {
      for (let el: Element | null = start; el; el = el.parentElement) {
        const bg = getComputedStyle(el).backgroundColor
        if (!/rgba\(.*,\s*0\)$/.test(bg) && bg !== "transparent") return bg
      }
      return "rgb(255, 255, 255)"
    }
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      const ownText = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== "")
      const isField = el instanceof HTMLInputElement && el.type !== "hidden"
      if (!ownText && !isField) continue
      const rect = el.getBoundingClientRect()
      if (rect.width === 0 || rect.height === 0) continue
      samples.push({
        what: `${el.tagName.toLowerCase()}${el.className ? `.${el.className}` : ""} "${(el.textContent || (el as HTMLInputElement).name || "").trim().slice(0, 40)}"`,
        color: getComputedStyle(el).color,
        background: opaqueBackground(el),
      })
    }
    return samples
  })
}

browserSuite("built-in pages in Chromium", () => {
  let browser: Browser

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true })
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
  })

  async function open(html: string, scheme: "light" | "dark", viewport = { width: 900, height: 1000 }) {
    const context = await browser.newContext({ viewport, colorScheme: scheme, deviceScaleFactor: 1 })
    const page = await context.newPage()
    const requests: string[] = []
    // The pages must be self-contained: any fetch (a logo CDN, a font) is recorded and refused.
    await page.route("**/*", (route) => {
      requests.push(route.request().url())
      return route.abort()
    })
    await page.setContent(html, { waitUntil: "load" })
    return { page, requests, close: () => context.close() }
  }

  for (const [name, rendered] of Object.entries(pages())) {
    describe(name, () => {
      for (const scheme of SCHEMES) {
        it(`renders in the ${scheme} scheme with readable text and no network`, async () => {
          const { page, requests, close } = await open(rendered.html, scheme)
          try {
            await page.screenshot({ path: `${OUTPUT}${name}-${scheme}.png`, fullPage: true })
            expect(requests).toEqual([])
            const samples = await textSamples(page)
            expect(samples.length).toBeGreaterThan(0)
            for (const sample of samples) {
              const background = parseColor(sample.background)
              const text = blend(parseColor(sample.color), background)
              const ratio = contrastRatio(toHex(text), toHex(background))!
              expect(ratio, `${sample.what}: ${sample.color} on ${sample.background}`).toBeGreaterThanOrEqual(4.5)
            }
          } finally {
            await close()
          }
        })
      }

      it("labels every input, tabs through the controls in order with a visible focus ring, and has tappable buttons", async () => {
        const { page, close } = await open(rendered.html, "light")
        try {
          const unlabelled = await page.evaluate(() =>
            Array.from(document.querySelectorAll<HTMLInputElement>("input:not([type=hidden])"))
              .filter((input) => !input.labels || input.labels.length === 0 || !input.labels[0]!.textContent!.trim())
              .map((input) => input.name),
          )
          expect(unlabelled).toEqual([])
          // The browser's own accessibility tree names each field after its label.
          const tree = await page.locator("body").ariaSnapshot()
          const fieldCount = await page.locator("input:not([type=hidden])").count()
          const namedFields = tree.match(/- textbox "[^"]+"/g) ?? []
          expect(namedFields).toHaveLength(fieldCount)

          const expected = await page.evaluate(() =>
            Array.from(document.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden])")).map(
              (el) => `${el.tagName.toLowerCase()}:${(el as HTMLInputElement).name || el.textContent!.trim()}`,
            ),
          )
          const visited: string[] = []
          for (let i = 0; i < expected.length; i++) {
            await page.keyboard.press("Tab")
            const focus = await page.evaluate(() => {
              const el = document.activeElement as HTMLElement
              const style = getComputedStyle(el)
              return {
                id: `${el.tagName.toLowerCase()}:${(el as HTMLInputElement).name || el.textContent!.trim()}`,
                outline: style.outlineStyle,
                width: Number.parseFloat(style.outlineWidth),
              }
            })
            visited.push(focus.id)
            expect(focus.outline, `focus ring on ${focus.id}`).not.toBe("none")
            expect(focus.width, `focus ring on ${focus.id}`).toBeGreaterThanOrEqual(2)
          }
          expect(visited).toEqual(expected)

          for (const box of await page.locator("button, a.button, input:not([type=hidden])").evaluateAll((els) =>
            els.map((el) => ({ text: el.textContent, height: el.getBoundingClientRect().height })),
          )) {
            expect(box.height, `${box.text} height`).toBeGreaterThanOrEqual(44)
          }
        } finally {
          await close()
        }
      })
    })
  }

  it("visits the sign-in controls in reading order", async () => {
    const { page, close } = await open(pages().signin!.html, "light")
    try {
      const visited: string[] = []
      for (let i = 0; i < 7; i++) {
        await page.keyboard.press("Tab")
        visited.push(
          await page.evaluate(() => {
            const el = document.activeElement as HTMLInputElement
            return el.name || el.textContent!.trim()
          }),
        )
      }
      expect(visited).toEqual([
        "Sign in with GitHub",
        "Sign in with Google",
        "email",
        "Sign in with Email",
        "username",
        "password",
        "Sign in with Credentials",
      ])
    } finally {
      await close()
    }
  })

  it("draws the keyboard focus ring", async () => {
    for (const scheme of SCHEMES) {
      const { page, close } = await open(pages().signin!.html, scheme)
      try {
        for (let i = 0; i < 3; i++) await page.keyboard.press("Tab")
        expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe("email")
        await page.screenshot({ path: `${OUTPUT}signin-focus-${scheme}.png`, fullPage: true })
      } finally {
        await close()
      }
    }
  })

  it("follows an explicit scheme over the browser's preference", async () => {
    const dark = pages({ colorScheme: "dark" }).signout!.html
    const light = pages({ colorScheme: "light" }).signout!.html
    const background = async (html: string, scheme: "light" | "dark") => {
      const { page, close } = await open(html, scheme)
      try {
        return await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
      } finally {
        await close()
      }
    }
    expect(await background(dark, "light")).toBe(await background(pages().signout!.html, "dark"))
    expect(await background(light, "dark")).toBe(await background(pages().signout!.html, "light"))
  })

  it("applies the theme's brand colour, button text colour and logo", async () => {
    const logo = `data:image/svg+xml,${encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32"><rect width="32" height="32" rx="8" fill="#6d28d9"/><text x="42" y="23" font-family="sans-serif" font-size="18" font-weight="700" fill="#6d28d9">Acme</text></svg>',
    )}`
    for (const scheme of SCHEMES) {
      const html = pages({ brandColor: "#6d28d9", buttonText: "#ffffff", logo }).signin!.html
      const { page, requests, close } = await open(html, scheme)
      try {
        await page.screenshot({ path: `${OUTPUT}signin-themed-${scheme}.png`, fullPage: true })
        expect(requests).toEqual([])
        const button = page.getByRole("button", { name: "Sign in with Email" })
        expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(109, 40, 217)")
        expect(await button.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(255, 255, 255)")
        expect(await page.getByRole("img", { name: "Logo" }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120)
      } finally {
        await close()
      }
    }
  })

  it("fits a phone screen", async () => {
    for (const scheme of SCHEMES) {
      const { page, close } = await open(pages().signin!.html, scheme, { width: 375, height: 812 })
      try {
        await page.screenshot({ path: `${OUTPUT}signin-mobile-${scheme}.png`, fullPage: true })
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect(overflow).toBe(0)
      } finally {
        await close()
      }
    }
  })
})
