/**
 * Byte comparison whose time does not depend on where two values differ.
 *
 * @module
 */
import { nodePasswordCrypto } from "./runtime.js"

/**
 * Whether two byte arrays are equal, looking at every byte whatever the first difference:
 * `timingSafeEqual` on Node, an XOR-accumulating loop elsewhere. Arrays of different lengths are
 * unequal at once: the lengths compared here (a derived key and the stored one, of the length the
 * stored hash gives) are public.
 *
 * @example
 * ```ts
 * sameBytes(derivedKey, storedKey) // true or false
 * ```
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  const node = nodePasswordCrypto()
  if (node) return node.timingSafeEqual(a, b)
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}
