/**
 * Punycode decoding (RFC 3492), for reading the Unicode behind an IDNA A-label (`xn--…`) on every
 * runtime: `node:url`'s `domainToUnicode` and `node:punycode` are Node-only, and the web platform
 * encodes (through `URL`) but never decodes.
 *
 * @module
 */

const base = 36
const tMin = 1
const tMax = 26
const skew = 38
const damp = 700
const initialBias = 72
const initialN = 128
const maxCodePoint = 0x10ffff

/** RFC 3492 §6.1: the bias after each decoded code point. */
function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / damp) : delta >> 1
  d += Math.floor(d / points)
  let k = 0
  while (d > ((base - tMin) * tMax) >> 1) {
    d = Math.floor(d / (base - tMin))
    k += base
  }
  return k + Math.floor(((base - tMin + 1) * d) / (d + skew))
}

/** `a`–`z` and `A`–`Z` are 0–25, `0`–`9` are 26–35; anything else is not a digit (36). */
function digitOf(code: number): number {
  if (code >= 0x61 && code <= 0x7a) return code - 0x61
  if (code >= 0x41 && code <= 0x5a) return code - 0x41
  if (code >= 0x30 && code <= 0x39) return code - 22
  return base
}

/**
 * Decodes a Punycode string (an A-label without its `xn--` prefix) to Unicode, or returns
 * `undefined` when it is not valid Punycode.
 *
 * @example
 * ```ts
 * decodePunycode("bcher-kva") // "bücher"
 * decodePunycode("exmple-4nf") // "exаmple" (with a Cyrillic а)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc3492#section-6.2
 */
export function decodePunycode(input: string): string | undefined {
  const delimiter = input.lastIndexOf("-")
  const output: number[] = []
  for (let j = 0; j < delimiter; j++) {
    const code = input.charCodeAt(j)
    if (code >= 0x80) return undefined
    output.push(code)
  }
  let n = initialN
  let bias = initialBias
  let i = 0
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length; ) {
    const before = i
    for (let w = 1, k = base; ; k += base) {
      if (index >= input.length) return undefined
      const digit = digitOf(input.charCodeAt(index++))
      if (digit >= base) return undefined
      i += digit * w
      if (i > maxCodePoint * (output.length + 1)) return undefined
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
      if (digit < t) break
      w *= base - t
    }
    const length = output.length + 1
    bias = adapt(i - before, length, before === 0)
    n += Math.floor(i / length)
    if (n > maxCodePoint) return undefined
    i %= length
    output.splice(i++, 0, n)
  }
  return String.fromCodePoint(...output)
}
