import { noCacheHeaders } from "../core/answer.js"
import type { AuthOptions } from "../core/options.js"
import type { Cookie, ResponseInternal } from "../types.js"

/**
 * GET `/csrf`: the CSRF token for a form, with the cookie that backs it when it is new. With CSRF
 * checks skipped there is no token: 404, and any old CSRF cookie is cleared.
 *
 * @example
 * ```ts
 * const { csrfToken } = await (await fetch("/auth/csrf")).json()
 * ```
 */
export function csrfAction(options: AuthOptions, cookies: Cookie[]): ResponseInternal<{ csrfToken: string } | undefined> {
  if (options.csrfToken === undefined) {
    options.logger.warn("csrf-disabled")
    const { name, options: cookieOptions } = options.cookies.csrfToken
    return { status: 404, cookies: [...cookies, { name, value: "", options: { ...cookieOptions, maxAge: 0 } }] }
  }
  return {
    status: 200,
    headers: { "Content-Type": "application/json", ...noCacheHeaders },
    body: { csrfToken: options.csrfToken },
    cookies,
  }
}
