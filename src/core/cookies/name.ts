// RFC 7230 `tchar`: the characters of an RFC 6265 cookie-name (a token). One char class, so the
// check stays cheap on the session-read path.
const cookieNamePattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/**
 * Whether `name` can be a cookie's name: a non-empty RFC 7230 token (no separators such as
 * `( ) < > @ , ; : \ " / [ ] ? = { }`, no whitespace, no control characters). Names that fail are
 * dropped when a `Cookie` header is read and refused when a `Set-Cookie` is written.
 *
 * @example
 * ```ts
 * isCookieName("__Secure-authjs.session-token") // true
 * isCookieName("authjs.session-token@")          // false
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-4.1.1
 * @see https://www.rfc-editor.org/rfc/rfc7230#section-3.2.6
 */
export function isCookieName(name: string): boolean {
  return cookieNamePattern.test(name)
}
