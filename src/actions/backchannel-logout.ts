/**
 * POST `{basePath}/backchannel-logout/<provider>`: the OpenID Connect Back-Channel Logout receiver.
 * The provider posts a logout token (a signed JWT) when a user's session there ends; a valid one
 * ends the user's sessions here that were signed in before it.
 *
 * @module
 */
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose"
import { customFetch } from "../core/symbols.js"
import { authorizationServer } from "../core/oauth/discovery.js"
import { replayStoreOf } from "../core/replay-store.js"
import { revocationStoreOf } from "../core/revocation-store.js"
import type { AuthOptions } from "../core/options.js"
import type { OAuthProviderConfig } from "../providers/oauth.js"
import type { Cookie, ResponseInternal } from "../types.js"

/** The event member a logout token's `events` claim must hold. */
export const backchannelLogoutEvent = "http://schemas.openid.net/event/backchannel-logout"

/** Asymmetric algorithms a logout token may be signed with (never `none`, never a MAC). */
const signatureAlgorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"]

/** How old a logout token may be, by its `iat`. */
const maxTokenAge = 10 * 60

/** Why a logout token was refused: each a distinct, stable reason logged and answered as `error_description`. */
export type LogoutTokenRefusal =
  | "missing"
  | "signature"
  | "issuer"
  | "audience"
  | "expired"
  | "issued-at"
  | "events"
  | "nonce"
  | "subject"
  | "jti"
  | "replayed"
  | "provider"

/** A refused logout token. */
export class LogoutTokenRefused extends Error {
  readonly type = "LogoutTokenRefused"
  constructor(readonly reason: LogoutTokenRefusal, detail?: string) {
    super(`Back-channel logout token refused: ${reason}${detail ? ` (${detail})` : ""}`)
  }
}

const jwksCache = new Map<string, { keys: ReturnType<typeof createLocalJWKSet>; at: number }>()

async function keySetOf(provider: OAuthProviderConfig, jwksUri: string, refresh: boolean) {
  const cached = jwksCache.get(jwksUri)
  if (cached && !refresh && Date.now() - cached.at < 5 * 60_000) return cached.keys
  const fetchJwks = (provider[customFetch] as typeof fetch | undefined) ?? fetch
  const response = await fetchJwks(jwksUri, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(10_000) })
  if (!response.ok) throw new Error(`JWKS request answered ${response.status}`)
  const keys = createLocalJWKSet((await response.json()) as JSONWebKeySet)
  if (jwksCache.size > 100) jwksCache.clear()
  jwksCache.set(jwksUri, { keys, at: Date.now() })
  return keys
}

/**
 * The validated claims of a logout token from `provider`: signature by the issuer's JWKS, `iss`,
 * `aud`, `iat` (at most 10 minutes old), `exp` when present, the back-channel `events` member, `sub`
 * or `sid`, no `nonce`, a `jti` seen for the first time. Throws {@link LogoutTokenRefused}.
 *
 * @example
 * ```ts
 * const { sub, sid } = await validateLogoutToken(options, provider, form.get("logout_token"))
 * ```
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#Validation
 */
export async function validateLogoutToken(options: AuthOptions, provider: OAuthProviderConfig, logoutToken: unknown): Promise<JWTPayload> {
  if (typeof logoutToken !== "string" || !logoutToken) throw new LogoutTokenRefused("missing")
  const server = await authorizationServer(provider)
  if (!server.jwks_uri) throw new LogoutTokenRefused("provider", "the issuer publishes no jwks_uri")
  const verify = async (refresh: boolean) =>
    jwtVerify(logoutToken, await keySetOf(provider, server.jwks_uri!, refresh), {
      issuer: server.issuer,
      audience: provider.clientId ?? "",
      algorithms: signatureAlgorithms,
      maxTokenAge,
      requiredClaims: ["iat"],
      clockTolerance: 60,
    })
  let payload: JWTPayload
  try {
    payload = (await verify(false).catch((error) => (error instanceof joseErrors.JWKSNoMatchingKey ? verify(true) : Promise.reject(error)))).payload
  } catch (error) {
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      const claim = error.claim
      if (claim === "iss") throw new LogoutTokenRefused("issuer")
      if (claim === "aud") throw new LogoutTokenRefused("audience")
      throw new LogoutTokenRefused("issued-at", error.message)
    }
    if (error instanceof joseErrors.JWTExpired) throw new LogoutTokenRefused(error.claim === "iat" ? "issued-at" : "expired")
    throw new LogoutTokenRefused("signature", error instanceof Error ? error.message : String(error))
  }
  const events = payload.events as Record<string, unknown> | undefined
  const event = events && typeof events === "object" ? events[backchannelLogoutEvent] : undefined
  if (!event || typeof event !== "object" || Array.isArray(event)) throw new LogoutTokenRefused("events")
  if ("nonce" in payload) throw new LogoutTokenRefused("nonce")
  if (typeof payload.sub !== "string" && typeof payload.sid !== "string") throw new LogoutTokenRefused("subject")
  if (typeof payload.jti !== "string" || !payload.jti) throw new LogoutTokenRefused("jti")
  const fresh = await replayStoreOf(options.config).markUsed(`backchannel-logout:${provider.id}:${payload.jti}`, Date.now() + 2 * maxTokenAge * 1000)
  if (!fresh) throw new LogoutTokenRefused("replayed")
  return payload
}

/**
 * Receives a back-channel logout: validates the logout token, then ends the sessions it names,
 * through the revocation store: those signed in with that subject at the provider (`sub`), with
 * that provider session (`sid`), and, with an adapter, every session of the linked user (whose
 * database rows are deleted at once when the adapter has `deleteUserSessions`). JWT sessions end on
 * their next read. Answers 200, or 400 with
 * `{ error: "invalid_request", error_description }`, never cached.
 *
 * @example
 * ```ts
 * // POST /auth/backchannel-logout/keycloak  logout_token=eyJ…  → 200
 * ```
 */
export async function backchannelLogout(options: AuthOptions, cookies: Cookie[]): Promise<ResponseInternal> {
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" }
  const provider = options.provider
  try {
    if (provider?.type !== "oidc" || !provider.backchannelLogout) throw new LogoutTokenRefused("provider", "the provider does not accept back-channel logouts")
    const payload = await validateLogoutToken(options, provider, options.request.body?.logout_token)
    const now = Date.now()
    const keepUntil = now + (options.session.absoluteMaxAge ?? options.session.maxAge) * 1000
    const store = revocationStoreOf(options.config)
    if (typeof payload.sid === "string") await store.revoke(`sid:${provider.id}:${payload.sid}`, now, keepUntil)
    if (typeof payload.sub === "string") {
      await store.revoke(`sub:${provider.id}:${payload.sub}`, now, keepUntil)
      // With an adapter, the linked user's sessions end too (database sessions do not record the subject).
      const adapter = options.adapter
      const user = adapter?.getUserByAccount ? await adapter.getUserByAccount({ provider: provider.id, providerAccountId: payload.sub }) : null
      if (user?.id) {
        await store.revoke(`user:${user.id}`, now, keepUntil)
        if (options.session.strategy === "database") await adapter?.deleteUserSessions?.(user.id)
      }
    }
    return { status: 200, headers, body: {}, cookies }
  } catch (error) {
    const refused = error instanceof LogoutTokenRefused ? error : new LogoutTokenRefused("provider", error instanceof Error ? error.message : String(error))
    options.logger.error(refused)
    return { status: 400, headers, body: { error: "invalid_request", error_description: refused.reason }, cookies }
  }
}
