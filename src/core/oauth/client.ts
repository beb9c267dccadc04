import * as o from "oauth4webapi"
import { resolveEndpoint } from "./endpoints.js"
import { missingClientId } from "../env.js"
import type { OAuthProviderConfig, TokenEndpointConfig } from "../../providers/oauth.js"

/**
 * The oauth4webapi client of a provider: its id and metadata (`client` options).
 *
 * @example
 * ```ts
 * const client = clientOf(provider) // { client_id: "…", token_endpoint_auth_method: "client_secret_basic" }
 * ```
 */
export function clientOf(provider: OAuthProviderConfig): o.Client {
  // Auth() refuses such a configuration before any flow starts (checkConfig); this guards direct use.
  if (!provider.clientId) throw missingClientId(provider.id)
  return { ...provider.client, client_id: provider.clientId } as o.Client
}

/**
 * How the client authenticates at the token endpoint, by `client.token_endpoint_auth_method`
 * (default `client_secret_basic`).
 *
 * @example
 * ```ts
 * const auth = clientAuthentication(provider) // o.ClientSecretBasic(secret)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1
 * @see https://openid.net/specs/openid-connect-core-1_0.html#ClientAuthentication
 */
export function clientAuthentication(provider: OAuthProviderConfig): o.ClientAuth {
  const method = provider.client?.token_endpoint_auth_method ?? "client_secret_basic"
  const secret = provider.clientSecret ?? ""
  switch (method) {
    case "client_secret_basic":
      return o.ClientSecretBasic(secret)
    case "client_secret_post":
      return o.ClientSecretPost(secret)
    case "client_secret_jwt":
      return o.ClientSecretJwt(secret)
    case "private_key_jwt": {
      const token = typeof provider.token === "object" ? (provider.token as TokenEndpointConfig) : undefined
      const key = token?.clientPrivateKey
      if (!key) throw new TypeError(`Provider "${provider.id}": private_key_jwt needs token.clientPrivateKey`)
      return o.PrivateKeyJwt(key as Parameters<typeof o.PrivateKeyJwt>[0])
    }
    case "none":
      return o.None()
    default:
      throw new TypeError(`Provider "${provider.id}": unsupported token_endpoint_auth_method "${String(method)}"`)
  }
}

/** The values a waiting flow keeps for its callback: everything the second request must check. */
export interface AuthorizationChecks {
  codeVerifier: string
  state: string
  nonce?: string
  redirectUri: string
}

/**
 * Builds the authorization request: PKCE (S256), `state` and, for OIDC, `nonce`, always; then the
 * provider's params and the request's own query (`authorizationParams`), later keys winning.
 *
 * @example
 * ```ts
 * const { url, checks } = await authorizationRequest(provider, server, redirectUri, { prompt: "login" })
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7636
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-2.1
 */
export async function authorizationRequest(
  provider: OAuthProviderConfig,
  server: o.AuthorizationServer,
  redirectUri: string,
  extraParams: Record<string, string>,
  state: string = o.generateRandomState(),
): Promise<{ url: URL; checks: AuthorizationChecks }> {
  if (!server.authorization_endpoint) throw new TypeError(`Provider "${provider.id}" has no authorization endpoint`)
  const url = new URL(server.authorization_endpoint)
  const codeVerifier = o.generateRandomCodeVerifier()
  const checks: AuthorizationChecks = { codeVerifier, state, redirectUri }
  const params = url.searchParams
  params.set("response_type", "code")
  params.set("client_id", provider.clientId ?? "")
  params.set("redirect_uri", redirectUri)
  for (const [key, value] of Object.entries(resolveEndpoint(provider.authorization).params)) params.set(key, value)
  for (const [key, value] of Object.entries(extraParams)) params.set(key, value)
  if (!params.has("scope")) params.set("scope", "openid profile email")
  params.set("state", state)
  params.set("code_challenge", await o.calculatePKCECodeChallenge(codeVerifier))
  params.set("code_challenge_method", "S256")
  if (provider.type === "oidc" || provider.checks?.includes("nonce")) {
    checks.nonce = o.generateRandomNonce()
    params.set("nonce", checks.nonce)
  }
  return { url, checks }
}

/**
 * True when the provider's authorization response arrives as a POSTed form (Apple).
 *
 * @example
 * ```ts
 * usesFormPost(apple) // true
 * ```
 * @see https://openid.net/specs/oauth-v2-form-post-response-mode-1_0.html
 */
export function usesFormPost(provider: OAuthProviderConfig): boolean {
  return resolveEndpoint(provider.authorization).params.response_mode === "form_post"
}
