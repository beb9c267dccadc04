/**
 * Where the browser client finds authflow's routes.
 *
 * The base path is, in order: the last value given to {@link configure} (a `SessionProvider`'s
 * `basePath` prop calls it too), the path of `NEXT_PUBLIC_AUTH_URL` when the bundler inlines it
 * (Next.js does), else `/api/auth` (the Next.js default). URLs are relative to the page's origin
 * unless a `baseUrl` is configured.
 *
 * @module
 */

/** Settings of the browser client. */
export interface ClientConfig {
  /** Path of the auth routes, e.g. `/api/auth` (default) or `/auth`. */
  basePath: string
  /**
   * Origin the routes live on, e.g. `https://app.example`. Empty (default): the page's own origin.
   * Needed outside a browser, where `fetch` wants absolute URLs.
   */
  baseUrl: string
}

const defaultBasePath = "/api/auth"

function envBasePath(): string | undefined {
  let url: string | undefined
  try {
    // Written out in full so that bundlers which inline public env variables (Next.js) can replace it.
    url = process.env.NEXT_PUBLIC_AUTH_URL
  } catch {
    // No `process` in this runtime: nothing was inlined.
    return undefined
  }
  if (!url) return undefined
  try {
    const { pathname } = new URL(url)
    return pathname === "/" ? undefined : pathname
  } catch {
    return undefined
  }
}

let current: ClientConfig | undefined

/**
 * The settings in force.
 *
 * @example
 * ```ts
 * clientConfig().basePath // "/api/auth"
 * ```
 */
export function clientConfig(): ClientConfig {
  current ??= { basePath: envBasePath() ?? defaultBasePath, baseUrl: "" }
  return current
}

/**
 * Changes where the client sends its requests. Call it once, before the first request; options
 * left out keep their value.
 *
 * @example
 * ```ts
 * import { configure } from "authflow/client"
 * configure({ basePath: "/auth" }) // a SvelteKit or plain-Node authflow server
 * ```
 */
export function configure(options: Partial<ClientConfig>): ClientConfig {
  const next = { ...clientConfig() }
  if (options.basePath !== undefined) next.basePath = trimTrailingSlash(options.basePath)
  if (options.baseUrl !== undefined) next.baseUrl = trimTrailingSlash(options.baseUrl)
  current = next
  return next
}

/**
 * The URL of an auth route, e.g. `/api/auth/session`.
 *
 * @example
 * ```ts
 * authUrl("signin/github") // "/api/auth/signin/github"
 * ```
 */
export function authUrl(path: string): string {
  const { baseUrl, basePath } = clientConfig()
  return `${baseUrl}${basePath}/${path}`
}

function trimTrailingSlash(value: string): string {
  return value.length > 1 ? value.replace(/\/+$/, "") : value
}
