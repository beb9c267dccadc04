import * as o from "oauth4webapi"
import { compactVerify, decodeJwt, decodeProtectedHeader } from "jose"
import { OAuthCallbackError, OAuthProfileParseError } from "../errors.js"
import { randomUUID } from "../crypto.js"
import { httpOptions, providerFetch, resolveEndpoint } from "./endpoints.js"
import { clientAuthentication, clientOf, type AuthorizationChecks } from "./client.js"
import { resolveTenantIssuer } from "./discovery.js"
import { mayRefetchKeys, providerKeys, providerSignatureAlgorithms, refetchedProviderKeys } from "./jwks.js"
import { standardClaimsProfile, type OAuthProviderConfig, type TokenEndpointConfig, type TokenSet, type UserinfoEndpointConfig } from "../../providers/oauth.js"
import type { Account, Profile, User } from "../../types.js"
import { asError } from "../as-error.js"

/**
 * The provider's redirect back, checked by oauth4webapi against the flow's `state` and the issuer
 * (RFC 9207): the parameters to exchange, or the error it threw. The OAuth machine decides on the
 * raw parameters itself; this is the second, complete check before the code is sent anywhere.
 *
 * @example
 * ```ts
 * const params = validatedResponse(provider, server, new URLSearchParams(query), checks.state)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc9207
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export function validatedResponse(provider: OAuthProviderConfig, server: o.AuthorizationServer, params: URLSearchParams, expectedState: string): URLSearchParams {
  const received = new URLSearchParams(params)
  // Without a configured or discovered issuer there is nothing to compare `iss` with.
  if (!provider.issuer) received.delete("iss")
  return o.validateAuthResponse(server, clientOf(provider), received, expectedState)
}

/**
 * The issuer the provider's response must name, and whether it must name one: only when the
 * provider has an issuer, and required when its metadata announces RFC 9207 support.
 *
 * @example
 * ```ts
 * const { expectedIssuer, issuerRequired } = issuerExpectation(provider, server)
 * ```
 */
export function issuerExpectation(provider: OAuthProviderConfig, server: o.AuthorizationServer): { expectedIssuer?: string; issuerRequired: boolean } {
  if (!provider.issuer) return { issuerRequired: false }
  return { expectedIssuer: server.issuer, issuerRequired: server.authorization_response_iss_parameter_supported === true }
}

/**
 * The error a provider's `error` response stands for, with its `error` and `error_description`.
 *
 * @example
 * ```ts
 * providerRefusal("github", authorizationResponseError) // OAuthCallbackError("OAuth Provider returned an error")
 * ```
 */
