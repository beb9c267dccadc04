/**
 * How the router answers a request the limiter refused: the `rateLimited` event's message and the
 * response. Apart from the limiter itself, which only the flows that count requests load.
 *
 * @module
 */
import type { Cookie, ResponseInternal } from "../../base-types.js"
import type { RateLimitedMessage, RateLimitRoute } from "./limiter.js"

/**
 * The `rateLimited` event's message for a `RateLimited` error.
 *
 * @example
 * ```ts
 * await emitEvent(config, logger, "rateLimited", rateLimitedMessage(error))
 * ```
 */
export function rateLimitedMessage(error: { cause?: Record<string, unknown>; retryAfter: number }): RateLimitedMessage {
  const cause = error.cause ?? {}
  return {
    route: cause.route as RateLimitRoute,
    rule: cause.rule as RateLimitedMessage["rule"],
    ...(typeof cause.ip === "string" && { ip: cause.ip }),
    ...(typeof cause.identifier === "string" && { identifier: cause.identifier }),
    retryAfter: error.retryAfter,
  }
}

/**
 * How a refused request is answered: 429 with `Retry-After` and JSON `{ message }` to a session
 * update or a WebAuthn options request, 429 with `{ url }` (the sign-in page with
 * `error=RateLimited`) to a client that asked with `X-Auth-Return-Redirect`, and a redirect there
 * (with `Retry-After`) to a page flow.
 *
 * @example
 * ```ts
 * return rateLimitedAnswer(error, { action: "session", method: "POST" }, signInUrl, false, [])
 * ```
 */
export function rateLimitedAnswer(
  error: { retryAfter: number },
  request: { action: string; method: string },
  signInUrl: string,
  wantsUrl: boolean,
  cookies: Cookie[],
): ResponseInternal {
  const retryAfter = String(error.retryAfter)
  const json = { "Content-Type": "application/json", "Retry-After": retryAfter }
  const withCookies = cookies.length ? { cookies } : {}
  if ((request.method === "POST" && request.action === "session") || request.action === "webauthn-options") {
    return { status: 429, headers: json, body: { message: `Too many requests. Try again in ${retryAfter} seconds.` }, ...withCookies }
  }
  if (wantsUrl) return { status: 429, headers: json, body: { url: signInUrl }, ...withCookies }
  return { redirect: signInUrl, headers: { "Retry-After": retryAfter }, ...withCookies }
}
