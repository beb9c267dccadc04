import * as nodeCrypto from "node:crypto"
import { Buffer } from "node:buffer"
import { base64url } from "jose"
import { clearKeyCache } from "../../../src/core/jwt/key.js"
import { encryptCbcNode } from "../../../src/core/jwt/jwe-node.js"
import { useNodeCrypto } from "../../../src/core/jwt/runtime.js"
import { cookieNames } from "../../helpers.js"

export const SALT = cookieNames.http.sessionToken
export const SECURE_SALT = cookieNames.https.sessionToken
export const SECRET = "a-rather-long-test-secret-0123456789abcdef"

/** The two crypto paths; `select` switches to one and empties the key cache so it derives too. */
export const PATHS = [
  { name: "node", select: () => selectPath(true) },
  { name: "portable", select: () => selectPath(false) },
] as const

function selectPath(node: boolean): void {
  clearKeyCache()
  const active = useNodeCrypto(node)
  if (active !== node) throw new Error(`could not switch the node path ${node ? "on" : "off"}`)
}

/** An independent HKDF-SHA256 derivation, straight from node:crypto, for cross-checking. */
export function referenceKey(secret: string, salt: string, length = 64): Uint8Array {
  return new Uint8Array(nodeCrypto.hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, length))
}

/**
 * A CBC-HS512 token with an arbitrary protected header and plaintext, correctly authenticated, so a
 * test can check what decode does with headers or claims encode would never produce.
 */
export function craftToken(header: Record<string, unknown>, plaintext: string, key = referenceKey(SECRET, SALT)): string {
  return encryptCbcNode({ crypto: nodeCrypto, Buffer }, key, base64url.encode(JSON.stringify(header)), plaintext)
}

export function decodeHeader(token: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(base64url.decode(token.split(".")[0]!))) as Record<string, unknown>
}

export function decodePart(token: string, index: number): Uint8Array {
  return base64url.decode(token.split(".")[index]!)
}

/** Replaces part `index` of a compact token with the same bytes, one bit flipped in byte `at`. */
export function flipBit(token: string, index: number, at = 0): string {
  const parts = token.split(".")
  const bytes = base64url.decode(parts[index]!)
  bytes[at] = bytes[at]! ^ 0x01
  parts[index] = base64url.encode(bytes)
  return parts.join(".")
}

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000)
}