export function providerRefusal(providerId: string, error: o.AuthorizationResponseError): OAuthCallbackError {
  return new OAuthCallbackError("OAuth Provider returned an error", {
    cause: { err: error, providerId, error: error.error, error_description: error.error_description },
  })
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
 * Sends the code to the token endpoint (with the provider's client authentication and the PKCE
 * verifier) and returns its answer, after the provider's `token.conform` if it has one.
 *
 * @example
 * ```ts
 * const response = await requestTokens(provider, server, params, checks)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3
 */
export async function requestTokens(provider: OAuthProviderConfig, server: o.AuthorizationServer, params: URLSearchParams, checks: AuthorizationChecks): Promise<Response> {
  if (!server.token_endpoint) throw new TypeError(`Provider "${provider.id}" has no token endpoint`)
  const response = await o.authorizationCodeGrantRequest(
    server,
    clientOf(provider),
    clientAuthentication(provider),
    params,
    checks.redirectUri,
    checks.codeVerifier,
    httpOptions(provider, new URL(server.token_endpoint)),
  )
  const conform = typeof provider.token === "object" ? (provider.token as TokenEndpointConfig).conform : undefined
  return (conform && (await conform(response))) || response
}

/**
 * The refusal a token endpoint's error answer carries (`invalid_grant`…), as oauth4webapi reads it.
 *
 * @example
 * ```ts
 * if (!response.ok) throw await tokenRefusal(provider, server, response)
 * ```
 */
export async function tokenRefusal(provider: OAuthProviderConfig, server: o.AuthorizationServer, response: Response): Promise<unknown> {
  try {
    await o.processAuthorizationCodeResponse(server, clientOf(provider), response)
    return new TypeError(`Provider "${provider.id}": the token endpoint answered ${response.status}`)
  } catch (error) {
    return error
  }
}

/** The token response processed: the tokens, and the response and issuer its ID token is verified against. */
export interface ProcessedTokens {
  processed: o.TokenEndpointResponse
  response: Response
  server: o.AuthorizationServer
  unvalidatedIdToken?: string
}

/**
 * Processes the token endpoint's answer: its shape, and the ID token's `iss`, `aud`, `exp`, `iat`
 * and `nonce` (oauth4webapi throws with `cause.claim` naming the claim that failed). An OAuth 2
 * provider without an issuer keeps an ID token it may send, unvalidated. The signature is checked
 * next, by {@link verifyIdTokenSignature}.
 *
 * @example
 * ```ts
 * const processed = await processTokens(provider, server, response, checks)
 * ```
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export async function processTokens(provider: OAuthProviderConfig, server: o.AuthorizationServer, response: Response, checks: AuthorizationChecks): Promise<ProcessedTokens> {
  let unvalidatedIdToken: string | undefined
  if (provider.type === "oauth" && !provider.issuer) ({ response, idToken: unvalidatedIdToken } = await withoutIdToken(response))
  // Multi-tenant issuers (Entra /common): the token's own tenant decides the issuer it must name.
  if (server.issuer.includes("{tenantid}")) {
    const body = (await response.clone().json().catch(() => undefined)) as { id_token?: unknown } | undefined
    const claims = typeof body?.id_token === "string" ? safeDecodeJwt(body.id_token) : undefined
    server = resolveTenantIssuer(server, claims?.tid)
  }
  const processed = await o.processAuthorizationCodeResponse(server, clientOf(provider), response, {
    expectedNonce: checks.nonce ?? o.expectNoNonce,
    requireIdToken: provider.type === "oidc",
  })
  return unvalidatedIdToken ? { processed, response, server, unvalidatedIdToken } : { processed, response, server }
}

/**
 * Checks a token's signature against the provider's key set, from the cache the back-channel
 * logout receiver shares; when no key matches, once more against the key set fetched again, if the
 * cached one is old enough ({@link mayRefetchKeys}): the same rule the receiver's machine applies.
 */
async function verifyWithProviderKeys(provider: OAuthProviderConfig, jwksUri: string, token: string): Promise<void> {
  const cached = await providerKeys(provider, jwksUri)
  try {
    try {
      await compactVerify(token, cached.keys, { algorithms: providerSignatureAlgorithms })
    } catch (error) {
      if (codeOf(error) !== "ERR_JWKS_NO_MATCHING_KEY" || !mayRefetchKeys(Date.now() - cached.fetchedAt)) throw error
      const fresh = await refetchedProviderKeys(provider, jwksUri, cached.fetchedAt)
      await compactVerify(token, fresh.keys, { algorithms: providerSignatureAlgorithms })
    }
  } catch (error) {
    throw signatureFailure(error)
  }
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code

/** jose's refusal, as the oauth4webapi error the ID token's other checks throw (and Auth.js logs): same `code`, same words. */
function signatureFailure(error: unknown): unknown {
  switch (codeOf(error)) {
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return new o.OperationProcessingError("JWT signature verification failed", { code: o.INVALID_RESPONSE, cause: error })
    case "ERR_JWKS_NO_MATCHING_KEY":
      return new o.OperationProcessingError("error when selecting a JWT verification key, no applicable keys found", { code: o.KEY_SELECTION, cause: error })
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return new o.OperationProcessingError('error when selecting a JWT verification key, multiple applicable keys found, a "kid" JWT Header Parameter is required', { code: o.KEY_SELECTION, cause: error })
    default:
      return error
  }
}

/**
 * Verifies the ID token's signature (against the issuer's JWKS; HS256 tokens against the client
 * secret) and returns the tokens with the validated claims, `expires_at` added from `expires_in`.
 *
 * @example
 * ```ts
 * const { tokens, claims } = await verifyIdTokenSignature(provider, await processTokens(provider, server, response, checks))
 * ```
 */
export async function verifyIdTokenSignature(provider: OAuthProviderConfig, { processed, server, unvalidatedIdToken }: ProcessedTokens): Promise<ExchangeResult> {
  let claims: o.IDToken | undefined
  if (processed.id_token) {
    const { alg } = decodeProtectedHeader(processed.id_token)
    if (typeof alg === "string" && alg.startsWith("HS")) {
      // Symmetric ID tokens (LINE) are MACed with the client secret, which oauth4webapi does not verify.
      await compactVerify(processed.id_token, new TextEncoder().encode(provider.clientSecret ?? ""), { algorithms: [alg] })
    } else {
      if (!server.jwks_uri) throw new TypeError(`Provider "${provider.id}": the issuer publishes no jwks_uri to verify the ID token with`)
      await verifyWithProviderKeys(provider, server.jwks_uri, processed.id_token)
    }
    claims = o.getValidatedIdTokenClaims(processed)
  }
  const tokens: TokenSet = { ...processed }
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
    throw new OAuthProfileParseError(asError(error), { cause: { provider: provider.id } })
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
