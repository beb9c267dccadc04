import { existsSync } from "node:fs"
import { chromium, type Browser } from "playwright-core"
import { describe } from "vitest"

/** Debian's Chromium, the browser every browser test drives. */
export const CHROMIUM = "/usr/bin/chromium"

const found = existsSync(CHROMIUM)
/** In CI a missing browser is a failure, never a silent skip. */
export const runBrowserTests = found || Boolean(process.env.CI)

/** `describe` when the browser tests can run, else a `describe.skip` whose title says why. */
export function browserSuite(title: string, body: () => void): void {
  if (runBrowserTests) describe(title, body)
  else describe.skip(`${title}: Chromium not found at ${CHROMIUM}: install it with apt-get install chromium to run browser tests`, body)
}

/** Launches headless Chromium with the flags this machine needs (no network beyond loopback). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  })
}
