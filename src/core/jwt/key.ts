/**
 * Session key derivation: HKDF-SHA256 from the secret, with the salt (the cookie name) both as HKDF
 * salt and inside the info string, and the key id as the RFC 7638 thumbprint of the derived key.
 * Results are cached because every request with a session cookie needs them.
 *
 * @module
 */
import { toBase64Url } from "../base64.js"
import { MissingSecret } from "../errors.js"
import { nodeRuntime } from "./runtime.js"

/** The content encryption algorithms a session token may use. */
export type ContentEncryption = "A256CBC-HS512" | "A256GCM"

/** A derived key and its RFC 7638 thumbprint. */
export interface DerivedKey {
  /** 64 bytes for A256CBC-HS512, 32 for A256GCM. */
  readonly key: Uint8Array
  /** base64url JWK thumbprint, SHA-512 for a 64-byte key, SHA-256 for a 32-byte one. */
  readonly kid: string
}

/** Key length in bytes for each content encryption algorithm. */
export const KEY_LENGTH: Readonly<Record<ContentEncryption, number>> = { "A256CBC-HS512": 64, "A256GCM": 32 }

const CACHE_LIMIT = 100
const cache = new Map<string, DerivedKey>()
let last: { secret: string; salt: string; length: number; derived: DerivedKey } | undefined
const utf8 = new TextEncoder()

// The salt's length makes the key unambiguous whatever characters salt and secret contain.
function cacheKey(secret: string, salt: string, length: number): string {
  return `${length}:${salt.length}:${salt}${secret}`
}

function remember(id: string, derived: DerivedKey): DerivedKey {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the cache's bound; evicting earlier or later only costs speed or memory
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(id, derived)
  return derived
}

function info(salt: string): string {
  return `Auth.js Generated Encryption Key (${salt})`
}

function thumbprintInput(key: Uint8Array): string {
  return `{"k":"${toBase64Url(key)}","kty":"oct"}`
}

/**
 * Derives (or takes from the cache) the key for `secret` and `salt`, synchronously, when
 * `node:crypto` is available; otherwise returns undefined and the caller uses {@link deriveKey}.
 *
 * @example
 * ```ts
 * const { key, kid } = deriveKeySync("secret", "authjs.session-token", 64)!
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc5869
 */
export function deriveKeySync(secret: string, salt: string, length: number): DerivedKey | undefined {
  // A server reads and writes its session cookie with one secret and salt: the last key answers
  // without building the cache key.
  if (last !== undefined && last.secret === secret && last.salt === salt && last.length === length) return last.derived
  const id = cacheKey(secret, salt, length)
  const hit = cache.get(id)
  if (hit) {
    last = { secret, salt, length, derived: hit }
    return hit
  }
  const node = nodeRuntime()
  if (!node) return undefined
  const key = new Uint8Array(node.crypto.hkdfSync("sha256", secret, salt, info(salt), length))
  const kid = node.crypto.createHash(`sha${length * 8}`).update(thumbprintInput(key)).digest("base64url")
  const derived = remember(id, { key, kid })
  last = { secret, salt, length, derived }
  return derived
}

/**
 * Derives (or takes from the cache) the key for `secret` and `salt` on any runtime: `node:crypto`
 * when present, WebCrypto otherwise. Both give the same bytes.
 *
 * @example
 * ```ts
 * const { key, kid } = await deriveKey("secret", "authjs.session-token", 64)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc5869
 * @see https://www.rfc-editor.org/rfc/rfc7638#section-3
 */
export async function deriveKey(secret: string, salt: string, length: number): Promise<DerivedKey> {
  const fast = deriveKeySync(secret, salt, length)
  // Stryker disable next-line ConditionalExpression: the WebCrypto derivation below gives the same key, only slower
  if (fast) return fast
  const subtle = globalThis.crypto.subtle
  const ikm = await subtle.importKey("raw", utf8.encode(secret), "HKDF", false, ["deriveBits"])
  const bits = await subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: utf8.encode(salt), info: utf8.encode(info(salt)) },
    ikm,
    length * 8,
  )
  const key = new Uint8Array(bits)
  const digest = await subtle.digest(`SHA-${length * 8}`, utf8.encode(thumbprintInput(key)))
  return remember(cacheKey(secret, salt, length), { key, kid: toBase64Url(new Uint8Array(digest)) })
}

/** Empties the key cache. Internal: lets tests and benchmarks measure cold derivations. */
export function clearKeyCache(): void {
  cache.clear()
  last = undefined
}

/**
 * The secrets as a list, newest first, refusing a missing or empty one.
 *
 * @example
 * ```ts
 * secretList(["new", "old"]) // ["new", "old"]
 * secretList("")             // throws MissingSecret
 * ```
 */
export function secretList(secret: string | readonly string[] | undefined): readonly string[] {
  const list = Array.isArray(secret) ? (secret as readonly string[]) : [secret as string]
  if (list.length === 0 || list.some((item) => typeof item !== "string" || item === "")) {
    throw new MissingSecret("A non-empty secret is required to encode or decode a session token")
  }
  return list
}

/**
 * Checks the key derivation salt, which must be a string (normally the session cookie's name).
 *
 * @example
 * ```ts
 * checkSalt("authjs.session-token") // ok
 * ```
 */
export function checkSalt(salt: unknown): asserts salt is string {
  if (typeof salt !== "string") throw new TypeError("The key derivation salt must be a string (the cookie name)")
}
