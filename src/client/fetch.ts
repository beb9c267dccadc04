/** The one place the client talks to the server. */
import { authUrl } from "./config.js"
import { ClientFetchError } from "../core/errors.js"

export { ClientFetchError }

/** What to send: nothing (GET), a JSON body, or a form (which also asks for `{ url }` instead of a redirect). */
export interface AuthRequestInit {
  json?: unknown
  form?: Record<string, string>
  /** A query string without `?`. */
  query?: string
}

/** An answer of an auth route. */
export interface AuthAnswer<T> {
  status: number
  ok: boolean
  data: T
}

/**
 * Sends a request to `<basePath>/<path>` and returns its status and JSON body. Throws a
 * {@link ClientFetchError} when the body is not JSON.
 *
 * @example
 * ```ts
 * const { data } = await send<{ url: string }>("signout", { form: { csrfToken, callbackUrl } })
 * ```
 */
export async function send<T>(path: string, init: AuthRequestInit = {}): Promise<AuthAnswer<T>> {
  const headers: Record<string, string> = {}
  let body: string | undefined
  if (init.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    // With this header a redirect comes back as `200 { url }`, which a script can read.
    headers["X-Auth-Return-Redirect"] = "1"
    body = new URLSearchParams(init.form).toString()
  } else if (init.json !== undefined) {
    headers["Content-Type"] = "application/json"
    body = JSON.stringify(init.json)
  }
  const url = authUrl(path) + (init.query ? `?${init.query}` : "")
  const response = await fetch(url, { method: body === undefined ? "GET" : "POST", headers, body })
  let data: T
  try {
    data = (await response.json()) as T
  } catch {
    throw new ClientFetchError(`${url} did not answer JSON (HTTP ${response.status})`, response.status)
  }
  return { status: response.status, ok: response.ok, data }
}

/**
 * Like {@link send}, but returns only the body and throws a {@link ClientFetchError} unless the
 * status is 2xx.
 *
 * @example
 * ```ts
 * const { csrfToken } = await requestJson<{ csrfToken: string }>("csrf")
 * ```
 */
export async function requestJson<T>(path: string, init: AuthRequestInit = {}): Promise<T> {
  const answer = await send<T>(path, init)
  if (!answer.ok) throw new ClientFetchError(`${authUrl(path)} answered HTTP ${answer.status}`, answer.status)
  return answer.data
}
