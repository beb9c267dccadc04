/**
 * String comparison whose time does not depend on where two values differ.
 *
 * @module
 */

/**
 * Whether two strings are equal, looking at every character whatever the first difference, so the
 * time taken says nothing about how much of a guess was right. Strings of different lengths are
 * unequal at once: the lengths compared here (codes, hashes) are public.
 *
 * @example
 * ```ts
 * sameInConstantTime(storedHash, typedHash) // true or false
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc4226#section-7.2
 */
export function sameInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}
