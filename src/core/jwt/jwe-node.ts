/**
 * Compact JWE with direct encryption on `node:crypto`: A256CBC-HS512 both ways, A256GCM for
 * decryption. Synchronous, and about twenty times faster than WebCrypto for tokens this small.
 *
 * @module
 */
import * as errors from "jose/errors"
import type { NodeRuntime } from "./runtime.js"
import type { CompactParts, SessionHeader } from "./header.js"

type Bytes = NodeRuntime["Buffer"]["prototype"]
type SecretKey = ReturnType<NodeRuntime["crypto"]["createSecretKey"]>

interface NodeKeys {
  /** A256CBC-HS512: first half of the key. */
  mac: SecretKey
  /** A256CBC-HS512: second half; A256GCM: the whole key. */
  enc: SecretKey
}

// Importing raw bytes into OpenSSL on every call costs more than the encryption of a small token;
// derived keys are cached and long-lived, so their imported form is kept beside them.
const imported = new WeakMap<Uint8Array, NodeKeys>()

function nodeKeys(node: NodeRuntime, key: Uint8Array): NodeKeys {
  let keys = imported.get(key)
  // Stryker disable next-line ConditionalExpression: a cache of imported keys; re-importing gives the same key
  if (!keys) {
    if (key.length === 64) {
      keys = { mac: node.crypto.createSecretKey(key.subarray(0, 32)), enc: node.crypto.createSecretKey(key.subarray(32, 64)) }
    } else {
      const whole = node.crypto.createSecretKey(key)
      keys = { mac: whole, enc: whole }
    }
    imported.set(key, keys)
  }
  return keys
}

// One CSPRNG call per 256 IVs instead of one per token; each 16-byte slice is handed out once and
// consumed synchronously (copied into the cipher and the encoded token) before the next refill.
const IV_POOL_BYTES = 4096
let ivPool: Bytes | undefined
let ivOffset = IV_POOL_BYTES

function freshIv(node: NodeRuntime): Bytes {
  // Stryker disable next-line BooleanLiteral: refilling the pool more often only costs speed
  if (ivOffset + 16 > IV_POOL_BYTES || !ivPool) {
    ivPool = node.crypto.randomFillSync(node.Buffer.allocUnsafe(IV_POOL_BYTES))
    ivOffset = 0
  }
  const iv = ivPool.subarray(ivOffset, ivOffset + 16)
  ivOffset += 16
  return iv
}

// AL: the AAD's length in bits as a 64-bit big-endian integer (RFC 7518 §5.2.2.1, step 4). Only
// read (hashed), and every token of one key has the same header, so one buffer per length serves.
const bitLengths = new Map<number, Bytes>()

function aadBitLength(node: NodeRuntime, aadBytes: number): Bytes {
  let al = bitLengths.get(aadBytes)
  if (al === undefined) {
    al = node.Buffer.alloc(8)
    const bits = aadBytes * 8
    al.writeUInt32BE(Math.floor(bits / 0x1_0000_0000), 0)
    al.writeUInt32BE(bits >>> 0, 4)
    if (bitLengths.size >= 64) bitLengths.clear()
    bitLengths.set(aadBytes, al)
  }
  return al
}

// The protected header as AAD bytes: the same few headers on every token, so each is converted once.
const aadBuffers = new Map<string, Bytes>()

function aadOf(node: NodeRuntime, encodedHeader: string): Bytes {
  let aad = aadBuffers.get(encodedHeader)
  if (aad === undefined) {
    aad = node.Buffer.from(encodedHeader, "latin1")
    if (aadBuffers.size >= 64) aadBuffers.clear()
    aadBuffers.set(encodedHeader, aad)
  }
  return aad
}

function cbcTag(node: NodeRuntime, macKey: SecretKey, aad: Bytes, iv: Uint8Array, ciphertext: Uint8Array): Bytes {
  return node.crypto
    .createHmac("sha512", macKey)
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(aadBitLength(node, aad.length))
    .digest()
    .subarray(0, 32)
}

