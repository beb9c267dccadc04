/**
 * The universal `auth` of the Next.js integration: Server Components, the proxy (middleware),
 * wrapped route handlers, and the Pages Router.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { NextRequest } from "next/server.js"
import type { EnvObject } from "../../core/env.js"
import type { Session } from "../../types.js"
import { envUrl, withEnvOrigin } from "./env.js"
import { nextHeaders, nextServer } from "./next-modules.js"
import { sessionOf, sessionResponse } from "./session.js"
import type { NextAuthConfig, NextAuthFunction, NextAuthHandler, NextAuthRequest } from "./types.js"

/** Resolves the configuration for one call, with the request when there is one. */
export type RequestConfigResolver = (request: NextRequest | undefined) => Promise<NextAuthConfig>

/**
 * Builds the universal `auth` for a configuration.
 *
 * @example
 * ```ts
 * const auth = createAuth(async () => config)
 * const session = await auth()
 * ```
 */
export function createAuth(resolve: RequestConfigResolver): NextAuthFunction {
  function auth(...args: unknown[]): Promise<unknown> | ((request: NextRequest, context: unknown) => Promise<Response>) {
    const [first, second] = args
    if (args.length === 0) return sessionInServerComponent(resolve)
    if (typeof first === "function") {
      const handler = first as NextAuthHandler<unknown>
      return (request: NextRequest, context: unknown) => handleRequest(request, context, resolve, handler)
    }
    if (isWebRequest(first)) return handleRequest(first as NextRequest, second, resolve)
    return sessionInPagesRouter(first as PagesRequest | PagesContext, second as PagesResponse | undefined, resolve)
  }
  return auth as NextAuthFunction
}

/** A web `Request` (`NextRequest` is one), also when it comes from another realm's `Request` class. */
function isWebRequest(value: unknown): value is Request {
  if (value instanceof Request) return true
  const candidate = value as { url?: unknown; headers?: { get?: unknown }; nextUrl?: unknown } | null
  return typeof candidate?.url === "string" && typeof candidate.headers?.get === "function" && candidate.nextUrl !== undefined
}

/** `auth()` with no arguments: the cookies of the request being rendered or acted upon. */
async function sessionInServerComponent(resolve: RequestConfigResolver): Promise<Session | null> {
  // Reading a session needs the clock (a JWT's expiry), which Next.js refuses while prerendering
  // under `cacheComponents` ("used Date.now() … while prerendering"). `connection()` (Next.js 15+)
  // waits for a real request, so the prerender stops here and the caller's <Suspense> fallback
  // goes into the static shell; older versions have no `connection()` and need no wait.
  const { connection } = await nextServer()
  if (typeof connection === "function") await connection()
  const { cookies, headers: requestHeaders } = await nextHeaders()
  const incoming = await requestHeaders()
  const headers = new Headers(incoming)
  // In a Server Action, `cookies()` already holds what the action set (a sign-in, an update); there
  // it is a response cookie list (whose toString() gives Set-Cookie syntax), so the header is built
  // from the name/value pairs, leaving out cleared cookies.
  const jar = await cookies()
  const cookie = jar
    .getAll()
    .filter(({ value }) => value !== "")
    .map(({ name, value }) => `${name}=${encodeURIComponent(value)}`)
    .join("; ")
  if (cookie) headers.set("cookie", cookie)
  else headers.delete("cookie")
  const config = await resolve(undefined)
  return sessionOf(await sessionResponse(headers, undefined, config, process.env))
}

/**
 * The proxy (middleware), bare or wrapping `handler`: reads the session, asks
 * `callbacks.authorized`, then answers
 *
 * 1. the `Response` that `authorized` returned (unless it redirects to the very URL requested,
 *    which would loop);
 * 2. for `false` (or nothing), a redirect to the sign-in page with `callbackUrl=<requested URL>`,
 *    except on the sign-in page itself;
 * 3. otherwise the handler's answer (its request carries `auth`), or `NextResponse.next()`.
 *
 * The session cookie the read sets is copied onto the answer: a cleared one, a changed one, or an
 * unchanged one re-issued once it is older than `session.updateAge`, so the proxy keeps sessions
 * alive. An unchanged, younger one is not re-issued: the proxy also answers link prefetches, and
 * one sent before a sign-out and answered after it would otherwise set the session cookie back.
 *
 * Deliberate difference: next-auth runs a wrapped handler even when `authorized` returned false;
 * here a refused request never reaches it.
 */
