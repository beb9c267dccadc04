/**
 * The provider access token of the signed-in user, refreshed when due: for calling the provider's
 * API from the server.
 *
 * @module
 */
import { RefreshTokenError } from "../core/errors.js"
import { decodeSessionCookie, sessionStoreOf, writeJwtSession } from "../core/session-cookie.js"
import { refreshAccountTokens, refreshEnabled, refreshJwtTokens, refreshPolicy, takeTokensClaim, tokensClaim, type RefreshOutcome } from "./token-refresh.js"
import type { AuthConfig, Cookie, LoggerInstance } from "../types.js"
import type { AuthOptions } from "../core/options.js"

/**
 * A provider access token, valid for at least the configured skew.
 *
 * @example
 * ```ts
 * const token: AccessToken | null = await getAccessToken(request, config, "github")
 * token?.accessToken // "gho_…"
 * ```
 */
export interface AccessToken {
  provider: string
  accessToken: string
  /** Epoch seconds at which it expires. */
  expiresAt?: number
  tokenType?: string
  scope?: string
  /**
   * `Set-Cookie` header values to send with your response when the token was refreshed with JWT
   * sessions (the session cookie carries the new tokens). Empty otherwise.
   */
  setCookie: string[]
}

/**
 * What `accessTokenOf` finds: the token, with the session cookies to set as values; the router
 * serializes them into {@link AccessToken.setCookie}.
 *
 * @example
 * ```ts
 * const { cookies, ...token } = found
 * return { ...token, setCookie: cookies.map((cookie) => serializeCookie(cookie.name, cookie.value, cookie.options)) }
 * ```
 */
export interface FoundAccessToken extends Omit<AccessToken, "setCookie"> {
  cookies: Cookie[]
}

/**
 * The work of the public `getAccessToken` (src/auth.ts, which documents it and resolves the options
 * as for a `/session` request), loaded on its first call: the session in the request's cookies, its
 * tokens for `providerId`, refreshed when due. A refusal is answered as the error the public function
 * throws: `RefreshTokenError` when the refresh failed, a `TypeError` for a provider without refresh.
 *
 * @example
 * ```ts
 * const token = await accessTokenOf(options, config, logger, "github") // FoundAccessToken | null | Error
 * ```
 */
export async function accessTokenOf(options: AuthOptions, config: AuthConfig, logger: LoggerInstance, providerId: string): Promise<FoundAccessToken | null | Error> {
  const found = options.providers.find((candidate) => candidate.id === providerId)
  if (!found || (found.type !== "oauth" && found.type !== "oidc") || !refreshEnabled(config, found)) {
    return new TypeError(`getAccessToken: "${providerId}" is not an OAuth/OIDC provider with token refresh on; set \`refresh: true\` on the provider or in the configuration`)
  }
  const provider = found
  const policy = refreshPolicy(config)
  const store = sessionStoreOf(options)
  if (!store.value) return null

  let outcome: RefreshOutcome | undefined
  // The session token, written again with the refreshed tokens (a JWT session's only).
  let cookies: Cookie[] = []
  if (options.session.strategy === "jwt") {
    const payload = await decodeSessionCookie(options, store)
    if (!payload) return null
    const claim = takeTokensClaim(payload)
    const entry = claim?.[providerId]
    if (!entry) return null
    outcome = await refreshJwtTokens({ config, logger, provider, policy, ...(payload.sub !== undefined && { userId: payload.sub }) }, entry)
    if (outcome && "tokens" in outcome && outcome.refreshed) {
      const { id_token: _idToken, ...kept } = outcome.tokens
      cookies = await writeJwtSession(options, store, { ...payload, [tokensClaim]: { ...claim, [providerId]: kept } })
    }
  } else {
    const adapter = options.adapter
    if (!adapter?.getSessionAndUser) throw new TypeError("getAccessToken with database sessions needs an adapter with getSessionAndUser")
    const found = await adapter.getSessionAndUser(store.value)
    if (!found || found.session.expires.valueOf() < Date.now()) return null
    const accounts = (await adapter.listAccountsByUserId?.(found.user.id)) ?? []
    const account = accounts.find((candidate) => candidate.provider === providerId)
    if (!account) return null
    outcome = await refreshAccountTokens({ config, logger, provider, policy, userId: found.user.id, providerAccountId: account.providerAccountId }, adapter, account)
  }
  if (!outcome) return null
  if ("failure" in outcome) {
    return new RefreshTokenError(`The access token of provider "${providerId}" could not be refreshed (${outcome.failure})`, { cause: { provider: providerId, reason: outcome.failure } })
  }
  const { tokens } = outcome
  if (!tokens.access_token) return null
  return {
    provider: providerId,
    accessToken: tokens.access_token,
    ...(tokens.expires_at !== undefined && { expiresAt: tokens.expires_at }),
    ...(tokens.token_type !== undefined && { tokenType: tokens.token_type }),
    ...(tokens.scope !== undefined && { scope: tokens.scope }),
    cookies,
  }
}
