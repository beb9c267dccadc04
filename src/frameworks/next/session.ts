/**
 * Reading the session on the server: `Auth()` on `<basePath>/session` with the caller's cookies.
 *
 * @module
 */
import { Auth } from "../../auth.js"
import { createActionURL, type EnvObject } from "../../core/env.js"
import { reissueWhenDue } from "../../core/symbols.js"
import type { AuthConfig, Session, SessionCallbackParams } from "../../types.js"
import type { NextAuthConfig } from "./types.js"

const serverConfigs = new WeakMap<NextAuthConfig, AuthConfig>()

/**
 * The configuration `auth()` reads the session with. Its `session` callback gives the server more
 * than the browser gets: `user` is the whole JWT (JWT strategy) or the whole adapter user
 * (database strategy) unless the session itself has a `user`; without a custom callback the raw
 * session (with `expires` as an ISO string) is the base.
 *
 * `trustHost` is `true` here (as in `getSession` of `@auth/solid-start`): reading the
 * session builds no URL that leaves the server, so `auth()` in Server Components, the proxy and the
 * Pages Router work without `AUTH_TRUST_HOST`. The routes under `basePath`, which build redirects
 * and links, still follow the configuration. With `origin` or `trustedOrigins` set, those decide.
 *
 * `reissueWhenDue`: the proxy answers requests the browser sends on its own (link prefetches), which
 * can leave before a sign-out and come back after it. An unchanged JWT session is re-issued only
 * once it is older than `session.updateAge`, so such an answer sets no session cookie back; a
 * changed one (refreshed provider tokens, a `jwt` callback's change) is written at once.
 */
function serverSessionConfig(config: NextAuthConfig): AuthConfig {
  let derived = serverConfigs.get(config)
  if (derived) return derived
  const custom = config.callbacks?.session
  derived = {
    ...config,
    trustHost: true,
    reissueWhenDue,
    callbacks: {
      ...config.callbacks,
      async session(params: SessionCallbackParams) {
        const base = custom ? await custom(params) : { ...params.session, expires: isoDate(params.session.expires) }
        return { user: params.user ?? params.token, ...base } as Session
      },
    },
  }
  serverConfigs.set(config, derived)
  return derived
}

function isoDate(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value)
}

/**
 * `GET <basePath>/session` through `Auth()`, sending only the `cookie` header. The URL's origin
 * comes from `AUTH_URL`/`NEXTAUTH_URL`, else from the `x-forwarded-*`/`host` headers.
 *
 * @example
 * ```ts
 * const response = await sessionResponse(request.headers, "https:", config, process.env)
 * const session = await sessionOf(response)
 * ```
 */
export function sessionResponse(headers: Headers, protocol: string | undefined, config: NextAuthConfig, env: EnvObject): Promise<Response> {
  const url = createActionURL("session", protocol, headers, env, config)
  const cookie = headers.get("cookie")
  return Auth(new Request(url, { headers: cookie ? { cookie } : {} }), serverSessionConfig(config))
}

/**
 * The session in a session response, failing closed: any status other than 2xx, a body that is
 * not JSON, or an empty object reads as `null`.
 *
 * @example
 * ```ts
 * await sessionOf(Response.json({ message: "server error" }, { status: 500 })) // null
 * ```
 */
export async function sessionOf(response: Response): Promise<Session | null> {
  if (!response.ok) return null
  let body: unknown
  try {
    body = await response.json()
  } catch {
    return null
  }
  if (!body || typeof body !== "object" || Array.isArray(body) || Object.keys(body).length === 0) return null
  return body as Session
}
