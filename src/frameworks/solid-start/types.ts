/** Types of the SolidStart integration. */
import type { APIEvent, FetchEvent } from "@solidjs/start/server"
import type { AuthConfig } from "../../types.js"

/**
 * The configuration of `SolidAuth()`: the core configuration (with `raw` kept, as in Auth.js) plus
 * `prefix`, the path the auth routes are mounted under.
 */
export interface SolidAuthConfig extends AuthConfig {
  /**
   * Where the catch-all route (`src/routes/api/auth/[...solidauth].ts`) is mounted. Default:
   * `basePath` when given, else `/api/auth`. It also becomes `basePath`.
   */
  prefix?: string
}

/** A route handler of `SolidAuth()`: `undefined` when the path is not one of authflow's. */
export type SolidAuthHandler = (event: APIEvent | FetchEvent) => Promise<Response | undefined>

/** What `SolidAuth()` returns: the handlers of the catch-all API route. */
export interface SolidAuthHandlers {
  GET: SolidAuthHandler
  POST: SolidAuthHandler
}

/** Options of the protected-route helpers. */
export interface ProtectOptions {
  /** Where a signed-out visitor is sent. Default `/`. */
  redirectTo?: string
}

/** Options of {@link authMiddleware}. */
export interface AuthMiddlewareOptions extends ProtectOptions {
  /**
   * The protected paths. A string protects that path and everything below it (`/account`
   * protects `/account` and `/account/settings`, not `/accounts`); a RegExp is tested against
   * the pathname.
   */
  protectedPaths: ReadonlyArray<string | RegExp>
}

/** A SolidStart request middleware (`createMiddleware({ onRequest })`). */
export type SolidAuthMiddleware = (event: FetchEvent) => Promise<Response | undefined>
