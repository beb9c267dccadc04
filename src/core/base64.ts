/**
 * base64 and base64url of bytes on `atob`/`btoa`, which every runtime has: for session tokens on the
 * portable path, WebAuthn responses and sealed refresh results. Inputs are short (headers, keys,
 * IVs, tags, credential IDs).
 *
 * @module
 */

/**
 * Bytes of a base64url (or base64) string.
 *
 * @example
 * ```ts
 * fromBase64Url("AQID") // Uint8Array [1, 2, 3]
 * ```
 */
export function fromBase64Url(value: string): Uint8Array<ArrayBuffer> {
  const binary = atob(value.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, ""))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/**
 * Standard base64 (padded) of bytes, as Auth.js stores credential IDs and public keys.
 *
 * @example
 * ```ts
 * toBase64(new Uint8Array([251, 255])) // "+/8="
 * ```
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * base64url (unpadded) of bytes, as WebAuthn's JSON carries them.
 *
 * @example
 * ```ts
 * toBase64Url(new Uint8Array([251, 255])) // "-_8"
 * ```
 */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}
