/**
 * Checking a password against its stored hash, in constant time, with the parameters the hash
 * carries, and telling whether the hash should be replaced by one made the current way.
 *
 * @module
 */
import { builtInAlgorithmOf, deriveKey, KEY_BYTES, paramList, readStoredHash, SALT_BYTES, type StoredHash } from "./algorithms.js"
import { sameBytes } from "./constant-time.js"
import { PasswordHashError } from "./errors.js"
import { currentHashing, type CurrentHashing, type PasswordHashOptions } from "./options.js"
import { normalizePassword } from "./rules.js"

const utf8 = new TextEncoder()

/**
 * The answer of {@link verifyPassword}. `needsRehash` is only ever true with `valid`: hash the
 * password just checked and store it in place of the old hash. `error` says why a hash could not be
 * checked at all (for the server's log; the user sees a failed sign-in, as for a wrong password).
 *
 * @example
 * ```ts
 * const { valid, needsRehash, error }: PasswordVerification = await verifyPassword(password, stored)
 * ```
 */
export interface PasswordVerification {
  valid: boolean
  needsRehash: boolean
  error?: PasswordHashError
}

/**
 * A refusal carrying why the hash could not be checked.
 *
 * @example
 * ```ts
 * return refusal(new PasswordHashError("PasswordHashMalformed", "…"))
 * ```
 */
export function refusal(error?: PasswordHashError): PasswordVerification {
  return error ? { valid: false, needsRehash: false, error } : { valid: false, needsRehash: false }
}

function madeTheCurrentWay(stored: StoredHash, current: CurrentHashing): boolean {
  return (
    current.algorithm === stored.algorithm &&
    paramList(current).join() === paramList(stored).join() &&
    stored.salt.length === SALT_BYTES &&
    stored.hash.length === KEY_BYTES
  )
}

function leadingId(stored: string): string {
  const id = /^\$[a-z0-9-]{1,32}\$/i.exec(stored)
  return id ? `starting with ${JSON.stringify(id[0])}` : "without a $id$ prefix"
}

async function verifyWithHook(password: string, stored: string, normalized: string, options: PasswordHashOptions): Promise<PasswordVerification> {
  if (!options.verify) {
    return refusal(
      new PasswordHashError("PasswordHashUnknownFormat", `A stored password hash ${leadingId(stored)} is in no built-in format (scrypt, pbkdf2-sha256), and no verify hook was given for it`),
    )
  }
  let verdict: unknown
  try {
    verdict = await options.verify(password, stored, normalized)
  } catch (error) {
    return refusal(new PasswordHashError("PasswordHashHookFailed", "The verify hook threw", error))
  }
  const valid = verdict === true || (typeof verdict === "object" && verdict !== null && (verdict as { valid?: unknown }).valid === true)
  if (!valid) return refusal()
  const said = typeof verdict === "object" ? (verdict as { needsRehash?: unknown }).needsRehash : undefined
  // A format only the hook knows is legacy, unless the app's own `hash` hook makes it the current one.
  return { valid: true, needsRehash: typeof said === "boolean" ? said : options.hash === undefined }
}

/**
 * Whether `password` matches the stored hash. Built-in PHC strings (scrypt, pbkdf2-sha256) are
 * checked with the parameters they carry, the keys compared in constant time; anything else goes to
 * the `verify` hook. Never throws on a stored value or the runtime: an unknown format without a
 * hook, a malformed or tampered string, an algorithm this runtime lacks or a hook that throws are
 * all `{ valid: false }` with an `error` of a stable type. `needsRehash` is true when the password
 * matched and the hash was not made the current way (another algorithm, other parameters, another
 * salt or key length, or a hook's legacy format). Options out of bounds throw a RangeError.
 *
 * @example
 * ```ts
 * const { valid, needsRehash, error } = await verifyPassword(form.password, user.passwordHash)
 * if (error) logger.error(error)
 * if (valid && needsRehash) await updatePasswordHash(user.id, await hashPassword(form.password))
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#upgrading-legacy-hashes
 */
export async function verifyPassword(password: string, stored: string, options: PasswordHashOptions = {}): Promise<PasswordVerification> {
  const current = currentHashing(options)
  if (typeof stored !== "string") return refusal(new PasswordHashError("PasswordHashMalformed", `The stored password hash is a ${stored === null ? "null" : typeof stored}, not a string`))
  if (typeof password !== "string") return refusal()
  const normalized = normalizePassword(password)
  const algorithm = builtInAlgorithmOf(stored)
  if (algorithm === undefined) return verifyWithHook(password, stored, normalized, options)
  const hash = readStoredHash(stored)
  if (!hash) return refusal(new PasswordHashError("PasswordHashMalformed", `A stored ${algorithm} hash is malformed, or asks for parameters out of bounds`))
  let derived: Uint8Array
  try {
    derived = await deriveKey(hash, utf8.encode(normalized), hash.salt, hash.hash.length)
  } catch (error) {
    return refusal(error instanceof PasswordHashError ? error : new PasswordHashError("PasswordHashUnavailable", `${algorithm} failed`, error))
  }
  const valid = sameBytes(derived, hash.hash)
  return { valid, needsRehash: valid && !madeTheCurrentWay(hash, current) }
}
