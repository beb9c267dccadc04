import * as o from "oauth4webapi"
import { compactVerify, decodeJwt, decodeProtectedHeader } from "jose"
import { OAuthCallbackError, OAuthProfileParseError } from "../errors.js"
import { randomUUID } from "../crypto.js"
import { httpOptions, providerFetch, resolveEndpoint } from "./endpoints.js"
import { clientAuthentication, clientOf, type AuthorizationChecks } from "./client.js"
import { resolveTenantIssuer } from "./discovery.js"
import { standardClaimsProfile, type OAuthProviderConfig, type TokenEndpointConfig, type TokenSet, type UserinfoEndpointConfig } from "../../providers/oauth.js"
import type { Account, Profile, User } from "../../types.js"

/** The outcome of checking the provider's redirect back to the callback. */
export type CallbackCheck =
  | { type: "valid"; params: URLSearchParams }
  | { type: "providerError"; error: OAuthCallbackError }
  | { type: "invalid"; error: Error }

/**
 * Checks the authorization response: `state` must be the flow's, `iss` must be the issuer when it
 * is known (RFC 9207, the mix-up defence), and an `error` parameter is the provider refusing.
 *
 * @example
 * ```ts
 * const check = checkAuthorizationResponse(provider, server, new URLSearchParams(query), checks.state)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc9207
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export function checkAuthorizationResponse(
  provider: OAuthProviderConfig,
  server: o.AuthorizationServer,
  params: URLSearchParams,
  expectedState: string,
): CallbackCheck {
  const received = new URLSearchParams(params)
  // Without a configured or discovered issuer there is nothing to compare `iss` with.
  if (!provider.issuer) received.delete("iss")
  try {
    return { type: "valid", params: o.validateAuthResponse(server, clientOf(provider), received, expectedState) }
  } catch (error) {
    if (error instanceof o.AuthorizationResponseError) {
      return {
        type: "providerError",
        error: new OAuthCallbackError("OAuth Provider returned an error", {
          cause: { err: error, providerId: provider.id, error: error.error, error_description: error.error_description },
        }),
      }
    }
    return { type: "invalid", error: error instanceof Error ? error : new Error(String(error)) }
  }
}

async function withoutIdToken(response: Response): Promise<{ response: Response; idToken?: string }> {
  const body = (await response.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined
  if (!body || typeof body.id_token !== "string") return { response }
  const { id_token: idToken, ...rest } = body
  return { response: new Response(JSON.stringify(rest), { status: response.status, headers: response.headers }), idToken }
}

/** Tokens from the code exchange, with the validated ID token claims when there was one. */
export interface ExchangeResult {
  tokens: TokenSet
  claims?: o.IDToken
}

/**
 * Exchanges the code for tokens and validates them: the ID token's signature against the issuer's
 * JWKS, and its `iss`, `aud`, `exp`, `iat` and `nonce`. Adds `expires_at` from `expires_in`.
 *
 * @example
 * ```ts
 * const { tokens, claims } = await exchangeCode(provider, server, params, checks)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export async function exchangeCode(
  provider: OAuthProviderConfig,
  server: o.AuthorizationServer,
  params: URLSearchParams,
  checks: AuthorizationChecks,
): Promise<ExchangeResult> {
  if (!server.token_endpoint) throw new TypeError(`Provider "${provider.id}" has no token endpoint`)
  const client = clientOf(provider)
  let response = await o.authorizationCodeGrantRequest(
    server,
    client,
    clientAuthentication(provider),
    params,
    checks.redirectUri,
    checks.codeVerifier,
    httpOptions(provider, new URL(server.token_endpoint)),
  )
  const conform = typeof provider.token === "object" ? (provider.token as TokenEndpointConfig).conform : undefined
  if (conform) response = (await conform(response)) ?? response

  // An OAuth 2 provider with no issuer may still send an ID token; it cannot be validated, so it is
  // kept as it came instead of failing the sign-in.
  let unvalidatedIdToken: string | undefined
  if (provider.type === "oauth" && !provider.issuer) ({ response, idToken: unvalidatedIdToken } = await withoutIdToken(response))

  // Multi-tenant issuers (Entra /common): the token's own tenant decides the issuer it must name.
  if (server.issuer.includes("{tenantid}")) {
    const body = (await response.clone().json().catch(() => undefined)) as { id_token?: unknown } | undefined
    const claims = typeof body?.id_token === "string" ? safeDecodeJwt(body.id_token) : undefined
    server = resolveTenantIssuer(server, claims?.tid)
  }
  const processed = await o.processAuthorizationCodeResponse(server, client, response, {
    expectedNonce: checks.nonce ?? o.expectNoNonce,
    requireIdToken: provider.type === "oidc",
  })
  let claims: o.IDToken | undefined
  if (processed.id_token) {
    const { alg } = decodeProtectedHeader(processed.id_token)
    if (typeof alg === "string" && alg.startsWith("HS")) {
      // Symmetric ID tokens (LINE) are MACed with the client secret, which oauth4webapi does not verify.
      await compactVerify(processed.id_token, new TextEncoder().encode(provider.clientSecret ?? ""), { algorithms: [alg] })
    } else {
      if (!server.jwks_uri) throw new TypeError(`Provider "${provider.id}": the issuer publishes no jwks_uri to verify the ID token with`)
      await o.validateApplicationLevelSignature(server, response, httpOptions(provider, new URL(server.jwks_uri)))
    }
    claims = o.getValidatedIdTokenClaims(processed)
  }
  const tokens: TokenSet = { ...(processed as unknown as TokenSet) }
  if (unvalidatedIdToken) tokens.id_token = unvalidatedIdToken
  if (tokens.expires_in) tokens.expires_at = Math.floor(Date.now() / 1000) + Number(tokens.expires_in)
  return claims ? { tokens, claims } : { tokens }
}

/**
 * The user's profile. OIDC: the ID token's claims, completed from userinfo when `idToken: false`
 * or when the ID token carries no email (userinfo's `sub` must then match). OAuth 2: the
 * provider's `userinfo.request`, or a GET of its userinfo endpoint with the access token.
 *
 * @example
 * ```ts
 * const profile = await fetchProfile(provider, server, exchange, callbackParams)
 * ```
 * @see https://openid.net/specs/openid-connect-core-1_0.html#UserInfoResponse
 */