/**
 * Encrypts `plaintext` as a compact JWE with A256CBC-HS512 under the 64-byte `key`; `encodedHeader`
 * is the base64url protected header, which is also the AAD.
 *
 * @example
 * ```ts
 * const jwe = encryptCbcNode(node, key, encodedHeader, JSON.stringify(claims))
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-5.2.2.1
 */
export function encryptCbcNode(node: NodeRuntime, key: Uint8Array, encodedHeader: string, plaintext: string): string {
  const keys = nodeKeys(node, key)
  const iv = freshIv(node)
  const cipher = node.crypto.createCipheriv("aes-256-cbc", keys.enc, iv)
  // Stryker disable next-line StringLiteral: Node reads an empty encoding name as UTF-8, the default
  const ciphertext = node.Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  const tag = cbcTag(node, keys.mac, aadOf(node, encodedHeader), iv, ciphertext)
  return `${encodedHeader}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag.toString("base64url")}`
}

function decryptCbc(node: NodeRuntime, key: Uint8Array, aad: Bytes, iv: Bytes, ciphertext: Bytes, tag: Bytes): Uint8Array {
  if (iv.length !== 16) throw new errors.JWEInvalid("Invalid Initialization Vector length")
  const keys = nodeKeys(node, key)
  const expected = cbcTag(node, keys.mac, aad, iv, ciphertext)
  // Authenticate before decrypting; a length mismatch is a failure, never an exception from the compare.
  if (tag.length !== expected.length || !node.crypto.timingSafeEqual(tag, expected)) {
    throw new errors.JWEDecryptionFailed()
  }
  try {
    const decipher = node.crypto.createDecipheriv("aes-256-cbc", keys.enc, iv)
    return node.Buffer.concat([decipher.update(ciphertext), decipher.final()])
  } catch (cause) {
    throw new errors.JWEDecryptionFailed(undefined, { cause })
  }
}

function decryptGcm(node: NodeRuntime, key: Uint8Array, aad: Bytes, iv: Bytes, ciphertext: Bytes, tag: Bytes): Uint8Array {
  if (iv.length !== 12) throw new errors.JWEInvalid("Invalid Initialization Vector length")
  // A truncated tag would weaken GCM's guarantee; Node accepts them unless told otherwise.
  if (tag.length !== 16) throw new errors.JWEDecryptionFailed()
  try {
    // Stryker disable next-line ObjectLiteral: the tag length is checked to be 16 just above
    const decipher = node.crypto.createDecipheriv("aes-256-gcm", nodeKeys(node, key).enc, iv, { authTagLength: 16 })
    decipher.setAAD(aad)
    decipher.setAuthTag(tag)
    return node.Buffer.concat([decipher.update(ciphertext), decipher.final()])
  } catch (cause) {
    throw new errors.JWEDecryptionFailed(undefined, { cause })
  }
}

/**
 * Decrypts a compact JWE whose header passed `checkHeader`, with the key selected for it (64 bytes
 * for A256CBC-HS512, 32 for A256GCM). Returns the plaintext bytes.
 *
 * @example
 * ```ts
 * const plaintext = decryptNode(node, splitCompact(jwe), header, key)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-5.2
 */
export function decryptNode(node: NodeRuntime, parts: CompactParts, header: SessionHeader, key: Uint8Array): Uint8Array {
  const aad = aadOf(node, parts.header)
  const iv = node.Buffer.from(parts.iv, "base64url")
  const ciphertext = node.Buffer.from(parts.ciphertext, "base64url")
  const tag = node.Buffer.from(parts.tag, "base64url")
  return header.enc === "A256GCM"
    ? decryptGcm(node, key, aad, iv, ciphertext, tag)
    : decryptCbc(node, key, aad, iv, ciphertext, tag)
}
