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
  /**
   * Ask for a redirect (an error page's included) as `{ url }`, which a script can read, instead of
   * a 302 that `fetch` would follow to an HTML page. Default: `true` for a form, else `false`.
   */
  returnRedirect?: boolean
}

/** An answer of an auth route. */
export interface AuthAnswer<T> {
  status: number
  ok: boolean
  data: T
}

/**
 * Sends a request to `<basePath>/<path>` and returns its status and JSON body. Throws a
 * {@link ClientFetchError} when the body is not JSON. Where `{ url }` was asked for
 * (`returnRedirect`), a redirect the server answered anyway reads as `200 { url }` too.
 *
 * @example
 * ```ts
 * const { data } = await send<{ url: string }>("signout", { form: { csrfToken, callbackUrl } })
 * ```
 */
export async function send<T>(path: string, init: AuthRequestInit = {}): Promise<AuthAnswer<T>> {
  // The client reads every answer as JSON; routes that serve pages too (`/factors`) answer JSON then.
  const headers: Record<string, string> = { Accept: "application/json" }
  let body: string | undefined
  // With this header a redirect comes back as `200 { url }`, which a script can read.
  const wantsUrl = init.returnRedirect ?? init.form !== undefined
  if (wantsUrl) headers["X-Auth-Return-Redirect"] = "1"
  if (init.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    body = new URLSearchParams(init.form).toString()
  } else if (init.json !== undefined) {
    headers["Content-Type"] = "application/json"
    body = JSON.stringify(init.json)
  }
  const url = authUrl(path) + (init.query ? `?${init.query}` : "")
  const response = await fetch(url, { method: body === undefined ? "GET" : "POST", headers, body })
  const redirectedTo = wantsUrl ? redirectTarget(response) : null
  if (redirectedTo) return { status: 200, ok: true, data: { url: redirectedTo } as T }
  let data: T
  try {
    data = (await response.json()) as T
  } catch {
    throw new ClientFetchError(`${url} did not answer JSON (HTTP ${response.status})`, response.status)
  }
  return { status: response.status, ok: response.ok, data }
}

/**
 * Where a redirect went, from a server that ignored `X-Auth-Return-Redirect`: a browser's `fetch`
 * followed it (`redirected`, ending on a page), other runtimes may hand back the 3xx itself. Read
 * as the `{ url }` the header asks for, so that callers see one answer either way.
 */
function redirectTarget(response: Response): string | null {
  if (response.redirected && response.url) return response.url
  return response.status >= 300 && response.status < 400 ? response.headers.get("location") : null
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
