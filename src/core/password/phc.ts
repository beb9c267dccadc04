/**
 * The PHC string format as authflow stores password hashes: `$<id>$<param>=<value>,…$<salt>$<hash>`,
 * salt and hash in standard base64 without padding. Parsing is strict (every field required, no
 * duplicate parameter, canonical base64, decimal numbers without leading zeros), so a tampered or
 * truncated string is refused rather than read loosely.
 *
 * @see https://github.com/P-H-C/phc-string-format/blob/master/phc-sf-spec.md
 * @module
 */
import { toBase64 } from "../base64.js"

/**
 * A parsed PHC string: the algorithm's id, its parameters as written, the salt and the hash.
 *
 * @example
 * ```ts
 * const { id, params, salt, hash }: PhcHash = parsePhc(stored)!
 * ```
 */
export interface PhcHash {
  id: string
  params: ReadonlyMap<string, string>
  salt: Uint8Array<ArrayBuffer>
  hash: Uint8Array<ArrayBuffer>
}

// Longer than any hash authflow writes or reads by far; a bound on the work spent on a stored value.
const MAX_PHC_LENGTH = 1024
const ID = /^[a-z0-9-]{1,32}$/
const PARAM = /^([a-z0-9-]{1,32})=([a-zA-Z0-9/+.-]{1,64})$/
const B64 = /^[A-Za-z0-9+/]+$/
const DECIMAL = /^(0|[1-9][0-9]{0,14})$/

/**
 * Standard base64 without padding, as PHC strings carry salts and hashes.
 *
 * @example
 * ```ts
 * encodePhcBase64(new Uint8Array([251, 255])) // "+/8"
 * ```
 */
export function encodePhcBase64(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/=+$/, "")
}

/**
 * Bytes of unpadded standard base64, or undefined unless the text is exactly what
 * {@link encodePhcBase64} writes for some bytes (no padding, no URL alphabet, no stray low bits).
 *
 * @example
 * ```ts
 * decodePhcBase64("+/8") // Uint8Array [251, 255]
 * decodePhcBase64("+/9") // undefined: the last character's low bits are not zero
 * ```
 */
export function decodePhcBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!B64.test(text) || text.length % 4 === 1) return undefined
  const binary = atob(text + "=".repeat((4 - (text.length % 4)) % 4))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return encodePhcBase64(bytes) === text ? bytes : undefined
}

/**
 * A decimal parameter's value as a number, or undefined unless it is a plain decimal integer with
 * no sign and no leading zero.
 *
 * @example
 * ```ts
 * decimalParam("600000") // 600000
 * decimalParam("017")    // undefined
 * ```
 */
export function decimalParam(value: string | undefined): number | undefined {
  return value !== undefined && DECIMAL.test(value) ? Number(value) : undefined
}

/**
 * The id, parameters, salt and hash of a PHC string, or undefined when it is not one.
 *
 * @example
 * ```ts
 * const phc = parsePhc("$scrypt$ln=17,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$…")
 * phc?.params.get("ln") // "17"
 * ```
 * @see https://github.com/P-H-C/phc-string-format/blob/master/phc-sf-spec.md
 */
export function parsePhc(text: string): PhcHash | undefined {
  if (text.length > MAX_PHC_LENGTH) return undefined
  const fields = text.split("$")
  if (fields.length !== 5 || fields[0] !== "") return undefined
  const [, id, paramText, saltText, hashText] = fields as [string, string, string, string, string]
  if (!ID.test(id)) return undefined
  const params = new Map<string, string>()
  for (const pair of paramText.split(",")) {
    const match = PARAM.exec(pair)
    if (!match || params.has(match[1]!)) return undefined
    params.set(match[1]!, match[2]!)
  }
  const salt = decodePhcBase64(saltText)
  const hash = decodePhcBase64(hashText)
  if (!salt || !hash) return undefined
  return { id, params, salt, hash }
}

/**
 * The PHC string of an id, parameters (in the order given), salt and hash.
 *
 * @example
 * ```ts
 * formatPhc("pbkdf2-sha256", [["i", 600000]], salt, hash) // "$pbkdf2-sha256$i=600000$…$…"
 * ```
 */
export function formatPhc(id: string, params: ReadonlyArray<readonly [string, number]>, salt: Uint8Array, hash: Uint8Array): string {
  return `$${id}$${params.map(([name, value]) => `${name}=${value}`).join(",")}$${encodePhcBase64(salt)}$${encodePhcBase64(hash)}`
}
