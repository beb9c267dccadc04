/**
 * Compact JWE with direct encryption on jose (WebCrypto), for runtimes without `node:crypto`. It
 * produces and accepts exactly the tokens of the `node:crypto` path.
 *
 * @module
 */
import { CompactEncrypt } from "jose/jwe/compact/encrypt"
import { compactDecrypt } from "jose/jwe/compact/decrypt"
import type { ContentEncryption } from "./key.js"

const utf8 = new TextEncoder()
const contentEncryptionAlgorithms: ContentEncryption[] = ["A256CBC-HS512", "A256GCM"]

/**
 * Encrypts `plaintext` with A256CBC-HS512 under the 64-byte `key`, with the protected header
 * `{alg: "dir", enc: "A256CBC-HS512", kid}`.
 *
 * @example
 * ```ts
 * const jwe = await encryptPortable(key, kid, JSON.stringify(claims))
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-5.1
 */
export function encryptPortable(key: Uint8Array, kid: string, plaintext: string): Promise<string> {
  return new CompactEncrypt(utf8.encode(plaintext)).setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid }).encrypt(key)
}

/**
 * Decrypts a compact JWE (dir with A256CBC-HS512 or A256GCM) with the key selected for it and
 * returns the plaintext bytes. Header checks and key selection happen before, in the caller.
 *
 * @example
 * ```ts
 * const plaintext = await decryptPortable(jwe, key)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-5.2
 */
export async function decryptPortable(token: string, key: Uint8Array): Promise<Uint8Array> {
  const { plaintext } = await compactDecrypt(token, key, { keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms })
  return plaintext
}
