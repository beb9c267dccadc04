/**
 * Plain Node.js (`node:http`) integration: convert an incoming message to a web `Request`, write a
 * web `Response` back, and read the session of a request on your own pages (`getSession`).
 *
 * @example
 * ```ts
 * import { createServer } from "node:http"
 * import { Auth } from "authflow"
 * import { toWebRequest, sendWebResponse } from "authflow/node"
 *
 * createServer(async (req, res) => {
 *   if (req.url?.startsWith("/auth/")) return sendWebResponse(res, await Auth(await toWebRequest(req), config))
 *   res.end("hello")
 * }).listen(3000)
 * ```
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Auth } from "../auth.js"
import { checkRequest } from "../core/assert.js"
import { AuthError, MissingSecret } from "../core/errors.js"
import { configFor } from "../core/options.js"
import { servedOrigin } from "../core/origin.js"
import { toAuthRequest } from "../core/request.js"
import type { AuthConfig, Session } from "../types.js"
import { withClientAddress } from "../core/rate-limit/peer.js"
import { checkRecentAuth, type RecentAuthDemand, type RecentAuthResult } from "./shared/recent-auth.js"
export type { RecentAuthDemand, RecentAuthResult } from "./shared/recent-auth.js"

const maxBodyBytes = 1024 * 1024

function envOrigin(): string | undefined {
  const url = globalThis.process?.env?.AUTH_URL
  if (!url) return undefined
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/**
 * A web `Request` for a Node.js incoming message. Its origin is `origin` when given, else the origin
 * of `AUTH_URL` when that is set, else (only then) the Host header and the socket's TLS state: pass
 * the app's public origin, since anyone can send any Host. Bodies over 1 MiB are refused with a
 * `RangeError`. The socket's peer address (`req.socket.remoteAddress`) is recorded for the rate
 * limiter (see `withClientAddress`); behind a proxy, set `rateLimit.trustedProxies`.
 *
 * @param origin - The app's public origin. @default the origin of `process.env.AUTH_URL`, else the Host header
 * @example
 * ```ts
 * const request = await toWebRequest(req, "https://app.example")
 * ```
 */
export async function toWebRequest(req: IncomingMessage, origin: string | undefined = envOrigin()): Promise<Request> {
  const base = origin ?? `${(req.socket as { encrypted?: boolean }).encrypted ? "https" : "http"}://${req.headers.host ?? "localhost"}`
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else headers.set(name, value)
  }
  const method = req.method ?? "GET"
  let body: Uint8Array | undefined
  if (method !== "GET" && method !== "HEAD") {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > maxBodyBytes) throw new RangeError("Request body too large")
      chunks.push(chunk as Buffer)
    }
    body = new Uint8Array(Buffer.concat(chunks))
  }
  const request = new Request(new URL(req.url ?? "/", base), { method, headers, ...(body && body.length > 0 && { body: body as BodyInit }) })
  return withClientAddress(request, req.socket?.remoteAddress)
}

/**
 * Writes a web `Response` to a Node.js server response, keeping every `Set-Cookie` header apart.
 * The body is streamed as it comes (server-sent events included) and cancelled when the client
 * goes away.
 *
 * @example
 * ```ts
 * await sendWebResponse(res, await Auth(request, config))
 * ```
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length) headers["set-cookie"] = cookies
  res.writeHead(response.status, headers)
  if (!response.body) {
    res.end()
    return
  }
  const reader = response.body.getReader()
  const cancel = () => void reader.cancel().catch(() => {})
  res.once("close", cancel)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      // Respect back-pressure: wait for the socket to drain before reading on.
      if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve))
    }
  } catch {
    // The client went away mid-stream; there is nobody left to answer.
  } finally {
    res.off("close", cancel)
    res.end()
  }
}

/**
 * What {@link getSession} found: the session (`null` when signed out) and the `Set-Cookie` headers
 * to forward on your response. Reading a session slides its expiry, so the cookie it re-issues must
 * reach the browser, or the session ends `maxAge` after sign-in however active the user is.
 */
export interface SessionResult {
  /** The session, as `GET {basePath}/session` answers it, or `null` when nobody is signed in. */
  session: Session | null
  /** `Set-Cookie` header values to send with your response (the refreshed session cookie). */
  cookies: string[]
}

/** A GET with only the incoming message's headers: a page request's body is not the session's. */
function headersOnly(req: IncomingMessage, origin: string | undefined): Request {
  const base = origin ?? envOrigin() ?? `${(req.socket as { encrypted?: boolean } | undefined)?.encrypted ? "https" : "http"}://${req.headers.host ?? "localhost"}`
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else headers.set(name, value)
  }
  return new Request(new URL(req.url ?? "/", base), { headers })
}

