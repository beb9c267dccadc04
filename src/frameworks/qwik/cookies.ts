/**
 * Moving authflow's cookies into Qwik City's cookie API (`event.cookie`), which writes the
 * `Set-Cookie` headers of the response.
 *
 * @module
 */
import type { Cookie as QwikCookie, CookieOptions } from "@builder.io/qwik-city"
import type { Cookie } from "../../types.js"

/** The options of an authflow cookie in Qwik's terms (Qwik knows no `partitioned`/`priority`). */
function qwikOptions(options: Cookie["options"]): CookieOptions {
  const result: CookieOptions = {}
  if (options.domain !== undefined) result.domain = options.domain
  if (options.expires !== undefined) result.expires = options.expires
  if (options.httpOnly !== undefined) result.httpOnly = options.httpOnly
  if (options.maxAge !== undefined) result.maxAge = options.maxAge
  if (options.path !== undefined) result.path = options.path
  if (options.sameSite !== undefined) result.sameSite = options.sameSite
  if (options.secure !== undefined) result.secure = options.secure
  return result
}

/**
 * Sets each cookie through `event.cookie`. Qwik writes values as given, so they are URI-encoded
 * here, as authflow's own `Set-Cookie` headers are (Qwik decodes request cookies).
 *
 * @example
 * ```ts
 * writeCookies(event.cookie, result.cookies)
 * ```
 */
export function writeCookies(jar: QwikCookie, cookies: readonly Cookie[] | undefined): void {
  for (const { name, value, options } of cookies ?? []) jar.set(name, encodeURIComponent(value), qwikOptions(options))
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * Parses one `Set-Cookie` header value into authflow's cookie shape.
 *
 * @example
 * ```ts
 * parseSetCookie("authjs.csrf-token=abc%7Cdef; Path=/; HttpOnly; SameSite=Lax")
 * // { name: "authjs.csrf-token", value: "abc|def", options: { path: "/", httpOnly: true, sameSite: "lax" } }
 * ```
 */
export function parseSetCookie(header: string): Cookie | undefined {
  const [pair = "", ...attributes] = header.split(";")
  const index = pair.indexOf("=")
  if (index < 1) return undefined
  const cookie: Cookie = { name: pair.slice(0, index).trim(), value: decode(pair.slice(index + 1).trim()), options: {} }
  for (const attribute of attributes) {
    const [rawKey = "", ...rest] = attribute.split("=")
    const key = rawKey.trim().toLowerCase()
    const value = rest.join("=").trim()
    switch (key) {
      case "path":
        cookie.options.path = value
        break
      case "domain":
        cookie.options.domain = value
        break
      case "max-age":
        if (Number.isFinite(Number(value))) cookie.options.maxAge = Number(value)
        break
      case "expires": {
        const date = new Date(value)
        if (!Number.isNaN(date.getTime())) cookie.options.expires = date
        break
      }
      case "httponly":
        cookie.options.httpOnly = true
        break
      case "secure":
        cookie.options.secure = true
        break
      case "samesite": {
        const sameSite = value.toLowerCase()
        if (sameSite === "lax" || sameSite === "strict" || sameSite === "none") cookie.options.sameSite = sameSite
        break
      }
    }
  }
  return cookie
}

/**
 * Moves the `Set-Cookie` headers of `response` into `jar` and returns a copy of the response
 * without them (Qwik's `send()` would otherwise copy them with their attributes lost).
 *
 * @example
 * ```ts
 * throw event.send(moveCookies(await Auth(event.request, config), event.cookie))
 * ```
 */
export function moveCookies(response: Response, jar: QwikCookie): Response {
  const setCookies = response.headers.getSetCookie()
  if (!setCookies.length) return response
  writeCookies(
    jar,
    setCookies.map(parseSetCookie).filter((cookie): cookie is Cookie => cookie !== undefined),
  )
  const headers = new Headers(response.headers)
  headers.delete("set-cookie")
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}
