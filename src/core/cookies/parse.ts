import { isCookieName } from "./name.js"

/**
 * Reads a `Cookie` request header into a name → value record. The first occurrence of a name wins
 * and values are URI-decoded (left as they are when the encoding is malformed). Pairs whose name is
 * not a cookie token ({@link isCookieName}: `authjs.session-token@`, `a(b`) are ignored, so no
 * answer ever echoes such a name back in a `Set-Cookie`.
 *
 * @example
 * ```ts
 * parseCookieHeader("a=1; b=%7C") // { a: "1", b: "|" }
 * parseCookieHeader("a@=1; b=2")  // { b: "2" }
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.4
 */
export function parseCookieHeader(header: string | null | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null)
  if (!header) return cookies
  let start = 0
  const length = header.length
  // Stryker disable next-line EqualityOperator: at start = length no `=` is found, so the extra round sets nothing
  while (start < length) {
    let end = header.indexOf(";", start)
    if (end === -1) end = length
    const equals = header.indexOf("=", start)
    // Stryker disable next-line EqualityOperator: `=` and `;` never share a position, so < and <= agree
    if (equals !== -1 && equals < end) {
      const name = header.slice(start, equals).trim()
      if (!(name in cookies) && isCookieName(name)) {
        let value = header.slice(equals + 1, end).trim()
        if (value.charCodeAt(0) === 34 && value.charCodeAt(value.length - 1) === 34) value = value.slice(1, -1)
        cookies[name] = decode(value)
      }
    }
    start = end + 1
  }
  return cookies
}

function decode(value: string): string {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut; decodeURIComponent leaves a value without `%` as it is
  if (value.indexOf("%") === -1) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