async function handleRequest(
  incoming: NextRequest,
  context: unknown,
  resolve: RequestConfigResolver,
  handler?: NextAuthHandler<unknown>,
): Promise<Response> {
  const { NextResponse } = await nextServer()
  const env: EnvObject = process.env
  const request = await withEnvOrigin(incoming, env)
  const config = await resolve(request)
  const headers = new Headers(request.headers)
  // A request built by hand (tests, a wrapper calling the handler) may carry no Host header.
  if (!headers.has("host") && !headers.has("x-forwarded-host")) headers.set("host", request.nextUrl.host)
  const sessionAnswer = await sessionResponse(headers, request.nextUrl.protocol, config, env)
  const auth = await sessionOf(sessionAnswer)
  const authorized = config.callbacks?.authorized ? await config.callbacks.authorized({ request, auth }) : true

  const publicUrl = publicUrlOf(request, headers, env, config)
  let response: Response
  if (authorized instanceof Response && !redirectsToItself(authorized, request, publicUrl)) {
    response = authorized
  } else if (!authorized && !onSignInPage(request, publicUrl, config)) {
    response = NextResponse.redirect(signInUrl(publicUrl, config))
  } else if (handler) {
    const withAuth = request as NextAuthRequest
    withAuth.auth = auth
    response = (await handler(withAuth, context)) ?? NextResponse.next()
  } else {
    response = NextResponse.next()
  }

  // A copy: the headers of some responses (Response.redirect()) cannot be changed.
  const answer = new Response(response.body, response)
  for (const cookie of sessionAnswer.headers.getSetCookie()) answer.headers.append("set-cookie", cookie)
  return answer
}

function signInPage(config: NextAuthConfig): string {
  return config.pages?.signIn ?? `${config.basePath}/signin`
}

/**
 * The URL the browser asked for. Behind `next start` (or any proxy) `request.url` names the
 * server's own address (`http://localhost:3000`), while `x-forwarded-host`/`host` and
 * `x-forwarded-proto` name the one the browser used: a `callbackUrl` must be on that one, or the
 * `redirect` callback refuses it. `AUTH_URL` (already applied to the request) wins, then `origin`.
 */
function publicUrlOf(request: NextRequest, headers: Headers, env: EnvObject, config: NextAuthConfig): URL {
  const url = new URL(request.nextUrl.href)
  if (envUrl(env)) return url
  // A configured public origin wins over forwarded headers, as it does in Auth().
  if (config.origin) {
    try {
      return new URL(`${url.pathname}${url.search}`, config.origin)
    } catch {
      return url
    }
  }
  const host = firstValue(headers.get("x-forwarded-host") ?? headers.get("host"))
  const protocol = firstValue(headers.get("x-forwarded-proto"))
  try {
    if (host) url.host = host
    if (protocol) url.protocol = protocol
  } catch {
    return new URL(request.nextUrl.href)
  }
  return url
}

function firstValue(header: string | null): string | undefined {
  return header?.split(",")[0]?.trim() || undefined
}

function onSignInPage(request: NextRequest, publicUrl: URL, config: NextAuthConfig): boolean {
  const page = new URL(signInPage(config), publicUrl.origin)
  return page.origin === publicUrl.origin && page.pathname === request.nextUrl.pathname
}

function signInUrl(publicUrl: URL, config: NextAuthConfig): URL {
  const url = new URL(signInPage(config), publicUrl.origin)
  url.searchParams.set("callbackUrl", publicUrl.href)
  return url
}

function redirectsToItself(response: Response, request: NextRequest, publicUrl: URL): boolean {
  const location = response.headers.get("location")
  if (!location || response.status < 300 || response.status > 399) return false
  try {
    const target = new URL(location, publicUrl.href).href
    return target === publicUrl.href || target === request.nextUrl.href
  } catch {
    return false
  }
}

type PagesRequest = Pick<IncomingMessage, "headers"> & { socket?: { encrypted?: boolean } }
type PagesResponse = Pick<ServerResponse, "appendHeader"> | { headers: Headers }
type PagesContext = { req: PagesRequest; res: PagesResponse }

/** `auth(req, res)` in an API route, `auth(context)` in `getServerSideProps`. */
async function sessionInPagesRouter(
  first: PagesRequest | PagesContext,
  second: PagesResponse | undefined,
  resolve: RequestConfigResolver,
): Promise<Session | null> {
  const request = "req" in first ? first.req : first
  const response = "res" in first ? first.res : second
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  const config = await resolve(undefined)
  const protocol = request.socket?.encrypted ? "https:" : "http:"
  const answer = await sessionResponse(headers, protocol, config, process.env)
  for (const cookie of answer.headers.getSetCookie()) {
    if (!response) break
    if ("appendHeader" in response && typeof response.appendHeader === "function") response.appendHeader("set-cookie", cookie)
    else if ("headers" in response) response.headers.append("set-cookie", cookie)
  }
  return sessionOf(answer)
}
