/**
 * What the Chromium tests of the built-in pages share: the app on a free loopback port, answering
 * with `Auth()` where a configuration takes the request and with a home page (`#home`) elsewhere,
 * and the Chromium that visits it.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { Browser } from "playwright-core"
import { Auth } from "../../src/index.js"
import { sendWebResponse, toWebRequest } from "../../src/frameworks/node.js"
import type { AuthConfig } from "../../src/types.js"
import { launchChromium } from "../support/chromium.js"

/** The app and the browser of {@link servePages}; `close` stops both. */
export interface ServedPages {
  origin: string
  browser: Browser
  close(): Promise<void>
}

/**
 * Serves the configuration `configFor` picks for a request's URL (path and query), or the home
 * page where it picks none, and launches Chromium.
 */
export async function servePages(configFor: (url: string) => AuthConfig | undefined): Promise<ServedPages> {
  let origin = ""
  const server = createServer(async (req, res) => {
    const config = configFor(req.url ?? "")
    if (!config) {
      res.writeHead(200, { "Content-Type": "text/html" }).end("<p id=home>home</p>")
      return
    }
    await sendWebResponse(res, await Auth(await toWebRequest(req, origin), config))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const stop = () => new Promise((resolve) => server.close(resolve))
  const browser = await launchChromium().catch(async (error: unknown) => {
    await stop()
    throw error
  })
  return {
    origin,
    browser,
    async close() {
      await browser.close()
      await stop()
    },
  }
}
