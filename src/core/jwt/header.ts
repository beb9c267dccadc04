/**
 * The compact JWE envelope: splitting a token into its five parts and checking its protected header
 * against the only algorithms a session token may use. Shared by both crypto paths so they accept and
 * refuse exactly the same tokens.
 *
 * @module
 */
import * as errors from "jose/errors"
import type { ContentEncryption } from "./key.js"

/** The five base64url parts of a compact JWE. */
export interface CompactParts {
  readonly header: string
  readonly encryptedKey: string
  readonly iv: string
  readonly ciphertext: string
  readonly tag: string
}

/** A protected header that passed {@link checkHeader}. */
export interface SessionHeader {
  readonly alg: "dir"
  readonly enc: ContentEncryption
  readonly kid?: unknown
  readonly [parameter: string]: unknown
}

const BASE64URL = /^[A-Za-z0-9_-]*$/

function checkPart(part: string, what: string): void {
  // A length of 4n+1 cannot come from any byte string; Node's decoder would silently drop the rest.
  if (part.length % 4 === 1 || !BASE64URL.test(part)) throw new errors.JWEInvalid(`JWE ${what} is not base64url`)
}

/**
 * Splits a compact JWE into its parts and checks that each is base64url.
 *
 * @example
 * ```ts
 * const { header, iv, ciphertext, tag } = splitCompact(token)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-7.1
 */
export function splitCompact(token: string): CompactParts {
  const parts = token.split(".")
  if (parts.length !== 5) throw new errors.JWEInvalid("Invalid Compact JWE")
  const [header, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string]
  checkPart(header, "Protected Header")
  checkPart(iv, "Initialization Vector")
  checkPart(ciphertext, "Ciphertext")
  checkPart(tag, "Authentication Tag")
  // Direct encryption carries no encrypted key.
  if (encryptedKey !== "") throw new errors.JWEInvalid("Encountered unexpected JWE Encrypted Key")
  return { header, encryptedKey, iv, ciphertext, tag }
}

/**
 * Checks a decoded protected header: `alg` must be `dir`, `enc` A256CBC-HS512 or A256GCM, and
 * neither `zip` nor `crit` may appear (a session token never needs them).
 *
 * @example
 * ```ts
 * const header = checkHeader(JSON.parse(headerJson)) // throws on anything else
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-4.1
 */
export function checkHeader(value: unknown): SessionHeader {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new errors.JWEInvalid("JWE Protected Header is invalid")
  }
  const header = value as Record<string, unknown>
  if (header.crit !== undefined) throw new errors.JWEInvalid('JWE "crit" Header Parameter is not accepted')
  if (header.zip !== undefined) throw new errors.JOSENotSupported('JWE "zip" Header Parameter is not accepted')
  if (header.alg !== "dir") throw new errors.JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed')
  if (header.enc !== "A256CBC-HS512" && header.enc !== "A256GCM") {
    throw new errors.JOSEAlgNotAllowed('"enc" (Encryption Algorithm) Header Parameter value not allowed')
  }
  return header as SessionHeader
}

/**
 * Parses the JSON of a protected header and checks it with {@link checkHeader}.
 *
 * @example
 * ```ts
 * parseHeader('{"alg":"dir","enc":"A256GCM"}').enc // "A256GCM"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-5.2
 */
export function parseHeader(json: string): SessionHeader {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (cause) {
    throw new errors.JWEInvalid("JWE Protected Header is invalid", { cause })
  }
  return checkHeader(value)
}
