import * as o from "oauth4webapi"
import { httpOptions, resolveEndpoint } from "./endpoints.js"
import type { OAuthProviderConfig } from "../../providers/oauth.js"

const cacheLifetime = 10 * 60 * 1000
const discovered = new Map<string, { server: o.AuthorizationServer; at: number }>()

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
  const needsDiscovery = provider.issuer && (!authorization || !token || (provider.type === "oidc" && !userinfo))
  let server: o.AuthorizationServer = { issuer: provider.issuer ?? "https://authflow.invalid" }
  if (needsDiscovery) {
    const issuer = new URL(provider.issuer!)
    const key = `${provider.id}\u0000${issuer.href}`
    const cached = discovered.get(key)
    if (cached && Date.now() - cached.at < cacheLifetime) {
      server = cached.server
    } else {
      const response = await o.discoveryRequest(issuer, { ...httpOptions(provider, issuer), algorithm: "oidc" })
      server = await o.processDiscoveryResponse(issuer, response)
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

/** Forget discovered servers (tests). */
export function clearDiscoveryCache(): void {
  discovered.clear()
}
