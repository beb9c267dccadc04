/**
 * `getSession` of the SolidStart integration.
 *
 * @module
 */
import { Auth } from "../../auth.js"
import type { AuthConfig, Session } from "../../types.js"
import { derivedConfig, processEnv } from "./config.js"

/** The configuration {@link getSession} takes: the core's without `raw`, plus `prefix`. */
export type GetSessionConfig = Omit<AuthConfig, "raw"> & { prefix?: string }

/**
 * The session of a request, read through `Auth()` at `<prefix>/session` (the configured prefix,
 * default `/api/auth`) with the request's headers: `null` when there is none (an empty answer),
 * the session for a 200, and an `Error` with the server's message otherwise (a configuration
 * error, such as a missing secret).
 *
 * The configuration is completed from the environment as in `SolidAuth()`, except that
 * `trustHost` defaults to `true`, as in `@auth/solid-start`: the session request never leaves the
 * server. A refreshed session cookie is not written back; the `/session` route does that.
 *
 * @example
 * ```ts
 * import { getRequestEvent } from "solid-js/web"
 * const session = await getSession(getRequestEvent()!.request, authConfig)
 * ```
 */
export async function getSession(req: Request, config: GetSessionConfig): Promise<Session | null> {
  const { prefix, config: authConfig } = derivedConfig(config, processEnv(), true)
  const url = new URL(`${prefix}/session`, req.url)
  const headers = new Headers(req.headers)
  // The internal request is a GET without a body, whatever the incoming one was.
  headers.delete("content-length")
  headers.delete("content-type")
  const response = await Auth(new Request(url, { headers }), authConfig)
  const text = await response.text()
  let data: unknown = null
  if (text) {
    try {
      data = JSON.parse(text)
    } catch {
      throw new Error(`authflow answered HTTP ${response.status} with a body that is not JSON`)
    }
  }
  if (!data || typeof data !== "object" || Object.keys(data).length === 0) {
    if (response.status === 200 || !text) return null
  }
  if (response.status === 200) return data as Session
  const message = (data as { message?: unknown } | null)?.message
  throw new Error(typeof message === "string" ? message : `authflow answered HTTP ${response.status}`)
}
