import { randomHex, sha256Hex } from "./crypto.js"

/** The outcome of reading the CSRF cookie of a request. */
export interface CsrfState {
  /** The token to put in forms (`csrfToken`). */
  token: string
  /** True when the request is a POST whose `csrfToken` matches a cookie this server issued. */
  verified: boolean
  /** The cookie value to set when a new token was minted. */
  newCookie?: string
}

function secretText(secret: string | string[]): string {
  return Array.isArray(secret) ? secret.join(",") : secret
}

/**
 * Double-submit CSRF protection: the cookie holds `token|sha256(token + secret)`, so only this server
 * could have minted it; a POST proves it read the cookie's page by echoing the token in its body.
 *
 * @example
 * ```ts
 * const csrf = readCsrf(cookies["authjs.csrf-token"], body?.csrfToken, method === "POST", secret)
 * if (!csrf.verified) throw new MissingCSRF()
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html#signed-double-submit-cookie-recommended
 */
export function readCsrf(
  cookieValue: string | undefined,
  bodyToken: unknown,
  isPost: boolean,
  secret: string | string[],
): CsrfState {
  const secretString = secretText(secret)
  if (cookieValue) {
    const separator = cookieValue.indexOf("|")
    if (separator > 0) {
      const token = cookieValue.slice(0, separator)
      const cacheKey = `${secretString}\u0000${cookieValue}`
      if (verifiedCookies.has(cacheKey) || timingSafeEqualText(cookieValue.slice(separator + 1), sha256Hex(token + secretString))) {
        rememberVerified(cacheKey)
        return { token, verified: isPost && typeof bodyToken === "string" && timingSafeEqualText(bodyToken, token) }
      }
    }
  }
  const token = randomHex(32)
  return { token, verified: false, newCookie: `${token}|${sha256Hex(token + secretString)}` }
}

/**
 * CSRF cookies (with their secret) whose hash already checked out. The check is deterministic, so
 * a browser's cookie is hashed once instead of on every request; only valid cookies are kept, and
 * the set is bounded, so forged values cost a hash each and nothing else.
 */
const verifiedCookies = new Set<string>()
const maxVerifiedCookies = 4096

// Stryker disable all: a bounded cache of cookies already verified; a mutant here changes only memory use and speed, never an answer
function rememberVerified(key: string): void {
  if (verifiedCookies.has(key)) return
  if (verifiedCookies.size >= maxVerifiedCookies) verifiedCookies.clear()
  verifiedCookies.add(key)
}
// Stryker restore all

function timingSafeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  // Stryker disable next-line EqualityOperator: at i = length both strings give NaN, and NaN ^ NaN is 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}