export async function fetchProfile(
  provider: OAuthProviderConfig,
  server: o.AuthorizationServer,
  { tokens, claims }: ExchangeResult,
  callbackParams: URLSearchParams,
): Promise<Profile> {
  const userinfo = typeof provider.userinfo === "object" ? (provider.userinfo as UserinfoEndpointConfig) : undefined
  let profile: Profile
  if (userinfo?.request) {
    profile = (await userinfo.request({ tokens, provider, fetch: providerFetch(provider) })) as Profile
  } else if (provider.type === "oidc" && claims && provider.idToken !== false && (claims.email || !server.userinfo_endpoint)) {
    profile = { ...claims } as Profile
  } else if (provider.type === "oidc") {
    if (!server.userinfo_endpoint) throw new TypeError(`Provider "${provider.id}" has no userinfo endpoint`)
    const response = await o.userInfoRequest(server, clientOf(provider), tokens.access_token ?? "", httpOptions(provider, new URL(server.userinfo_endpoint)))
    const info = await o.processUserInfoResponse(server, clientOf(provider), claims?.sub ?? o.skipSubjectCheck, response)
    profile = { ...claims, ...info } as Profile
  } else {
    const endpoint = resolveEndpoint(provider.userinfo)
    const url = endpoint.url ?? (server.userinfo_endpoint ? new URL(server.userinfo_endpoint) : undefined)
    if (!url) throw new TypeError(`Provider "${provider.id}" has no userinfo endpoint`)
    for (const [key, value] of Object.entries(endpoint.params)) url.searchParams.set(key, value)
    // OAuth 2 userinfo is plain JSON without an OIDC `sub`, so only the request goes through oauth4webapi.
    const response = await o.userInfoRequest({ ...server, userinfo_endpoint: url.href }, clientOf(provider), tokens.access_token ?? "", httpOptions(provider, url))
    if (!response.ok) throw new TypeError(`Provider "${provider.id}": userinfo answered ${response.status}`)
    profile = (await response.json()) as Profile
  }
  if (!profile || typeof profile !== "object") throw new TypeError(`Provider "${provider.id}": the profile is not an object`)
  const user = callbackParams.get("user")
  if (user) {
    try {
      profile.user = JSON.parse(user)
    } catch {
      // Apple sends `user` once, as JSON; anything else is ignored.
    }
  }
  return profile
}

function safeDecodeJwt(token: string): Record<string, unknown> | undefined {
  try {
    return decodeJwt(token)
  } catch {
    return undefined
  }
}


/**
 * The user and account a profile gives: the provider's `profile()` (or the standard claims), a
 * lowercased email, and an account holding the token set.
 *
 * @example
 * ```ts
 * const { user, account } = await mapProfile(provider, profile, tokens)
 * account.providerAccountId // the provider's id for the user
 * ```
 */
export async function mapProfile(provider: OAuthProviderConfig, profile: Profile, tokens: TokenSet): Promise<{ user: User; account: Account }> {
  let mapped: User & { id?: string }
  try {
    mapped = await (provider.profile ?? standardClaimsProfile)(profile as never, tokens)
  } catch (error) {
    throw new OAuthProfileParseError(error instanceof Error ? error : new Error(String(error)), { cause: { provider: provider.id } })
  }
  if (!mapped || typeof mapped !== "object") throw new OAuthProfileParseError(`Provider "${provider.id}": profile() returned no user`)
  const user: User = { ...mapped, id: randomUUID(), email: typeof mapped.email === "string" ? mapped.email.toLowerCase() : (mapped.email ?? null) }
  const providerAccountId = mapped.id === undefined || mapped.id === null || mapped.id === "" ? randomUUID() : String(mapped.id)
  const account: Account = { ...tokens, provider: provider.id, type: provider.type, providerAccountId } as Account
  return { user, account }
}

/**
 * The token fields stored with a linked account, by the provider's `account()` or the default
 * (tokens, expiry, scope, type, session state).
 *
 * @example
 * ```ts
 * const stored = storedAccountFields(provider, tokens)
 * ```
 */
export function storedAccountFields(provider: OAuthProviderConfig, tokens: TokenSet): Partial<Account> {
  if (provider.account) return provider.account(tokens) ?? {}
  const fields: Record<string, unknown> = {}
  for (const key of ["access_token", "id_token", "refresh_token", "expires_at", "scope", "token_type", "session_state"]) {
    if (tokens[key] !== undefined) fields[key] = tokens[key]
  }
  return fields as Partial<Account>
}
