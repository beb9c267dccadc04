/**
 * Hashing a new password: NFKC-normalised, then scrypt (on `node:crypto`) or PBKDF2-HMAC-SHA256 (on
 * WebCrypto) with a fresh 16-byte salt, written as a PHC string.
 *
 * @module
 */
import { deriveKey, KEY_BYTES, paramList, SALT_BYTES } from "./algorithms.js"
import { currentHashing, type PasswordHashOptions } from "./options.js"
import { formatPhc } from "./phc.js"
import { normalizePassword } from "./rules.js"

const utf8 = new TextEncoder()

/**
 * The PHC string to store for a new password: `$scrypt$ln=17,r=8,p=1$<salt>$<key>` where
 * `node:crypto` has scrypt, `$pbkdf2-sha256$i=600000$<salt>$<key>` elsewhere (salt 16 random bytes,
 * key 32 bytes, both unpadded base64), or what the `hash` hook returns. The password is
 * NFKC-normalised first; its length rules are {@link checkPasswordRules}'s business, not this
 * function's. Throws a {@link PasswordHashError} (`PasswordHashUnavailable`) when the chosen
 * algorithm cannot run here, a RangeError on parameters out of bounds.
 *
 * @example
 * ```ts
 * const stored = await hashPassword("correct horse battery staple")
 * // "$scrypt$ln=17,r=8,p=1$3q2+7w…$K1d…" on Node
 * const portable = await hashPassword("correct horse battery staple", { algorithm: "pbkdf2-sha256" })
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html
 */
export async function hashPassword(password: string, options: PasswordHashOptions = {}): Promise<string> {
  if (typeof password !== "string") throw new TypeError(`The password to hash must be a string, not ${typeof password}`)
  const current = currentHashing(options)
  const normalized = normalizePassword(password)
  if (current.algorithm === "custom") {
    const stored: unknown = await current.hash(normalized)
    if (typeof stored !== "string") throw new TypeError(`The hash hook must return a string, not ${typeof stored}`)
    return stored
  }
  const salt = globalThis.crypto.getRandomValues(new Uint8Array(SALT_BYTES))
  const key = await deriveKey(current, utf8.encode(normalized), salt, KEY_BYTES)
  return formatPhc(current.algorithm, paramList(current), salt, key)
}
