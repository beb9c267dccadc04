/**
 * What an action answers: a response, or an error answer. A flow that ends refused or failed
 * returns an error answer up the stack (an expected outcome is never thrown); the router turns it
 * into the wire response (a redirect to the error or sign-in page with `error=<type>`, the JSON
 * `{ url }` for `X-Auth-Return-Redirect`, 429 for `RateLimited`), and rethrows its error only to
 * callers in raw mode (framework server actions), at the public boundary.
 *
 * @module
 */
import type { Cookie, ResponseInternal } from "../types.js"

/** The headers that keep a session or CSRF answer out of every cache. */
export const noCacheHeaders: Readonly<Record<string, string>> = Object.freeze({
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
})

/**
 * A request the flow refused or could not finish: the error (logged, told to `events`, named in
 * the redirect, rethrown in raw mode) and the cookies the answer sets whatever the outcome (a flow
 * cookie cleared).
 *
 * @example
 * ```ts
 * const refused: ErrorAnswer = { error: new WebAuthnVerificationError("The challenge was used before"), cookies: clearedChallengeCookies }
 * ```
 */
export interface ErrorAnswer {
  readonly error: Error
  readonly cookies: readonly Cookie[]
}

/**
 * An action's answer: the response to send, or an {@link ErrorAnswer} the router turns into one.
 *
 * @example
 * ```ts
 * async function signOutAction(options: AuthOptions, cookies: Cookie[]): Promise<Answer> { … }
 * ```
 */
export type Answer<Body = unknown> = ResponseInternal<Body> | ErrorAnswer

/**
 * An error answer: `error`, with the cookies to set anyway (none by default).
 *
 * @example
 * ```ts
 * csrfRejected: () => errorAnswer(new MissingCSRF("CSRF token was missing during an action signout"))
 * ```
 */
export function errorAnswer(error: Error, cookies: readonly Cookie[] = []): ErrorAnswer {
  return { error, cookies }
}

/**
 * Whether an answer is an {@link ErrorAnswer} (a response never has an `error`).
 *
 * @example
 * ```ts
 * const answer = await dispatch(options, cookies)
 * if (isErrorAnswer(answer)) return failure(answer)
 * ```
 */
export function isErrorAnswer(answer: Answer): answer is ErrorAnswer {
  return "error" in answer
}
