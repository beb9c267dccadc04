/**
 * Next.js's own modules, loaded on first use.
 *
 * The specifiers are the bare `next/server`, `next/headers` and `next/navigation` that Next.js's
 * bundler maps per layer (route handlers, Server Components, the proxy each get the right
 * variant). Next.js ships no `exports` map, so Node's ESM loader cannot resolve bare subpaths:
 * importing them lazily lets `authflow/next` itself load anywhere (plain Node, tests, tooling),
 * and inside Next.js the bundler has resolved them at build time.
 *
 * @module
 */

type NextServer = typeof import("next/server.js")
type NextHeaders = typeof import("next/headers.js")
type NextNavigation = typeof import("next/navigation.js")

let server: Promise<NextServer> | undefined
let headers: Promise<NextHeaders> | undefined
let navigation: Promise<NextNavigation> | undefined

// `as string` keeps TypeScript (NodeNext) from resolving the specifier; the emitted code keeps the
// literal, which bundlers need.

/** `next/server`: `NextRequest`, `NextResponse`. */
export function nextServer(): Promise<NextServer> {
  return (server ??= import("next/server" as string) as Promise<NextServer>)
}

/** `next/headers`: `headers()`, `cookies()` of the request being handled. */
export function nextHeaders(): Promise<NextHeaders> {
  return (headers ??= import("next/headers" as string) as Promise<NextHeaders>)
}

/** `next/navigation`: `redirect()`. */
export function nextNavigation(): Promise<NextNavigation> {
  return (navigation ??= import("next/navigation" as string) as Promise<NextNavigation>)
}
