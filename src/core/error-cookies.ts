import type { Cookie } from "../types.js"

const attached = new WeakMap<object, Cookie[]>()

/**
 * Attaches cookies to an error an action throws, so the error's redirect still sets them (a flow
 * cookie is cleared whether the flow succeeded or failed). Returns the error, to throw it.
 *
 * @example
 * ```ts
 * throw withCookies(new OAuthCallbackError("state mismatch"), [clearFlowCookie])
 * ```
 */
export function withCookies<E>(error: E, cookies: Cookie[]): E {
  if (typeof error === "object" && error !== null && cookies.length) attached.set(error, [...(attached.get(error) ?? []), ...cookies])
  return error
}

/**
 * The cookies attached to an error by {@link withCookies}, or none.
 *
 * @example
 * ```ts
 * const cookies = cookiesOf(error)
 * ```
 */
export function cookiesOf(error: unknown): Cookie[] {
  return (typeof error === "object" && error !== null && attached.get(error)) || []
}
