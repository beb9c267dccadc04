import { isCookieName } from "./name.js"
import type { CookieSerializeOptions } from "../../types.js"

// Characters encodeURIComponent leaves as they are: a value made only of these (a JWE, a UUID) is
// written as it is, without the copy encodeURIComponent makes.
const needsEncoding = /[^A-Za-z0-9\-_.!~*'()]/
const validNames = new Set<string>()

/**
 * Writes one `Set-Cookie` header value. Attributes come in the order Auth.js emits them (Max-Age,
 * Domain, Path, Expires, HttpOnly, Secure, Partitioned, Priority, SameSite), so headers compare equal.
 *
 * @example
 * ```ts
 * serializeCookie("authjs.csrf-token", "a|b", { path: "/", httpOnly: true, sameSite: "lax" })
 * // "authjs.csrf-token=a%7Cb; Path=/; HttpOnly; SameSite=Lax"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-4.1
 */
export function serializeCookie(name: string, value: string, options: CookieSerializeOptions = {}): string {
  if (!validNames.has(name)) {
    // Values are percent-encoded, so only the name needs checking.
    if (!isCookieName(name)) throw new TypeError(`Invalid cookie name: ${name}`)
    if (validNames.size < 256) validNames.add(name)
  }
  let header = `${name}=${needsEncoding.test(value) ? encodeURIComponent(value) : value}`
  if (options.maxAge !== undefined) {
    if (!Number.isFinite(options.maxAge)) throw new TypeError(`Invalid cookie maxAge: ${options.maxAge}`)
    header += `; Max-Age=${Math.floor(options.maxAge)}`
  }
  if (options.domain) header += `; Domain=${options.domain}`
  if (options.path) header += `; Path=${options.path}`
  if (options.expires) header += `; Expires=${httpDate(options.expires)}`
  if (options.httpOnly) header += "; HttpOnly"
  if (options.secure) header += "; Secure"
  if (options.partitioned) header += "; Partitioned"
  if (options.priority) header += `; Priority=${options.priority[0]!.toUpperCase()}${options.priority.slice(1)}`
  if (options.sameSite) {
    const sameSite = options.sameSite === true ? "strict" : options.sameSite
    header += `; SameSite=${sameSite[0]!.toUpperCase()}${sameSite.slice(1)}`
  }
  return header
}

// Expires has a resolution of one second, and the session cookies of one second share it: the last
// date written is kept, formatted.
let lastSecond = Number.NaN
let lastText = ""

function httpDate(date: Date): string {
  const second = Math.floor(date.getTime() / 1000)
  if (second !== lastSecond) {
    lastText = date.toUTCString()
    lastSecond = second
  }
  return lastText
}
