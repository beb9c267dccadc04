/**
 * Reading and updating the session from the browser: `GET /session`, `POST /session`, `GET /csrf`
 * and `GET /providers`.
 *
 * @module
 */
import { announceSessionChange } from "./broadcast.js"
import { requestJson } from "./fetch.js"
import type { ClientSafeProvider, Session } from "./types.js"

/** Options of {@link getSession}. */
export interface GetSessionOptions {
  /** Tell the other tabs to read the session too (default `false`). */
  broadcast?: boolean
}

/**
 * The current session, or `null` when signed out. A failed request also reads as `null` (and is
 * logged), so a page never mistakes an error for a session.
 *
 * @example
 * ```ts
 * import { getSession } from "authflow/client"
 * const session = await getSession()
 * if (session) console.log(session.user?.name)
 * ```
 */
export async function getSession(options: GetSessionOptions = {}): Promise<Session | null> {
  let session: Session | null
  try {
    session = asSession(await requestJson<unknown>("session"))
  } catch (error) {
    console.error("[authflow][client] session:", error)
    return null
  }
  if (options.broadcast) announceSessionChange("getSession", { local: false })
  return session
}

/**
 * The CSRF token to post with a form to `signin`, `signout` or `session`; `undefined` when the
 * request failed (or the server skips CSRF checks and answers 404).
 *
 * @example
 * ```ts
 * const csrfToken = await getCsrfToken()
 * ```
 */
export async function getCsrfToken(): Promise<string | undefined> {
  try {
    const { csrfToken } = await requestJson<{ csrfToken?: string }>("csrf")
    return csrfToken
  } catch (error) {
    console.error("[authflow][client] csrf:", error)
    return undefined
  }
}

/**
 * The configured providers by id, or `null` when the request failed.
 *
 * @example
 * ```ts
 * const providers = await getProviders()
 * Object.values(providers ?? {}).map((p) => p.name)
 * ```
 */
export async function getProviders(): Promise<Record<string, ClientSafeProvider> | null> {
  try {
    return await requestJson<Record<string, ClientSafeProvider>>("providers")
  } catch (error) {
    console.error("[authflow][client] providers:", error)
    return null
  }
}

/**
 * Sends `data` to the server's `jwt` callback (`trigger: "update"`) or, with database sessions, to
 * the `session` callback (`newSession`), and returns the new session (`null` on failure). Without
 * `data` it only reads the session again. Other tabs are told about the change.
 *
 * @example
 * ```ts
 * const session = await update({ name: "Ada King" })
 * ```
 */
export async function update(data?: unknown): Promise<Session | null> {
  const session = await postSessionUpdate(data)
  if (session) announceSessionChange("update")
  return session
}

/**
 * `POST /session` with `{ csrfToken, data }`, announcing nothing (for callers that keep their own
 * state, like `useSession`).
 *
 * @example
 * ```ts
 * const session = await postSessionUpdate({ name: "Ada King" })
 * ```
 */
export async function postSessionUpdate(data?: unknown): Promise<Session | null> {
  if (data === undefined) return getSession()
  const csrfToken = await getCsrfToken()
  try {
    return asSession(await requestJson<unknown>("session", { json: { csrfToken, data } }))
  } catch (error) {
    console.error("[authflow][client] session update:", error)
    return null
  }
}

/** `null`, `{}` and anything that is not an object all mean "no session". */
function asSession(body: unknown): Session | null {
  if (!body || typeof body !== "object" || Array.isArray(body) || Object.keys(body).length === 0) return null
  return body as Session
}
