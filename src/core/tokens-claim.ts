/**
 * The provider tokens a session keeps in its JWT, by provider id: the claim's name, and taking it
 * out of a decoded token. Apart from the refresh itself, so a session read and a sign-in handle the
 * claim without loading the refresh machinery (and its OAuth client).
 *
 * @module
 */
import type { ProviderTokens } from "./refresh-store.js"
import type { JWT } from "../types.js"

/**
 * The claim of the session JWT that holds the provider tokens, by provider id. Namespaced, so an
 * Auth.js app reading the same cookie ignores it; authflow takes it out before the `jwt` and
 * `session` callbacks and puts it back after, so callbacks see the token Auth.js would give them.
 */
export const tokensClaim = "authflow:tokens"

/** The provider tokens of a session JWT, by provider id. */
export type TokensClaim = Record<string, ProviderTokens>

/**
 * The provider tokens worth keeping from a sign-in's account: only when the provider gave a refresh
 * token and an expiry (nothing could be refreshed otherwise).
 *
 * @example
 * ```ts
 * keptTokens({ access_token: "a", refresh_token: "r", expires_at: 1700000000, provider: "corp", … }) // { access_token, refresh_token, expires_at }
 * ```
 */
export function keptTokens(account: Partial<ProviderTokens> & Record<string, unknown>): ProviderTokens | undefined {
  if (typeof account.refresh_token !== "string" || typeof account.expires_at !== "number") return undefined
  const kept: ProviderTokens = { refresh_token: account.refresh_token, expires_at: account.expires_at }
  if (typeof account.access_token === "string") kept.access_token = account.access_token
  if (typeof account.token_type === "string") kept.token_type = account.token_type
  if (typeof account.scope === "string") kept.scope = account.scope
  return kept
}

/**
 * Takes the provider tokens out of a decoded session JWT (so callbacks see the token without
 * them) and returns them.
 *
 * @example
 * ```ts
 * const claim = takeTokensClaim(payload) // payload no longer has "authflow:tokens"
 * ```
 */
export function takeTokensClaim(payload: JWT): TokensClaim | undefined {
  if (!(tokensClaim in payload)) return undefined
  const claim = payload[tokensClaim]
  delete payload[tokensClaim]
  return claim && typeof claim === "object" && !Array.isArray(claim) ? (claim as TokensClaim) : undefined
}
