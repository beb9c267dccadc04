import * as o from "oauth4webapi"
import { customFetch } from "../symbols.js"
import type { OAuthProviderConfig } from "../../providers/oauth.js"

/** A provider endpoint as a URL plus its extra parameters. */
export interface ResolvedEndpoint {
  url?: URL
  params: Record<string, string>
}

/**
 * A provider endpoint (`authorization`, `token`, `userinfo`) as a URL and its parameters: a string
 * is the URL, its query the parameters (as Auth.js configurations give them); an object gives
 * `url` and `params`, which win over the URL's query (a `claims` param is sent as JSON).
 *
 * @example
 * ```ts
 * resolveEndpoint({ url: "https://github.com/login/oauth/authorize", params: { scope: "read:user" } })
 * ```
 */
export function resolveEndpoint(endpoint: string | { url?: string; params?: Record<string, unknown> } | undefined): ResolvedEndpoint {
  if (!endpoint) return { params: {} }
  if (typeof endpoint === "string") {
    // An Auth.js-style URL carries its parameters in the query (`…/authorize?scope=read_user`).
    const url = new URL(endpoint)
    return { url, params: Object.fromEntries(url.searchParams) }
  }
  const params: Record<string, string> = endpoint.url ? Object.fromEntries(new URL(endpoint.url).searchParams) : {}
  for (const [key, value] of Object.entries(endpoint.params ?? {})) {
    if (value === undefined || value === null) continue
    params[key] = typeof value === "string" ? value : key === "claims" || typeof value === "object" ? JSON.stringify(value) : String(value)
  }
  return endpoint.url ? { url: new URL(endpoint.url), params } : { params }
}

const loopbackHosts = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/**
 * True when a URL may be fetched: `https:`, or `http:` on a loopback host (127.0.0.0/8, ::1,
 * localhost), or any `http:` when the provider opted in with `dangerouslyAllowInsecureHttp`.
 *
 * @example
 * ```ts
 * isAllowedEndpoint(new URL("http://127.0.0.1:4000/token"), provider) // true
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-2.6
 */
export function isAllowedEndpoint(url: URL, provider: Pick<OAuthProviderConfig, "dangerouslyAllowInsecureHttp">): boolean {
  if (url.protocol === "https:") return true
  if (url.protocol !== "http:") return false
  return loopbackHosts.test(url.hostname) || provider.dangerouslyAllowInsecureHttp === true
}

/** The oauth4webapi request options for a provider: its `customFetch`, and plain HTTP where allowed. */
export type HttpOptions = { [o.customFetch]?: typeof fetch; [o.allowInsecureRequests]?: boolean; signal?: AbortSignal }

/**
 * Request options for one provider endpoint. Throws for an endpoint authflow refuses to call.
 *
 * @example
 * ```ts
 * await o.discoveryRequest(issuer, httpOptions(provider, issuer))
 * ```
 */
export function httpOptions(provider: OAuthProviderConfig, url: URL): HttpOptions {
  if (!isAllowedEndpoint(url, provider)) {
    throw new TypeError(
      `Provider "${provider.id}": refusing to call ${url.origin} over ${url.protocol.replace(":", "")}; use https, a loopback host, or dangerouslyAllowInsecureHttp`,
    )
  }
  const options: HttpOptions = { signal: AbortSignal.timeout(30_000) }
  const custom = provider[customFetch]
  if (custom) options[o.customFetch] = custom as typeof fetch
  if (url.protocol === "http:") options[o.allowInsecureRequests] = true
  return options
}

/**
 * The `fetch` a provider's own code (a custom `userinfo.request`) should use: its `customFetch`, or
 * the global one, refusing insecure URLs the same way.
 *
 * @example
 * ```ts
 * const emails = await providerFetch(provider)("https://api.github.com/user/emails", { headers })
 * ```
 */
export function providerFetch(provider: OAuthProviderConfig): typeof fetch {
  const custom = (provider[customFetch] as typeof fetch | undefined) ?? fetch
  return ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input)
    if (!isAllowedEndpoint(url, provider)) return Promise.reject(new TypeError(`refusing to call ${url.origin} over http`))
    return custom(input, init)
  }) as typeof fetch
}
