import { UnknownAction } from "./errors.js"
import { parseCookieHeader } from "./cookies/parse.js"
import { isAuthAction } from "./env.js"
import { peerAddressOf } from "./rate-limit/peer.js"
import type { AuthAction } from "../types.js"

/** A web `Request` reduced to what the actions need. */
export interface AuthRequest {
  url: URL
  method: "GET" | "POST"
  headers: Headers
  action: AuthAction
  providerId?: string
  /** The step named after an action that takes no provider: `switch` in `/sessions/switch`. */
  step?: string
  /** Parsed form or JSON body of a POST; undefined for GET or other content types. */
  body?: Record<string, unknown>
  query: Record<string, string>
  cookies: Record<string, string>
  error?: string
  /** The address of the socket's peer, when the framework wrapper recorded it (`withClientAddress`). */
  peer?: string
}

const actionsWithProvider: ReadonlySet<AuthAction> = new Set<AuthAction>(["signin", "callback", "webauthn-options", "backchannel-logout", "signup", "verify-email", "change-email", "confirm-email", "forgot-password", "reset-password", "change-password"])

/**
 * The action and provider named by a path under `basePath`: `<basePath>/<action>[/<providerId>]`.
 * Throws `UnknownAction` for anything else.
 *
 * @example
 * ```ts
 * parseActionPath("/auth/signin/github", "/auth") // { action: "signin", providerId: "github" }
 * ```
 */
export function parseActionPath(pathname: string, basePath: string): { action: AuthAction; providerId?: string; step?: string } {
  const base = basePath.endsWith("/") ? basePath.slice(0, -1) : basePath
  if (pathname === base) throw new UnknownAction(`Cannot parse action at ${pathname}: the path names no action under basePath "${base || "/"}"`)
  if (!pathname.startsWith(base) || (base && pathname[base.length] !== "/")) throw outsideBasePath(pathname, base)
  // The common shape, `<basePath>/<action>`, needs no split.
  const single = pathname.slice(base.length + 1)
  if (single !== "" && single.indexOf("/") === -1) {
    if (!isAuthAction(single)) throw new UnknownAction(`Cannot parse action at ${pathname}: "${single}" is not an action under basePath "${base || "/"}"`)
    return { action: single }
  }
  const segments = pathname.slice(base.length).split("/").filter(Boolean)
  if (segments.length < 1 || segments.length > 2) throw new UnknownAction(`Cannot parse action at ${pathname}`)
  const [action, providerId] = segments as [string, string | undefined]
  if (!isAuthAction(action)) throw new UnknownAction(`Cannot parse action at ${pathname}: "${action}" is not an action under basePath "${base || "/"}"`)
  // `/sessions/switch`: a step of the accounts route, not a provider.
  if (action === "sessions" && providerId === "switch") return { action, step: providerId }
  if (providerId !== undefined && !actionsWithProvider.has(action)) {
    throw new UnknownAction(`Cannot parse action at ${pathname}`)
  }
  return providerId === undefined || providerId === "undefined" ? { action } : { action, providerId: decodeSegment(providerId) }
}

/**
 * The `UnknownAction` of a path outside `basePath`. A path that would be an action under another
 * base (`/api/auth/session` when basePath is `/auth`) names the basePath that would serve it: the
 * app mounted `Auth()` elsewhere than its configuration says. Anything else (`/`, `/favicon.ico`
 * reaching a catch-all mount) is a stray request, marked `stray` so the router logs it at debug.
 */
function outsideBasePath(pathname: string, base: string): UnknownAction {
  const segments = pathname.split("/").filter(Boolean)
  const last = segments.length - 1
  // `<mount>/<action>`, or `<mount>/<action>/<provider>` for the actions that take one.
  const actionAt = isAuthAction(segments[last] ?? "") ? last : actionsWithProvider.has(segments[last - 1] as AuthAction) ? last - 1 : -1
  const mountedAt = actionAt < 0 ? undefined : `/${segments.slice(0, actionAt).join("/")}`
  if (mountedAt === undefined) {
    return new UnknownAction(`${pathname} is not under basePath "${base || "/"}": not an authflow route`, { cause: { stray: true } })
  }
  return new UnknownAction(`${pathname} is outside basePath "${base || "/"}": Auth() looks mounted at "${mountedAt}", so set basePath: "${mountedAt}" (or AUTH_URL's path)`)
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new UnknownAction(`Malformed provider segment ${segment}`)
  }
}

async function readBody(request: Request): Promise<Record<string, unknown> | undefined> {
  if (!request.body) return undefined
  const contentType = request.headers.get("content-type") ?? ""
  if (contentType.includes("application/json")) {
    // Malformed JSON throws: the request is answered 400 "Bad request.", as Auth.js answers it.
    const parsed: unknown = await request.json()
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
  }
  if (contentType.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(await request.text()))
  }
  return undefined
}

/**
 * Reads a web `Request` into an {@link AuthRequest}. Only GET and POST under `basePath` are served;
 * everything else throws `UnknownAction`, and a JSON body that does not parse throws its
 * `SyntaxError` (both answered with 400 "Bad request.").
 *
 * @example
 * ```ts
 * const req = await toAuthRequest(new Request("https://app.test/auth/session"), "/auth")
 * req.action // "session"
 * ```
 */
export async function toAuthRequest(request: Request, basePath: string): Promise<AuthRequest> {
  const method = request.method
  if (method !== "GET" && method !== "POST") throw new UnknownAction(`Unsupported method ${method}`)
  const url = new URL(request.url)
  const { action, providerId, step } = parseActionPath(url.pathname, basePath)
  // Most requests (a session read) have no query: skip building URLSearchParams for them.
  const query: Record<string, string> = url.search === "" ? {} : Object.fromEntries(url.searchParams)
  const body = method === "POST" ? await readBody(request) : undefined
  const authRequest: AuthRequest = {
    url,
    method,
    headers: request.headers,
    action,
    query,
    cookies: parseCookieHeader(request.headers.get("cookie")),
  }
  if (providerId !== undefined) authRequest.providerId = providerId
  if (step !== undefined) authRequest.step = step
  if (body !== undefined) authRequest.body = body
  if (query.error !== undefined) authRequest.error = query.error
  const peer = peerAddressOf(request)
  if (peer !== undefined) authRequest.peer = peer
  return authRequest
}
