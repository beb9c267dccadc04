/**
 * RFC 4648 base32 (the alphabet `A–Z2–7`), the form authenticator apps take a TOTP secret in.
 * Encoding writes no padding, as the Key Uri Format asks; decoding takes what people type or paste.
 *
 * @module
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

// Each character's 5-bit value, -1 for characters outside the alphabet.
const VALUES = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i

// Characters a group of 8 can end with before its padding: 2, 4, 5 or 7 (1, 3 or 6 never occur).
const VALID_TAIL_LENGTHS = new Set([0, 2, 4, 5, 7])

/**
 * Encodes bytes as RFC 4648 base32, upper case, without `=` padding.
 *
 * @example
 * ```ts
 * base32Encode(new TextEncoder().encode("foobar")) // "MZXW6YTBOI"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc4648#section-6
 */
export function base32Encode(bytes: Uint8Array): string {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xfff
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out += ALPHABET[(buffer >> bits) & 31]
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31]
  return out
}

/**
 * Decodes RFC 4648 base32 as people type it: lower case, spaces, dashes between groups and `=`
 * padding (only at the end) are accepted. Returns **null** for anything else (a character outside
 * the alphabet, a length no encoder produces, or trailing bits that are not zero), so a caller
 * refuses bad input without a try; nothing is thrown.
 *
 * @example
 * ```ts
 * base32Decode("mzxw 6ytb oi======") // Uint8Array of "foobar"
 * base32Decode("MZXW1")              // null: "1" is not in the alphabet
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc4648#section-6
 */
export function base32Decode(text: string): Uint8Array | null {
  const compact = text.replace(/[\s-]/g, "").toUpperCase()
  const unpadded = compact.replace(/=+$/, "")
  const padding = compact.length - unpadded.length
  // Padding, when present, fills the last group of 8 exactly.
  if (padding > 0 && (compact.length % 8 !== 0 || padding > 6)) return null
  if (!VALID_TAIL_LENGTHS.has(unpadded.length % 8)) return null
  const out = new Uint8Array(Math.floor((unpadded.length * 5) / 8))
  let buffer = 0
  let bits = 0
  let index = 0
  for (let i = 0; i < unpadded.length; i++) {
    const code = unpadded.charCodeAt(i)
    const value = code < 128 ? VALUES[code]! : -1
    if (value < 0) return null
    buffer = ((buffer << 5) | value) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      out[index++] = (buffer >> bits) & 0xff
    }
  }
  // Leftover bits are the encoder's zero fill; anything else is a different string for the same bytes.
  if ((buffer & ((1 << bits) - 1)) !== 0) return null
  return out
}
