/**
 * Keyed hashes of short secrets (backup codes, emailed codes) for storage: HMAC-SHA-256 under a
 * key derived from the auth secret with a salt of its own, so a leaked table or snapshot cannot be
 * searched offline without the auth secret. The key is derived as the session key is (HKDF-SHA256,
 * see `core/jwt/key.ts`), and each salt gives a key of its own.
 *
 * @module
 */
import { deriveKey, secretList } from "../jwt/key.js"

const HMAC_KEY_BYTES = 32
const utf8 = new TextEncoder()
// deriveKey keeps its results in a bounded cache, so the imported keys can hang off them.
const hmacKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>()

async function hmacKey(secret: string, salt: string): Promise<CryptoKey> {
  const { key } = await deriveKey(secret, salt, HMAC_KEY_BYTES)
  let imported = hmacKeys.get(key)
  if (imported === undefined) {
    imported = globalThis.crypto.subtle.importKey("raw", new Uint8Array(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
    hmacKeys.set(key, imported)
  }
  return imported
}

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/**
 * The value's HMAC-SHA-256, as 64 lowercase hex digits, under each secret in order (the newest
 * first, as `AUTH_SECRET` lists them): store the first, look up all of them, so values hashed
 * before a rotation are still found.
 *
 * @example
 * ```ts
 * const [current, ...older] = await keyedHashes("k7m2q-x9c4h", [newSecret, oldSecret], "authflow second-factor backup code")
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc2104
 * @see https://www.rfc-editor.org/rfc/rfc5869
 */
export async function keyedHashes(value: string, secret: string | readonly string[], salt: string): Promise<string[]> {
  const message = utf8.encode(value)
  return Promise.all(secretList(secret).map(async (each) => toHex(await globalThis.crypto.subtle.sign("HMAC", await hmacKey(each, salt), message))))
}
