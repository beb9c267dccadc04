/**
 * Protected routes in SolidStart:
 *
 * 1. Server-rendered routes call {@link requireSession} in their server query: without a session
 *    (or with one that has no `user`) it throws a redirect to `/`, which the router performs.
 * 2. Client-rendered routes are guarded by {@link authMiddleware} in `src/middleware.ts`: it checks
 *    the requested path against a list of protected paths and redirects to `/` when the session is
 *    missing.
 *
 * @module
 */
import type { FetchEvent } from "@solidjs/start/server"
import type { Session, User } from "../../types.js"
import { getSession, type GetSessionConfig } from "./session.js"
import type { AuthMiddlewareOptions, ProtectOptions, SolidAuthMiddleware } from "./types.js"

function redirectResponse(location: string): Response {
  // What @solidjs/router's `redirect()` builds; the router and SolidStart both act on it.
  return new Response(null, { status: 302, headers: { Location: location } })
}

/**
 * The session of a server-rendered protected route. Without a session, or with one that has no
 * `user`, it **throws** a redirect `Response` (302 to `redirectTo`, default `/`): thrown from a
 * `query` (or a `"use server"` function), @solidjs/router turns it into a redirect, during
 * server rendering and client navigation alike.
 *
 * @example
 * ```ts
 * const protectedSession = query(async () => {
 *   "use server"
 *   return requireSession(getRequestEvent()!, authConfig)
 * }, "protected-session")
 * ```
 */
export async function requireSession(
  event: FetchEvent | Request,
  config: GetSessionConfig,
  options: ProtectOptions = {},
): Promise<Session & { user: User }> {
  const request = event instanceof Request ? event : event.request
  const session = await getSession(request, config)
  if (!session?.user) throw redirectResponse(options.redirectTo ?? "/")
  return session as Session & { user: User }
}

/**
 * Whether `pathname` is protected by `protectedPaths`: a string protects itself and the paths
 * below it (`/account` → `/account`, `/account/x`; not `/accounts`), a RegExp is tested.
 *
 * @example
 * ```ts
 * isProtectedPath("/account/settings", ["/account"]) // true
 * ```
 */
export function isProtectedPath(pathname: string, protectedPaths: ReadonlyArray<string | RegExp>): boolean {
  return protectedPaths.some((path) => {
    if (typeof path !== "string") return path.test(pathname)
    const base = path.replace(/\/+$/, "")
    return pathname === base || pathname === `${base}/` || pathname.startsWith(`${base}/`) || (base === "" && pathname.startsWith("/"))
  })
}

/**
 * A SolidStart request middleware for client-rendered routes: a request for a protected path
 * without a session (or with one that has no `user`) is answered with a redirect (302) to
 * `redirectTo` (default `/`); other requests go on. Register it in `src/middleware.ts` and name
 * that file in `app.config.ts` (`middleware: "src/middleware.ts"`).
 *
 * Only requests reaching the server pass through it: a client-side navigation inside the app
 * does not, so the page should also check the session on the client.
 *
 * @example
 * ```ts
 * // src/middleware.ts
 * import { createMiddleware } from "@solidjs/start/middleware"
 * import { authMiddleware } from "authflow/solid-start"
 * export default createMiddleware({ onRequest: [authMiddleware(authConfig, { protectedPaths: ["/dashboard"] })] })
 * ```
 */
export function authMiddleware(config: GetSessionConfig, options: AuthMiddlewareOptions): SolidAuthMiddleware {
  return async (event: FetchEvent) => {
    const { pathname } = new URL(event.request.url)
    if (!isProtectedPath(pathname, options.protectedPaths)) return undefined
    const session = await getSession(event.request, config)
    if (session?.user) return undefined
    return redirectResponse(options.redirectTo ?? "/")
  }
}
