/**
 * Environment inference for Next.js: `AUTH_*` variables and their `NEXTAUTH_*` aliases.
 *
 * @module
 */
import type { NextRequest } from "next/server.js"
import { setEnvDefaults, type EnvObject } from "../../core/env.js"
import { nextServer } from "./next-modules.js"
import type { NextAuthConfig } from "./types.js"

/** The default `basePath` of the Next.js integration. */
export const nextBasePath = "/api/auth"

/** `AUTH_URL`, else its alias `NEXTAUTH_URL`. */
export function envUrl(env: EnvObject): string | undefined {
  return env.AUTH_URL || env.NEXTAUTH_URL || undefined
}

/**
 * Fills `config` from the environment, in place:
 *
 * - `basePath`: as given, else the path of `AUTH_URL`/`NEXTAUTH_URL` when it has one, else
 *   `/api/auth`.
 * - `secret`: as given, else `AUTH_SECRET` (or `NEXTAUTH_SECRET`), with `AUTH_SECRET_1` to `_3`
 *   added for rotation.
 * - `trustHost`, `redirectProxyUrl`, `AUTH_<PROVIDER>_ID`/`_SECRET`/`_ISSUER`/`_KEY`: as the core's
 *   `setEnvDefaults`, with `NEXTAUTH_URL` counting as `AUTH_URL`.
 *
 * Deliberate difference: next-auth ignores `AUTH_SECRET_1`..`_3` once `AUTH_SECRET` is set; here
 * they are kept, so secrets can be rotated with the usual variable names.
 *
 * @example
 * ```ts
 * const config: NextAuthConfig = { providers: [GitHub] }
 * setNextEnvDefaults({ AUTH_SECRET: "s3cret", AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "shh" }, config)
 * config.basePath // "/api/auth"
 * ```
 */
export function setNextEnvDefaults(env: EnvObject, config: NextAuthConfig): void {
  const url = envUrl(env)
  if (url && !config.basePath) {
    try {
      const { pathname } = new URL(url)
      if (pathname !== "/") config.basePath = pathname.replace(/\/+$/, "")
    } catch {
      // An unparsable URL leaves the default below; the core ignores it too.
    }
  }
  config.basePath ||= nextBasePath
  const secret = env.AUTH_SECRET || env.NEXTAUTH_SECRET || undefined
  // The core reads AUTH_URL only; the alias counts too. The warning about an AUTH_URL path next
  // to a basePath is moot here: the path was just used as the basePath.
  setEnvDefaults({ ...env, AUTH_URL: url, AUTH_SECRET: secret }, config, true)
}

/**
 * The request as a `NextRequest`, with its origin replaced by the origin of
 * `AUTH_URL`/`NEXTAUTH_URL` when set (path and query kept): behind a proxy, the public origin is
 * the one cookies and redirects must use. A new `NextRequest` reads a clone of `request`, whose
 * body stays unread.
 *
 * @example
 * ```ts
 * (await withEnvOrigin(new Request("http://10.0.0.5:3000/api/auth/session"), { AUTH_URL: "https://app.example" })).url
 * // "https://app.example/api/auth/session"
 * ```
 */
export async function withEnvOrigin(request: Request, env: EnvObject): Promise<NextRequest> {
  const { NextRequest } = await nextServer()
  const url = envUrl(env)
  let origin: string | undefined
  try {
    origin = url ? new URL(url).origin : undefined
  } catch {
    origin = undefined
  }
  const current = new URL(request.url)
  if (!origin || current.origin === origin) {
    if (request instanceof NextRequest) return request
    // A copy (the body teed), so that `request` itself stays readable: the route handler gives it to Auth().
    return new NextRequest(request.clone())
  }
  return new NextRequest(`${origin}${current.pathname}${current.search}`, request.clone())
}

function firstValue(header: string | null): string | undefined {
  return header?.split(",")[0]?.trim() || undefined
}

/**
 * The request a route handler gives `Auth()`: a plain `Request` (method, headers and body kept) on
 * the URL the browser asked for. That is the origin of `AUTH_URL`/`NEXTAUTH_URL` when set, else the
 * one `x-forwarded-host` (else `host`) and `x-forwarded-proto` name, as for Server Actions and the
 * proxy; else `request.url` as it is.
 *
 * Not a `NextRequest`: Next.js rewrites `127.0.0.1` and `[::1]` to `localhost` in a `NextRequest`'s
 * URL, so the built-in pages would post their forms to `localhost`, whose cookies (the CSRF token)
 * the browser keeps apart from `127.0.0.1`'s: every sign-in would fail with `MissingCSRF`. Whether
 * the origin may be served at all stays the core's decision (`origin`, `trustedOrigins`,
 * `trustHost`).
 *
 * @example
 * ```ts
 * const request = new NextRequest("http://localhost:3000/api/auth/signin", { headers: { host: "127.0.0.1:3000" } })
 * (await publicRequest(request, {})).url // "http://127.0.0.1:3000/api/auth/signin"
 * ```
 */
export async function publicRequest(request: Request, env: EnvObject): Promise<Request> {
  const current = new URL(request.url)
  let origin = current.origin
  const url = envUrl(env)
  if (url) {
    try {
      origin = new URL(url).origin
    } catch {
      // An unparsable AUTH_URL is ignored, as everywhere else.
    }
  } else {
    const host = firstValue(request.headers.get("x-forwarded-host") ?? request.headers.get("host"))
    const scheme = firstValue(request.headers.get("x-forwarded-proto"))?.replace(/:$/, "")
    if (host) {
      try {
        const candidate = new URL(`${scheme === "http" || scheme === "https" ? scheme : current.protocol.slice(0, -1)}://${host}`)
        // A Host with a path, credentials or anything but an authority names no origin: keep the URL.
        if (`${candidate.protocol}//${candidate.host}` === candidate.href.replace(/\/$/, "")) origin = candidate.origin
      } catch {
        // Not a host: keep the URL Next.js gave.
      }
    }
  }
  if (origin === current.origin) return request
  // Read, not streamed: inside Next.js the incoming body stream cannot be handed to a new Request
  // ("Response body object should not be disturbed or locked"). Auth bodies are small forms.
  const body = request.method === "GET" || request.method === "HEAD" ? null : await request.arrayBuffer()
  return new Request(`${origin}${current.pathname}${current.search}`, { method: request.method, headers: request.headers, body, signal: request.signal })
}
