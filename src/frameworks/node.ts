/**
 * Plain Node.js (`node:http`) integration: convert an incoming message to a web `Request` and
 * write a web `Response` back.
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
import { withClientAddress } from "../core/rate-limit/ip.js"

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
