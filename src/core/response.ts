import { serializeCookie } from "./cookies/serialize.js"
import type { ResponseInternal } from "../types.js"

// The pairs of frozen header objects (the session answer's), computed once; each answer gets its own
// copy of the list, since cookies and Location are appended to it.
const frozenEntries = new WeakMap<object, readonly [string, string][]>()

function entriesOf(headers: Record<string, string>): [string, string][] {
  if (!Object.isFrozen(headers)) return Object.entries(headers)
  let entries = frozenEntries.get(headers)
  if (entries === undefined) {
    entries = Object.entries(headers)
    frozenEntries.set(headers, entries)
  }
  return entries.slice()
}

/**
 * Turns an internal response into a web `Response`: redirects become 302 with `Location`, or 200
 * JSON `{url}` when the request asked with `X-Auth-Return-Redirect`; each cookie its own `Set-Cookie`.
 *
 * @example
 * ```ts
 * toResponse({ redirect: "https://app.test/" }, request) // 302, Location: https://app.test/
 * ```
 */
export function toResponse(internal: ResponseInternal, request: Request): Response {
  const headers: [string, string][] = internal.headers ? entriesOf(internal.headers) : []
  if (internal.cookies) {
    for (const cookie of internal.cookies) headers.push(["Set-Cookie", serializeCookie(cookie.name, cookie.value, cookie.options)])
  }
  let body = internal.body
  let status = internal.status ?? 200
  let contentType = internal.headers?.["Content-Type"]
  if (internal.redirect) {
    headers.push(["Location", internal.redirect])
    if (request.headers.has("X-Auth-Return-Redirect")) {
      body = { url: internal.redirect }
      if (contentType !== "application/json") {
        contentType = "application/json"
        const kept = headers.filter(([name]) => name.toLowerCase() !== "content-type")
        headers.length = 0
        headers.push(...kept, ["Content-Type", contentType])
      }
    } else {
      status = 302
      body = undefined
    }
  }
  if (contentType === "application/json") return new Response(JSON.stringify(body ?? null), { status, headers })
  if (contentType === "application/x-www-form-urlencoded" && body && typeof body === "object") {
    return new Response(new URLSearchParams(body as Record<string, string>).toString(), { status, headers })
  }
  return new Response(body === undefined ? null : (body as BodyInit), { status, headers })
}
