/**
 * One browser's cookies and the requests it sends: the cookie jar and the request builder of the
 * kit's {@link Browser} and of every test of authflow. It imports nothing, so it also runs where
 * only web APIs exist (the edge runtime).
 *
 * @module
 */

/**
 * Where a request comes from, as a browser applies `SameSite`: `same-site` sends every cookie,
 * `cross-site-get` (a top-level navigation from another site) leaves out `Strict` ones,
 * `cross-site-post` (a form another site posts) sends only `None` ones.
 */
export type RequestSite = "same-site" | "cross-site-get" | "cross-site-post"

/** The names of the cookies one response set and cleared, each sorted. */
export interface CookieChanges {
  set: string[]
  cleared: string[]
}

/**
 * The cookies a browser keeps: it takes each response's `Set-Cookie` headers (an empty value,
 * `Max-Age` of zero or less or an `Expires` in the past clears the cookie) and gives the `Cookie`
 * header for the next request.
 *
 * @example
 * ```ts
 * const jar = new CookieJar()
 * jar.take(await Auth(new Request("https://app.test/auth/csrf"), config))
 * jar.get("__Host-authjs.csrf-token") // the cookie's value, decoded
 * await Auth(new Request("https://app.test/auth/session", { headers: { cookie: jar.header() } }), config)
 * ```
 */
export class CookieJar {
  /** The cookies, by name, with their values as the server wrote them (not decoded). */
  readonly cookies = new Map<string, string>()
  /**
   * Each cookie's `SameSite` as the server last wrote it, in lower case (`lax` when it named none,
   * as browsers default); a cleared cookie's stays, to show how it was sent.
   */
  readonly sameSite = new Map<string, string>()
  /**
   * Where the next request comes from: {@link header} sends what a browser would from there.
   * @default "same-site"
   */
  site: RequestSite = "same-site"
  /** What the last {@link take} set and cleared. */
  lastChanges: CookieChanges = { set: [], cleared: [] }

  /** Keeps what `response` sets and forgets what it clears; {@link lastChanges} says which. */
  take(response: Response): this {
    const set = new Set<string>()
    const cleared = new Set<string>()
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";")
      const name = pair!.slice(0, pair!.indexOf("=")).trim()
      const value = pair!.slice(pair!.indexOf("=") + 1)
      let expired = false
      let sameSite = "lax"
      for (const attribute of attributes) {
        const [key = "", val] = attribute.trim().split("=")
        const lower = key.toLowerCase()
        if (lower === "max-age" && Number(val) <= 0) expired = true
        else if (lower === "expires" && Date.parse(val ?? "") < Date.now()) expired = true
        else if (lower === "samesite") sameSite = (val ?? "").toLowerCase()
      }
      this.sameSite.set(name, sameSite)
      if (expired || value === "") {
        this.cookies.delete(name)
        cleared.add(name)
        set.delete(name)
      } else {
        this.cookies.set(name, value)
        set.add(name)
        cleared.delete(name)
      }
    }
    this.lastChanges = { set: [...set].sort(), cleared: [...cleared].sort() }
    return this
  }

  /** The `Cookie` header of the next request (from {@link site}); `""` when nothing would be sent. */
  header(): string {
    return [...this.cookies]
      .filter(([name]) => {
        const sameSite = this.sameSite.get(name) ?? "lax"
        if (this.site === "cross-site-post") return sameSite === "none"
        if (this.site === "cross-site-get") return sameSite !== "strict"
        return true
      })
      .map(([name, value]) => `${name}=${value}`)
      .join("; ")
  }

  /** The value of the cookie `name`, percent-decoded, or `undefined` when the jar has none. */
  get(name: string): string | undefined {
    const value = this.cookies.get(name)
    return value === undefined ? undefined : decodeURIComponent(value)
  }
}

/** What a request carries, before {@link buildRequest} makes it a web `Request`. */
export interface RequestOptions {
  /**
   * The HTTP method.
   * @default "POST" when there is a body (`form` or `json`), else "GET"
   */
  method?: string
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string> | URLSearchParams
  /** Sent as `application/json`. */
  json?: unknown
  /** More request headers (a `cookie` here gives way to the jar's cookies and {@link cookie}, when there are any). */
  headers?: HeadersInit
  /** `Cookie` header content sent after the jar's cookies: one the browser would not have kept. */
  cookie?: string
}

/**
 * The web `Request` a browser sends to `url`: `jar`'s cookies (as {@link CookieJar.header} gives
 * them), then `options.cookie`, and the form or JSON body with its content type.
 *
 * @example
 * ```ts
 * const request = buildRequest("https://app.test/auth/signout", { form: { csrfToken } }, jar)
 * jar.take(await Auth(request, config))
 * ```
 */
export function buildRequest(url: string | URL, options: RequestOptions = {}, jar?: CookieJar): Request {
  const headers = new Headers(options.headers)
  const cookie = [jar?.header() ?? "", options.cookie ?? ""].filter(Boolean).join("; ")
  if (cookie) headers.set("cookie", cookie)
  let body: string | undefined
  if (options.form) {
    headers.set("content-type", "application/x-www-form-urlencoded")
    body = new URLSearchParams(options.form).toString()
  } else if (options.json !== undefined) {
    headers.set("content-type", "application/json")
    body = JSON.stringify(options.json)
  }
  return new Request(url, { method: options.method ?? (body === undefined ? "GET" : "POST"), headers, ...(body !== undefined && { body }) })
}
