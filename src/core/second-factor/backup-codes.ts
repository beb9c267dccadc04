/**
 * Backup codes: single-use codes shown once at enrolment, for a user without their authenticator.
 * Stored only as keyed hashes; a code is found again by hashing what the user types.
 *
 * @module
 */
import { keyedHashes } from "./keyed-hash.js"
import { uniformIntegers } from "./random.js"

/**
 * The characters of a backup code: digits and lower-case letters without 0, o, 1, i and l, which
 * are read or typed for one another. 31 characters, so a 10-character code holds
 * 10 × log2(31) ≈ 49.5 bits.
 *
 * @example
 * ```ts
 * [...newBackupCodes(1)[0]!.replace("-", "")].every((c) => BACKUP_CODE_ALPHABET.includes(c)) // true
 * ```
 * @see https://pages.nist.gov/800-63-3/sp800-63b.html#-5122-look-up-secrets
 */
export const BACKUP_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"

/**
 * Characters in a backup code (without its dash).
 *
 * @example
 * ```ts
 * normalizeBackupCode("k7m2q-x9c4h")!.length === BACKUP_CODE_LENGTH // true
 * ```
 * @see https://pages.nist.gov/800-63-3/sp800-63b.html#-5122-look-up-secrets
 */
export const BACKUP_CODE_LENGTH = 10

/**
 * The key derivation salt of backup code hashes: a key of their own, apart from every other use of the secret.
 *
 * @example
 * ```ts
 * await keyedHashes("k7m2qx9c4h", secret, BACKUP_CODE_SALT) // what hashBackupCode computes
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc5869#section-3.1
 */
export const BACKUP_CODE_SALT = "authflow second-factor backup code"

const CODE_PATTERN = new RegExp(`^[${BACKUP_CODE_ALPHABET}]{${BACKUP_CODE_LENGTH}}$`)

/**
 * `count` new backup codes, shown as `xxxxx-xxxxx`: each character drawn uniformly from
 * {@link BACKUP_CODE_ALPHABET} with `crypto.getRandomValues` (rejection sampling, no modulo bias).
 *
 * @example
 * ```ts
 * const codes = newBackupCodes() // ["k7m2q-x9c4h", …] (10 codes)
 * const hashes = await Promise.all(codes.map((code) => hashBackupCode(code, secret)))
 * ```
 * @see https://pages.nist.gov/800-63-3/sp800-63b.html#-5122-look-up-secrets
 */
export function newBackupCodes(count: number = 10): string[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`The number of backup codes must be a positive integer, not ${count}`)
  const indices = uniformIntegers(count * BACKUP_CODE_LENGTH, BACKUP_CODE_ALPHABET.length)
  return Array.from({ length: count }, (_, n) => {
    const code = indices.slice(n * BACKUP_CODE_LENGTH, (n + 1) * BACKUP_CODE_LENGTH).map((i) => BACKUP_CODE_ALPHABET[i]).join("")
    return `${code.slice(0, 5)}-${code.slice(5)}`
  })
}

/**
 * A backup code as typed, reduced to its 10 characters: lower case, spaces and dashes removed.
 * Null when what is left cannot be a backup code (another length, a character outside the
 * alphabet), so the caller refuses it without a lookup.
 *
 * @example
 * ```ts
 * normalizeBackupCode(" K7M2Q - X9C4H ") // "k7m2qx9c4h"
 * normalizeBackupCode("k7m2q-x9c40")     // null: 0 is not in the alphabet
 * ```
 * @see https://pages.nist.gov/800-63-3/sp800-63b.html#-5122-look-up-secrets
 */
export function normalizeBackupCode(input: string): string | null {
  if (typeof input !== "string") return null
  const compact = input.replace(/[\s-]/g, "").toLowerCase()
  return CODE_PATTERN.test(compact) ? compact : null
}

function normalized(code: string): string {
  const compact = normalizeBackupCode(code)
  // Codes reach here from newBackupCodes, or after the caller normalized what was typed.
  if (compact === null) throw new TypeError("Not a backup code: normalize what the user typed with normalizeBackupCode first")
  return compact
}

/**
 * The backup code's hash under the auth secret (the first one, when several are listed): what to
 * store. Shown and typed forms hash alike ("K7M2Q X9C4H" and "k7m2q-x9c4h").
 *
 * @example
 * ```ts
 * const stored = await Promise.all(newBackupCodes().map((code) => hashBackupCode(code, process.env.AUTH_SECRET!)))
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc2104
 */
export async function hashBackupCode(code: string, secret: string | readonly string[]): Promise<string> {
  const [current] = await keyedHashes(normalized(code), secret, BACKUP_CODE_SALT)
  return current!
}

/**
 * The backup code's hash under every secret, newest first: during a rotation a code stored under
 * an older secret is found by looking up each.
 *
 * @example
 * ```ts
 * const typed = normalizeBackupCode(input)
 * if (typed === null) return refuse()
 * const candidates = await backupCodeHashes(typed, [newSecret, oldSecret])
 * const match = storedHashes.find((hash) => candidates.includes(hash))
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc2104
 */
export function backupCodeHashes(code: string, secret: string | readonly string[]): Promise<string[]> {
  return keyedHashes(normalized(code), secret, BACKUP_CODE_SALT)
}
