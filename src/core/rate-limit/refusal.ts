/**
 * How the router answers a request the limiter refused: the `rateLimited` event's message and the
 * response. Apart from the limiter itself, which only the flows that count requests load.
 *
 * @module
 */
import type { Cookie, ResponseInternal } from "../../base-types.js"
import type { RateLimitedMessage, RateLimitRoute } from "./limiter.js"
import type { CoreKey } from "../i18n/messages.js"
import type { Translator } from "../i18n/translate.js"

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
 * How a refused request is answered: 429 with `Retry-After` and JSON `{ message }` (in the
 * request's language: `text` is loaded only for this answer) to a session update or a WebAuthn
 * options request, 429 with `{ url }` (the sign-in page with `error=RateLimited&retryAfter=<s>`)
 * to a client that asked with `X-Auth-Return-Redirect`, and a redirect there (with `Retry-After`)
 * to a page flow, whose page states the wait.
 *
 * @example
 * ```ts
 * return await rateLimitedAnswer(error, { action: "session", method: "POST" }, signInUrl, false, [], () => requestTranslator(config.i18n, request))
 * ```
 */
export async function rateLimitedAnswer(
  error: { retryAfter: number },
  request: { action: string; method: string },
  signInUrl: string,
  wantsUrl: boolean,
  cookies: Cookie[],
  text: () => Promise<Translator<CoreKey>>,
): Promise<ResponseInternal> {
  const retryAfter = String(error.retryAfter)
  const json = { "Content-Type": "application/json", "Retry-After": retryAfter }
  const withCookies = cookies.length ? { cookies } : {}
  if ((request.method === "POST" && request.action === "session") || request.action === "webauthn-options") {
    const { t, relativeTime } = await text()
    return { status: 429, headers: json, body: { message: t("tooManyRequestsWait", { wait: relativeTime(error.retryAfter, "second") }) }, ...withCookies }
  }
  const withWait = `${signInUrl}${signInUrl.includes("?") ? "&" : "?"}retryAfter=${retryAfter}`
  if (wantsUrl) return { status: 429, headers: json, body: { url: withWait }, ...withCookies }
  return { redirect: withWait, headers: { "Retry-After": retryAfter }, ...withCookies }
}
