/**
 * What the client tests share: `fetch` answered by a real `Auth()` (its cookies kept in a jar, as
 * a browser keeps them), a stubbed `window.location`, and the client configured for the test's
 * base path, the stubs undone after each test.
 */
import { afterEach, beforeEach, vi } from "vitest"
import { Auth } from "../../src/index.js"
import * as client from "../../src/client/index.js"
import type { AuthConfig } from "../../src/types.js"
import { basePath, CookieJar, origin } from "../helpers.js"

/** Stubs `fetch` with `Auth()` under `config` and `window` with `location`; the jar holds the cookies the browser would. */
export function stubAuthFetch(config: AuthConfig, location: object = { href: `${origin}/settings`, reload: vi.fn() }): CookieJar {
  const jar = new CookieJar()
  vi.stubGlobal("fetch", async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input), origin)
    const headers = new Headers(init?.headers)
    if (jar.cookies.size) headers.set("cookie", jar.header())
    const body = typeof init?.body === "string" ? init.body : undefined
    const response = await Auth(new Request(url, { method: init?.method ?? "GET", headers, body }), config)
    jar.take(response)
    return response
  })
  vi.stubGlobal("window", { location })
  return jar
}

/** Configures the client for the test's base path before each test, and undoes the stubs after it. */
export function clientAgainstAuth(): void {
  beforeEach(() => void client.configure({ basePath, baseUrl: "" }))
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })
}
