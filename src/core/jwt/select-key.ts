/**
 * Picks the decryption key for a token among the configured secrets, by key id.
 *
 * @module
 */
import { deriveKey, deriveKeySync, KEY_LENGTH } from "./key.js"
import type { SessionHeader } from "./header.js"

/** The message of the error thrown when no secret's key id equals the token's `kid`. */
export const NO_MATCHING_SECRET = "no matching decryption secret"

/**
 * The key for `header`, synchronously: derived from the first secret whose key id equals the
 * header's `kid`, or from the first secret when the token has no `kid` (so a kid-less token only
 * opens with the current secret). Undefined when `node:crypto` is unavailable.
 *
 * @example
 * ```ts
 * const key = selectKeySync(header, ["new", "old"], "authjs.session-token")
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7638#section-3
 */
export function selectKeySync(header: SessionHeader, secrets: readonly string[], salt: string): Uint8Array | undefined {
  const length = KEY_LENGTH[header.enc]
  if (!header.kid) return deriveKeySync(secrets[0]!, salt, length)?.key
  for (const secret of secrets) {
    const derived = deriveKeySync(secret, salt, length)
    if (!derived) return undefined
    if (derived.kid === header.kid) return derived.key
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
  if (!header.kid) return (await deriveKey(secrets[0]!, salt, length)).key
  for (const secret of secrets) {
    const derived = await deriveKey(secret, salt, length)
    if (derived.kid === header.kid) return derived.key
  }
  throw new Error(NO_MATCHING_SECRET)
}
