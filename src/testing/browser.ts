/**
 * A browser as far as `Auth()` is concerned: a cookie jar, requests built the way a browser sends
 * them, and a summary of each response that stays the same from run to run.
 *
 * @module
 */
import { Auth } from "../auth.js"
import type { AuthConfig } from "../types.js"
import { withClientAddress } from "../core/rate-limit/peer.js"
import { CookieJar, buildRequest } from "./cookie-jar.js"

/** The address every request of the kit's browser comes from (a documentation address, RFC 5737). */
const browserAddress = "203.0.113.10"

/** What a response did, reduced to what stays the same from run to run. */
export interface ResponseSummary {
  /** `METHOD /path` under the base path, without the query (`POST /signin/github`). */
  request: string
  status: number
  /**
   * Where the response redirects: origin-relative on the app's origin (`/auth/signin?error=…`),
   * else origin and path without the query (a provider's authorization endpoint).
   */
  redirect?: string
  /** Names of the cookies the response set. */
  cookiesSet: string[]
  /** Names of the cookies the response cleared. */
  cookiesCleared: string[]
}

/** How a request is sent. */
export interface SendInit {
  method?: "GET" | "POST"
  form?: Record<string, string>
  /** Record the response in the path's outcome (default true). */
  record?: boolean
}

/**
 * A cookie jar and the requests of one browser, sent through `Auth()` with one configuration.
 *
 * @example
 * ```ts
 * const browser = new Browser(config, "https://app.test", "/auth")
 * const csrfToken = await browser.csrfToken()
 * await browser.send("/signin/github", { form: { csrfToken } })
 * ```
 */
export class Browser extends CookieJar {
  readonly responses: ResponseSummary[] = []

  constructor(
    readonly config: AuthConfig,
    readonly origin: string,
    readonly basePath: string,
  ) {
    super()
  }

  /** Sends a request (a path under the base path, or an absolute URL) and keeps the cookies it sets. */
  async send(path: string, init: SendInit = {}): Promise<Response> {
    const url = new URL(path.startsWith("http") ? path : `${this.origin}${this.basePath}${path}`)
    // The browser's address, as a framework wrapper records it, for the rate limiter.
    const request = withClientAddress(buildRequest(url, init, this), browserAddress)
    const response = await Auth(request, this.config)
    const { set, cleared } = this.take(response).lastChanges
    if (init.record !== false) {
      const pathname = url.pathname.startsWith(this.basePath) ? url.pathname.slice(this.basePath.length) : url.pathname
      const location = response.headers.get("location")
      this.responses.push({
        request: `${request.method} ${pathname}`,
        status: response.status,
        ...(location !== null && { redirect: this.#relative(location) }),
        cookiesSet: set,
        cookiesCleared: cleared,
      })
    }
    return response
  }

  /** GET /csrf: the token for the next form (the jar keeps its cookie). Not recorded. Empty where `skipCSRFCheck` answers none. */
  async csrfToken(): Promise<string> {
    const response = await this.send("/csrf", { record: false })
    const body = (await response.json().catch(() => null)) as { csrfToken?: unknown } | null
    return typeof body?.csrfToken === "string" ? body.csrfToken : ""
  }

  #relative(location: string): string {
    const url = new URL(location, this.origin)
    // A mailed link's token is new each run: the form it goes back to is told by the rest.
    if (url.searchParams.has("token")) url.searchParams.set("token", "…")
    if (url.origin === this.origin) return `${url.pathname}${url.search}`
    return `${url.origin}${url.pathname}`
  }
}
