/**
 * Picks the decryption key for a token among the configured secrets, by key id.
 *
 * @module
 */
import { deriveKey, deriveKeySync, KEY_LENGTH, type DerivedKey } from "./key.js"
import type { SessionHeader } from "./header.js"

/** The message of the error thrown when no secret's key id equals the token's `kid`. */
export const NO_MATCHING_SECRET = "no matching decryption secret"

function pick(header: SessionHeader, derived: DerivedKey, first: boolean): Uint8Array | undefined {
  // A token without kid can only be tried with the first (current) secret.
  if (!header.kid) return first ? derived.key : undefined
  return derived.kid === header.kid ? derived.key : undefined
}

/**
 * The key for `header` derived from the first secret whose key id equals its `kid` (the first secret
 * when the token has no kid), synchronously; undefined when `node:crypto` is unavailable.
 *
 * @example
 * ```ts
 * const key = selectKeySync(header, ["new", "old"], "authjs.session-token")
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7638#section-3
 */
export function selectKeySync(header: SessionHeader, secrets: readonly string[], salt: string): Uint8Array | undefined {
  const length = KEY_LENGTH[header.enc]
  for (let i = 0; i < secrets.length; i++) {
    const derived = deriveKeySync(secrets[i]!, salt, length)
    if (!derived) return undefined
    const key = pick(header, derived, i === 0)
    if (key) return key
    if (!header.kid) break
  }
  throw new Error(NO_MATCHING_SECRET)
}

/**
 * The same selection as {@link selectKeySync} on any runtime.
 *
 * @example
 * ```ts
 * const key = await selectKey(header, ["new", "old"], "authjs.session-token")
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7638#section-3
 */
export async function selectKey(header: SessionHeader, secrets: readonly string[], salt: string): Promise<Uint8Array> {
  const length = KEY_LENGTH[header.enc]
  for (let i = 0; i < secrets.length; i++) {
    const key = pick(header, await deriveKey(secrets[i]!, salt, length), i === 0)
    if (key) return key
    if (!header.kid) break
  }
  throw new Error(NO_MATCHING_SECRET)
}
