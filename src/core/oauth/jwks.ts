/**
 * One cache of each OpenID Provider's key set (its `jwks_uri`), shared by every path that verifies
 * what the provider signs: the ID token of a sign-in and the logout token of a back-channel logout.
 * A key set is kept for {@link jwksMaxAge}; a token whose key is not in it may have the key set
 * fetched again only when the cached one is at least {@link jwksRefetchCooldown} old, and
 * concurrent fetches of one key set are one fetch. So a stream of tokens with made-up `kid`s costs
 * the provider at most one request per cooldown.
 *
 * @module
 */
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose"
import { customFetch } from "../symbols.js"
import { providerFetch } from "./endpoints.js"
import type { OAuthProviderConfig } from "../../providers/oauth.js"

/** How long a fetched key set is used before it is fetched again (milliseconds). */
export const jwksMaxAge = 5 * 60_000

/** How old a key set must be before a token with an unknown key may have it fetched again (milliseconds). */
export const jwksRefetchCooldown = 30_000

/** Asymmetric algorithms a provider's ID and logout tokens may be signed with (never `none`, never a MAC). */
export const providerSignatureAlgorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"]

/** A provider's key set, as jose's `jwtVerify`/`compactVerify` take it, and when it was fetched. */
export interface ProviderKeys {
  readonly keys: JWTVerifyGetKey
  /** `Date.now()` when the key set was fetched. */
  readonly fetchedAt: number
}

interface Entry {
  current?: ProviderKeys
  pending?: Promise<ProviderKeys>
}

/** Per fetch function (a provider's `customFetch`, or the global `fetch`), the key sets by URL. */
const caches = new WeakMap<object, Map<string, Entry>>()
const maxKeySets = 100

function entryOf(provider: OAuthProviderConfig, jwksUri: string): Entry {
  const fetcher = (provider[customFetch] as object | undefined) ?? fetch
  let cache = caches.get(fetcher)
  if (!cache) caches.set(fetcher, (cache = new Map()))
  let entry = cache.get(jwksUri)
  if (!entry) {
    if (cache.size >= maxKeySets) cache.clear()
    cache.set(jwksUri, (entry = {}))
  }
  return entry
}

function fetchInto(entry: Entry, provider: OAuthProviderConfig, jwksUri: string): Promise<ProviderKeys> {
  entry.pending ??= (async () => {
    try {
      const response = await providerFetch(provider)(jwksUri, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(10_000) })
      if (!response.ok) throw new Error(`JWKS request answered ${response.status}`)
      const keys = { keys: createLocalJWKSet((await response.json()) as JSONWebKeySet), fetchedAt: Date.now() }
      entry.current = keys
      return keys
    } finally {
      entry.pending = undefined
    }
  })()
  return entry.pending
}

/**
 * The provider's key set: the cached one while it is younger than {@link jwksMaxAge}, else fetched
 * (one fetch for concurrent callers). Rejects when the key set cannot be fetched or read.
 *
 * @example
 * ```ts
 * const { keys } = await providerKeys(provider, server.jwks_uri)
 * await jwtVerify(token, keys, { issuer: server.issuer, audience: provider.clientId })
 * ```
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RotateSigKeys
 */
export function providerKeys(provider: OAuthProviderConfig, jwksUri: string): Promise<ProviderKeys> {
  const entry = entryOf(provider, jwksUri)
  if (entry.current && Date.now() - entry.current.fetchedAt < jwksMaxAge) return Promise.resolve(entry.current)
  return entry.pending ?? fetchInto(entry, provider, jwksUri)
}

/**
 * The provider's key set fetched after `seen` was: the cached one when another request already
 * fetched it again since, the fetch in flight when there is one, else a new fetch. Call it only
 * when {@link mayRefetchKeys} says so.
 *
 * @example
 * ```ts
 * const fresh = await refetchedProviderKeys(provider, jwksUri, stale.fetchedAt)
 * ```
 */
export function refetchedProviderKeys(provider: OAuthProviderConfig, jwksUri: string, seen: number): Promise<ProviderKeys> {
  const entry = entryOf(provider, jwksUri)
  if (entry.current && entry.current.fetchedAt > seen) return Promise.resolve(entry.current)
  return entry.pending ?? fetchInto(entry, provider, jwksUri)
}

/**
 * Whether a token whose key is missing from a key set `keysAge` milliseconds old may have the key
 * set fetched again: only once it is at least {@link jwksRefetchCooldown} old (a provider that
 * rotated its keys published the new one before signing with it).
 *
 * @example
 * ```ts
 * mayRefetchKeys(Date.now() - keys.fetchedAt) // false within 30 s of the last fetch
 * ```
 */
export function mayRefetchKeys(keysAge: number | undefined): boolean {
  return keysAge !== undefined && keysAge >= jwksRefetchCooldown
}
