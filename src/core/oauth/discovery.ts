import * as o from "oauth4webapi"
import { httpOptions, resolveEndpoint } from "./endpoints.js"
import { customFetch } from "../symbols.js"
import type { OAuthProviderConfig } from "../../providers/oauth.js"

const cacheLifetime = 10 * 60 * 1000
type DiscoveryCache = Map<string, { server: o.AuthorizationServer; at: number }>
/** Discovered servers per `fetch` in use: a provider's customFetch sees only what it fetched itself. */
const discoveredByFetch = new WeakMap<object, DiscoveryCache>()
const globalFetchKey = {}

function cacheFor(provider: OAuthProviderConfig): DiscoveryCache {
  const key = (provider[customFetch] as object | undefined) ?? globalFetchKey
  let cache = discoveredByFetch.get(key)
  if (!cache) discoveredByFetch.set(key, (cache = new Map()))
  return cache
}

/**
 * The authorization server of a provider: from OpenID Connect Discovery / RFC 8414 when the
 * provider has an `issuer` and lacks an endpoint, else from its explicit endpoints. Discovery
 * results are kept for ten minutes per issuer, so the callback does not fetch them again.
 *
 * @example
 * ```ts
 * const server = await authorizationServer(provider) // { issuer, authorization_endpoint, token_endpoint, … }
 * ```
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html
 * @see https://www.rfc-editor.org/rfc/rfc8414
 */
export async function authorizationServer(provider: OAuthProviderConfig): Promise<o.AuthorizationServer> {
  const authorization = resolveEndpoint(provider.authorization).url
  const token = resolveEndpoint(provider.token).url
  const userinfo = resolveEndpoint(provider.userinfo).url
  const discoverable = provider.issuer || provider.wellKnown
  const needsDiscovery = discoverable && (!authorization || !token || (provider.type === "oidc" && !userinfo))
  let server: o.AuthorizationServer = { issuer: provider.issuer ?? "https://authflow.invalid" }
  if (needsDiscovery) {
    const issuer = discoveryIssuer(provider)
    const key = `${provider.id}\u0000${issuer.href}`
    const discovered = cacheFor(provider)
    const cached = discovered.get(key)
    if (cached && Date.now() - cached.at < cacheLifetime) {
      server = cached.server
    } else {
      const response = await o.discoveryRequest(issuer, { ...httpOptions(provider, issuer), algorithm: "oidc" })
      server = (await tenantTemplatedServer(issuer, response.clone())) ?? (await o.processDiscoveryResponse(issuer, response))
      if (discovered.size > 100) discovered.clear()
      discovered.set(key, { server, at: Date.now() })
    }
  }
  // Explicit endpoints win over discovered ones.
  return {
    ...server,
    ...(authorization && { authorization_endpoint: authorization.href }),
    ...(token && { token_endpoint: token.href }),
    ...(userinfo && { userinfo_endpoint: userinfo.href }),
  }
}

const wellKnownSuffix = "/.well-known/openid-configuration"

/**
 * The issuer whose discovery document is fetched: the one `wellKnown` names (the URL before
 * `/.well-known/openid-configuration`, which the document must name as its issuer), else `issuer`.
 */
function discoveryIssuer(provider: OAuthProviderConfig): URL {
  if (!provider.wellKnown) return new URL(provider.issuer!)
  const wellKnown = new URL(provider.wellKnown)
  if (!wellKnown.pathname.endsWith(wellKnownSuffix) || wellKnown.search) {
    throw new TypeError(`Provider "${provider.id}": wellKnown must be a URL ending in ${wellKnownSuffix}`)
  }
  wellKnown.pathname = wellKnown.pathname.slice(0, -wellKnownSuffix.length) || "/"
  return wellKnown
}

const multiTenantSegment = /\/(common|organizations|consumers)(?=\/|$)/

/**
 * Multi-tenant Microsoft Entra ID: discovery for `/common` (or `/organizations`, `/consumers`)
 * answers an issuer templated with `{tenantid}`, which never equals the URL asked for. It is
 * accepted only in exactly that case; each ID token's issuer is then resolved from its `tid`
 * (see `resolveTenantIssuer`), and the token is still verified against the issuer's keys.
 */
async function tenantTemplatedServer(issuer: URL, response: Response): Promise<o.AuthorizationServer | undefined> {
  if (!multiTenantSegment.test(issuer.pathname) || !response.ok) return undefined
  const metadata = (await response.json().catch(() => undefined)) as o.AuthorizationServer | undefined
  if (!metadata || typeof metadata.issuer !== "string" || !metadata.issuer.includes("{tenantid}")) return undefined
  const expected = issuer.href.replace(/\/$/, "").replace(multiTenantSegment, "/{tenantid}")
  return metadata.issuer.replace(/\/$/, "") === expected ? metadata : undefined
}

/**
 * The issuer a multi-tenant server's ID token must name: the templated issuer with the token's
 * `tid` claim in it. Other servers are returned as they are.
 *
 * @example
 * ```ts
 * resolveTenantIssuer({ issuer: "https://login.microsoftonline.com/{tenantid}/v2.0" }, "9188040d-…")
 * ```
 */
export function resolveTenantIssuer(server: o.AuthorizationServer, tenantId: unknown): o.AuthorizationServer {
  if (!server.issuer.includes("{tenantid}") || typeof tenantId !== "string" || !/^[0-9a-f-]{36}$/i.test(tenantId)) return server
  return { ...server, issuer: server.issuer.replace("{tenantid}", tenantId) }
}

/** Forget servers discovered through `fetch` (a provider's customFetch), or through the global fetch (tests). */
export function clearDiscoveryCache(fetch?: object): void {
  discoveredByFetch.delete(fetch ?? globalFetchKey)
}
