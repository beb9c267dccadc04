/**
 * Compact JWE with direct encryption on WebCrypto, for runtimes without `node:crypto`:
 * A256CBC-HS512 both ways, A256GCM for decryption. It produces and accepts exactly the tokens of the
 * `node:crypto` path (`jwe-node.ts`), and throws the same jose error classes; it is written against
 * WebCrypto directly because jose's general JWE code (every key management algorithm) would be most
 * of an edge bundle's crypto.
 *
 * @module
 */
import { fromBase64Url, toBase64Url } from "../base64.js"
import * as errors from "jose/errors"
import type { CompactParts, SessionHeader } from "./header.js"

interface PortableKeys {
  /** A256CBC-HS512: HMAC-SHA-512 under the first half of the key. */
  mac?: CryptoKey
  /** A256CBC-HS512: AES-CBC under the second half; A256GCM: AES-GCM under the whole key. */
  enc: CryptoKey
}

const utf8 = new TextEncoder()
// Imported keys per derived key (derived keys are cached and long-lived) and algorithm.
const imported = new WeakMap<Uint8Array, Promise<PortableKeys>>()

function importKeys(key: Uint8Array): Promise<PortableKeys> {
  let keys = imported.get(key)
  // Stryker disable next-line ConditionalExpression: a cache of imported keys; re-importing gives the same key
  if (!keys) {
    const subtle = globalThis.crypto.subtle
    keys =
      key.length === 64
        ? Promise.all([
            subtle.importKey("raw", key.slice(0, 32), { name: "HMAC", hash: "SHA-512" }, false, ["sign"]),
            subtle.importKey("raw", key.slice(32, 64), "AES-CBC", false, ["encrypt", "decrypt"]),
          ]).then(([mac, enc]) => ({ mac, enc }))
        : subtle.importKey("raw", key.slice(), "AES-GCM", false, ["decrypt"]).then((enc) => ({ enc }))
    imported.set(key, keys)
  }
  return keys
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

// RFC 7518 §5.2.2.1: HMAC over AAD || IV || ciphertext || AL (the AAD's length in bits, 64-bit
// big-endian), truncated to its first 32 bytes.
async function cbcTag(mac: CryptoKey, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Promise<Uint8Array> {
  const al = new Uint8Array(8)
  const bits = aad.length * 8
  new DataView(al.buffer).setUint32(0, Math.floor(bits / 0x1_0000_0000))
  new DataView(al.buffer).setUint32(4, bits >>> 0)
  return new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", mac, concat(aad, iv, ciphertext, al)), 0, 32)
}

/**
 * Encrypts `plaintext` as a compact JWE with A256CBC-HS512 under the 64-byte `key`; `encodedHeader`
 * is the base64url protected header, which is also the AAD.
 *
 * @example
 * ```ts
 * const jwe = await encryptCbcPortable(key, encodedHeader, JSON.stringify(claims))
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-5.2.2.1
 */
export async function encryptCbcPortable(key: Uint8Array, encodedHeader: string, plaintext: string): Promise<string> {
  const { mac, enc } = await importKeys(key)
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(16))
  const ciphertext = new Uint8Array(await globalThis.crypto.subtle.encrypt({ name: "AES-CBC", iv }, enc, utf8.encode(plaintext)))
  const tag = await cbcTag(mac!, utf8.encode(encodedHeader), iv, ciphertext)
  return `${encodedHeader}..${toBase64Url(iv)}.${toBase64Url(ciphertext)}.${toBase64Url(tag)}`
}

/** Constant-time equality of two byte strings of the same length. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = 0
  for (let index = 0; index < a.length; index++) difference |= a[index]! ^ b[index]!
  return difference === 0
}

/**
 * Decrypts a compact JWE whose header passed `checkHeader`, with the key selected for it (64 bytes
 * for A256CBC-HS512, 32 for A256GCM). Returns the plaintext bytes.
 *
 * @example
 * ```ts
 * const plaintext = await decryptPortable(splitCompact(jwe), header, key)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-5.2
 */
export async function decryptPortable(parts: CompactParts, header: SessionHeader, key: Uint8Array): Promise<Uint8Array> {
  const aad = utf8.encode(parts.header)
  const iv = fromBase64Url(parts.iv)
  const ciphertext = fromBase64Url(parts.ciphertext)
  const tag = fromBase64Url(parts.tag)
  const gcm = header.enc === "A256GCM"
  if (iv.length !== (gcm ? 12 : 16)) throw new errors.JWEInvalid("Invalid Initialization Vector length")
  const keys = await importKeys(key)
  if (gcm) {
    // A truncated tag would weaken GCM's guarantee.
    if (tag.length !== 16) throw new errors.JWEDecryptionFailed()
  } else {
    // Authenticate before decrypting; a length mismatch is a failure, never an exception.
    const expected = await cbcTag(keys.mac!, aad, iv, ciphertext)
    if (tag.length !== expected.length || !sameBytes(tag, expected)) throw new errors.JWEDecryptionFailed()
  }
  try {
    const algorithm = gcm ? { name: "AES-GCM", iv, additionalData: aad, tagLength: 128 } : { name: "AES-CBC", iv }
    return new Uint8Array(await globalThis.crypto.subtle.decrypt(algorithm, keys.enc, gcm ? concat(ciphertext, tag) : concat(ciphertext)))
  } catch (cause) {
    throw new errors.JWEDecryptionFailed(undefined, { cause })
  }
}
