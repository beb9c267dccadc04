/**
 * Reading a WebAuthn response the way the machine's guards need it: the client data (type,
 * challenge, origin) and the authenticator data (RP ID hash, flags, counter), without
 * `@simplewebauthn/server` (which verifies the same response afterwards).
 *
 * @module
 */
import { fromBase64Url, toBase64, toBase64Url } from "../base64.js"
import { sha256Hex } from "../crypto.js"

/** `clientDataJSON`, decoded. */
export interface ClientData {
  type: string
  challenge: string
  origin: string
}

/** The fixed part of the authenticator data. */
export interface AuthenticatorData {
  rpIdHash: Uint8Array
  userPresent: boolean
  userVerified: boolean
  counter: number
}

/**
 * A credential ID as Auth.js stores it (standard base64), from the base64url the browser sends.
 *
 * @example
 * ```ts
 * storedCredentialId("-_8") // "+/8="
 * ```
 */
export function storedCredentialId(base64url: string): string {
  return toBase64(fromBase64Url(base64url))
}

/**
 * The base64url form of a stored (base64) credential ID, as WebAuthn options carry it.
 *
 * @example
 * ```ts
 * credentialIdForBrowser("+/8=") // "-_8"
 * ```
 */
export function credentialIdForBrowser(base64: string): string {
  return toBase64Url(fromBase64Url(base64))
}

/**
 * Decodes `clientDataJSON` (base64url). Throws on anything that is not client data.
 *
 * @example
 * ```ts
 * readClientData(response.response.clientDataJSON).type // "webauthn.get"
 * ```
 * @see https://www.w3.org/TR/webauthn-3/#dictionary-client-data
 */
export function readClientData(clientDataJSON: unknown): ClientData {
  if (typeof clientDataJSON !== "string") throw new TypeError("clientDataJSON is missing")
  const parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(fromBase64Url(clientDataJSON))) as Partial<ClientData>
  if (typeof parsed.type !== "string" || typeof parsed.challenge !== "string" || typeof parsed.origin !== "string") {
    throw new TypeError("clientDataJSON lacks type, challenge or origin")
  }
  return { type: parsed.type, challenge: parsed.challenge, origin: parsed.origin }
}

/**
 * Reads the first 37 bytes of authenticator data: RP ID hash, the UP and UV flags, the counter.
 *
 * @example
 * ```ts
 * readAuthenticatorData(fromBase64Url(response.response.authenticatorData)).counter
 * ```
 * @see https://www.w3.org/TR/webauthn-3/#sctn-authenticator-data
 */
export function readAuthenticatorData(bytes: Uint8Array): AuthenticatorData {
  if (bytes.length < 37) throw new TypeError("authenticator data is shorter than 37 bytes")
  const flags = bytes[32]!
  const counter = new DataView(bytes.buffer, bytes.byteOffset + 33, 4).getUint32(0)
  return { rpIdHash: bytes.slice(0, 32), userPresent: (flags & 0x01) !== 0, userVerified: (flags & 0x04) !== 0, counter }
}

/**
 * Whether an RP ID hash is the SHA-256 of one of `rpIds`.
 *
 * @example
 * ```ts
 * rpIdHashMatches(data.rpIdHash, ["app.example"])
 * ```
 */
export function rpIdHashMatches(rpIdHash: Uint8Array, rpIds: readonly string[]): boolean {
  let received = ""
  for (const byte of rpIdHash) received += byte.toString(16).padStart(2, "0")
  return rpIds.some((id) => sha256Hex(id) === received)
}

/**
 * The `authData` of an attestation object (CBOR map `{ fmt, attStmt, authData }`), read with a
 * decoder that knows only what attestation objects contain.
 *
 * @example
 * ```ts
 * readAuthenticatorData(attestedAuthData(fromBase64Url(response.response.attestationObject)))
 * ```
 * @see https://www.w3.org/TR/webauthn-3/#sctn-attestation
 */
export function attestedAuthData(attestationObject: Uint8Array): Uint8Array {
  const decoded = decodeCbor(attestationObject)
  const authData = decoded instanceof Map ? decoded.get("authData") : undefined
  if (!(authData instanceof Uint8Array)) throw new TypeError("the attestation object has no authData")
  return authData
}

/** Decodes one CBOR item (RFC 8949: integers, byte and text strings, arrays, maps, simple values); rejects trailing bytes. */
function decodeCbor(bytes: Uint8Array): unknown {
  let offset = 0
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const need = (count: number) => {
    if (offset + count > bytes.length) throw new TypeError("CBOR item runs past the end")
  }
  const length = (info: number): number => {
    if (info < 24) return info
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : 0
    if (!size) throw new TypeError("unsupported CBOR length")
    need(size)
    const value = size === 1 ? view.getUint8(offset) : size === 2 ? view.getUint16(offset) : view.getUint32(offset)
    offset += size
    return value
  }
  const item = (depth: number): unknown => {
    if (depth > 16) throw new TypeError("CBOR nested too deeply")
    need(1)
    const initial = bytes[offset++]!
    const major = initial >> 5
    const info = initial & 0x1f
    switch (major) {
      case 0:
        return length(info)
      case 1:
        return -1 - length(info)
      case 2:
      case 3: {
        const size = length(info)
        need(size)
        const slice = bytes.slice(offset, offset + size)
        offset += size
        return major === 2 ? slice : new TextDecoder("utf-8", { fatal: true }).decode(slice)
      }
      case 4:
        return Array.from({ length: length(info) }, () => item(depth + 1))
      case 5: {
        const map = new Map<unknown, unknown>()
        for (let count = length(info); count > 0; count--) map.set(item(depth + 1), item(depth + 1))
        return map
      }
      case 7:
        if (info === 20) return false
        if (info === 21) return true
        if (info === 22) return null
    }
    throw new TypeError(`unsupported CBOR item ${initial}`)
  }
  const value = item(0)
  if (offset !== bytes.length) throw new TypeError("trailing bytes after the CBOR item")
  return value
}
