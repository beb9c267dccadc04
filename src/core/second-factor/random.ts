/**
 * Uniform random integers from `crypto.getRandomValues`, by rejection sampling: a plain modulo
 * favours the small values whenever the range does not divide 2^32.
 *
 * @module
 */

const RANGE = 2 ** 32
// getRandomValues fills at most 65,536 bytes a call.
const MAX_DRAWS = 65_536 / 4

/**
 * `count` integers, each uniform in `[0, bound)`. A 32-bit draw at or above the largest multiple
 * of `bound` is thrown away and drawn again, so every value has the same chance.
 *
 * @example
 * ```ts
 * uniformIntegers(6, 10) // [3, 9, 0, 4, 4, 1]
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc4086#section-6.1.2
 */
export function uniformIntegers(count: number, bound: number): number[] {
  if (!Number.isInteger(bound) || bound < 1 || bound > RANGE) throw new RangeError(`The bound must be an integer from 1 to 2^32, not ${bound}`)
  const limit = RANGE - (RANGE % bound)
  const out: number[] = []
  while (out.length < count) {
    // Draws a little more than needed: rejections are rare (under half a draw even in the worst case).
    for (const draw of globalThis.crypto.getRandomValues(new Uint32Array(Math.min(count - out.length + 2, MAX_DRAWS)))) {
      if (draw < limit && out.length < count) out.push(draw % bound)
    }
  }
  return out
}