/**
 * The configuration error behind a non-2xx session answer, as `Auth()` logged it: the same checks,
 * run again on the same request, so the thrown error carries its `type` and says what to change.
 */
async function diagnose(request: Request, config: AuthConfig, response: Response): Promise<Error> {
  const basePath = config.basePath ?? "/auth"
  const authRequest = await toAuthRequest(request, basePath)
  const served = servedOrigin(authRequest.url, config)
  let error: Error | undefined = served.error
  if (!error) {
    if (served.origin !== authRequest.url.origin) authRequest.url = new URL(authRequest.url.pathname, served.origin)
    const resolved = checkRequest(authRequest, await configFor(config, authRequest.url))
    if (!resolved.ok) error = resolved.error
  }
  if (error instanceof MissingSecret && !error.message.includes("AUTH_SECRET")) {
    return new MissingSecret("No `secret`: set AUTH_SECRET (generate one with `openssl rand -base64 33`) and pass `secret: process.env.AUTH_SECRET`", { cause: error })
  }
  if (error) return error
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null
  const message = typeof body?.message === "string" ? body.message : "see the [auth][error] line logged before this one"
  return new AuthError(`authflow answered the session request with HTTP ${response.status}: ${message}`)
}

/**
 * The session of a request, for your own pages and API routes: `GET {basePath}/session` run
 * in-process through `Auth()` with the request's cookies, as the browser client would ask for it.
 *
 * - Signed out (no cookie, an expired or undecryptable one): `{ session: null }`.
 * - Signed in: the session the `session` callback shapes, and in `cookies` the re-issued session
 *   cookie with its new expiry: send these `Set-Cookie` values with your response.
 * - A configuration error (no `secret`, an untrusted host, a provider without a client id, …) is
 *   thrown as the `AuthError` `Auth()` logs (`error.type` is stable), its message saying in one line
 *   what to set. It is the server's problem, never the user's: answer 500.
 *
 * Like `Auth()`, it reads the configuration as given: call `setEnvDefaults(process.env, config)`
 * first to fill it from `AUTH_*` variables. A web `Request` or a Node `IncomingMessage` is accepted;
 * only the headers are used, so a page's POST body stays unread.
 *
 * @param request - The incoming request: a web `Request`, or `node:http`'s `IncomingMessage`.
 * @param config - The same configuration object your `Auth()` routes use.
 * @example
 * ```ts
 * import { getSession } from "authflow/node"
 *
 * createServer(async (req, res) => {
 *   const { session, cookies } = await getSession(req, config)
 *   res.setHeader("set-cookie", cookies)
 *   res.end(session?.user ? `Hello ${session.user.name}` : "Not signed in")
 * })
 * ```
 */
export async function getSession(request: Request | IncomingMessage, config: Omit<AuthConfig, "raw">): Promise<SessionResult> {
  const incoming = request instanceof Request ? request : headersOnly(request, config.origin)
  const headers = new Headers(incoming.headers)
  // The session read is a GET without a body, whatever the incoming request was.
  headers.delete("content-length")
  headers.delete("content-type")
  const sessionRequest = new Request(new URL(`${config.basePath ?? "/auth"}/session`, incoming.url), { headers })
  const response = await Auth(sessionRequest, config)
  if (!response.ok) throw await diagnose(sessionRequest, config, response)
  const session = (await response.json()) as Session | null
  return { session: session && typeof session === "object" && Object.keys(session).length ? session : null, cookies: response.headers.getSetCookie() }
}

/**
 * Whether the signed-in user of a request authenticated recently enough for a sensitive action:
 * `GET {basePath}/step-up` asked in-process as JSON, starting nothing. When they did not,
 * `redirectTo` is where to send the browser: the step-up asks for their second factor again (the
 * session stays) or for a sign-in, and sends them back to `callbackUrl` (by default the request's
 * URL). Needs `secondFactor` in the configuration.
 *
 * @param request - The incoming request: a web `Request`, or `node:http`'s `IncomingMessage`.
 * @param config - The same configuration object your `Auth()` routes use.
 * @param demand - How recent (`maxAge`, seconds) and how strong (`factor`).
 * @example
 * ```ts
 * import { recentAuth } from "authflow/node"
 *
 * const check = await recentAuth(req, config, { maxAge: 300, factor: "second" })
 * if (!check.recent) {
 *   res.writeHead(303, { location: check.redirectTo }).end()
 *   return
 * }
 * ```
 */
export async function recentAuth(request: Request | IncomingMessage, config: Omit<AuthConfig, "raw">, demand: RecentAuthDemand): Promise<RecentAuthResult> {
  const incoming = request instanceof Request ? request : headersOnly(request, config.origin)
  return checkRecentAuth(demand, { config, url: new URL(`${config.basePath ?? "/auth"}/step-up`, incoming.url), headers: incoming.headers, callbackUrl: incoming.url })
}
