/**
 * The 6-digit code sent by email as a second factor. It waits in the sealed flow cookie as a keyed
 * hash, so even a decrypted snapshot (in a log, in the inspector) does not show it, and a million
 * guesses cannot be tried against the hash without the auth secret.
 *
 * @module
 */
import { randomHex } from "../crypto.js"
import { sameInConstantTime } from "./constant-time.js"
import { keyedHashes } from "./keyed-hash.js"
import { uniformIntegers } from "./random.js"
import { normalizeTotpCode } from "./totp.js"

/**
 * Digits in an emailed code.
 *
 * @example
 * ```ts
 * newEmailCode().length === EMAIL_CODE_DIGITS // true
 * ```
 * @see https://pages.nist.gov/800-63-3/sp800-63b.html#-5128-out-of-band-devices
 */
export const EMAIL_CODE_DIGITS = 6

/**
 * The key derivation salt of emailed code hashes, apart from backup codes and every other use of the secret.
 *
 * @example
 * ```ts
 * await keyedHashes("038114", secret, EMAIL_CODE_SALT) // what hashEmailCode computes
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc5869#section-3.1
 */
export const EMAIL_CODE_SALT = "authflow second-factor email code"

/**
 * A new 6-digit code, every value from 000000 to 999999 equally likely (rejection sampling on
 * `crypto.getRandomValues`).
 *
 * @example
 * ```ts
 * const code = newEmailCode() // "038114"
 * ```
 * @see https://pages.nist.gov/800-63-3/sp800-63b.html#-5128-out-of-band-devices
 */
export function newEmailCode(): string {
  const [value] = uniformIntegers(1, 10 ** EMAIL_CODE_DIGITS)
  return String(value).padStart(EMAIL_CODE_DIGITS, "0")
}

/**
 * The code's hash under the auth secret (the first one when several are listed), to keep in the
 * flow instead of the code; the same for what the user types, spaces removed, to compare with it.
 * Never throws on what is typed: a value that is not 6 digits gets a hash no sent code has.
 *
 * @example
 * ```ts
 * const code = newEmailCode()
 * const codeHash = await hashEmailCode(code, process.env.AUTH_SECRET!) // into the machine's context
 * const typedHash = await hashEmailCode(" 038 114", process.env.AUTH_SECRET!) // equal when the code was 038114
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc2104
 */
export async function hashEmailCode(code: string, secret: string | readonly string[]): Promise<string> {
  // A sent code is 6 digits: anything else keeps a prefix no 6-digit string hashes alike with.
  const typed = normalizeTotpCode(code, EMAIL_CODE_DIGITS) ?? `not a code:${String(code)}`
  const [current] = await keyedHashes(typed, secret, EMAIL_CODE_SALT)
  return current!
}

/**
 * Whether a typed code (spaces allowed) is the one whose hash the flow kept, under any of the
 * secrets (a rotation during the few minutes a code lives does not void it). Compared in constant
 * time; anything that is not 6 digits is refused without hashing.
 *
 * @example
 * ```ts
 * if (await emailCodeMatches(input, context.codeHash, config.secret)) send({ type: "CODE_OK" })
 * ```
 * @see https://pages.nist.gov/800-63-3/sp800-63b.html#-5128-out-of-band-devices
 */
export async function emailCodeMatches(typed: string, storedHash: string, secret: string | readonly string[]): Promise<boolean> {
  return emailCodeMatchesAny(await typedEmailCodeHashes(typed, secret), storedHash)
}

/**
 * A typed code's keyed hashes under each secret (the newest first), spaces allowed; none for
 * anything that is not 6 digits. What a flow machine's guard compares with
 * {@link emailCodeMatchesAny}.
 *
 * @example
 * ```ts
 * const hashes = await typedEmailCodeHashes(" 038 114", [newSecret, oldSecret]) // two hashes
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc2104
 */
export async function typedEmailCodeHashes(typed: string, secret: string | readonly string[]): Promise<string[]> {
  const code = normalizeTotpCode(typed, EMAIL_CODE_DIGITS)
  return code === null ? [] : keyedHashes(code, secret, EMAIL_CODE_SALT)
}

/**
 * Whether one of a typed code's hashes is the kept one, each compared in constant time (every
 * candidate is compared, so the time does not say which secret matched). Pure: a machine's guard.
 *
 * @example
 * ```ts
 * emailCodeMatchesAny(await typedEmailCodeHashes(typed, secret), context.codeHash) // true or false
 * ```
 */
export function emailCodeMatchesAny(hashes: readonly string[], storedHash: string): boolean {
  return hashes.map((candidate) => sameInConstantTime(candidate, storedHash)).includes(true)
}

/**
 * A stand-in for a code's keyed hash that no code has: 32 random bytes, as hex, the length and
 * look of a real one. A flow that must answer as if a code was mailed (a sign-up with a taken
 * address) seals this, so the same page, cookies and refusals follow, and no code ever passes.
 *
 * @example
 * ```ts
 * const codeHash = unmatchableEmailCodeHash() // 64 hex digits, matched by no code
 * ```
 */
export function unmatchableEmailCodeHash(): string {
  return randomHex(32)
}
