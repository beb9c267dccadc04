/**
 * A password check for a user who does not exist, costing what a real one costs, so the time of a
 * failed sign-in does not tell whether the account exists.
 *
 * @module
 */
import { KEY_BYTES, paramList, SALT_BYTES, type AlgorithmSetting } from "./algorithms.js"
import { PasswordHashError } from "./errors.js"
import { currentHashing, type PasswordHashHook, type PasswordHashOptions } from "./options.js"
import { formatPhc } from "./phc.js"
import { refusal, verifyPassword, type PasswordVerification } from "./verify.js"

// One dummy per parameter set, made on first use. A built-in dummy needs no hashing: random bytes in
// place of the key cost the same derivation to check and match no password.
const builtInDummies = new Map<string, string>()
const hookDummies = new WeakMap<PasswordHashHook, Promise<string>>()

function builtInDummy(setting: AlgorithmSetting): string {
  const key = `${setting.algorithm}$${paramList(setting).join()}`
  let dummy = builtInDummies.get(key)
  if (dummy === undefined) {
    const random = globalThis.crypto.getRandomValues(new Uint8Array(SALT_BYTES + KEY_BYTES))
    dummy = formatPhc(setting.algorithm, paramList(setting), random.subarray(0, SALT_BYTES), random.subarray(SALT_BYTES))
    builtInDummies.set(key, dummy)
  }
  return dummy
}

function hookDummy(hash: PasswordHashHook): Promise<string> {
  let dummy = hookDummies.get(hash)
  if (dummy === undefined) {
    const made = Promise.resolve().then(() => hash(`authflow dummy password ${globalThis.crypto.randomUUID()}`))
    dummy = made.catch((error: unknown) => {
      hookDummies.delete(hash) // a failure is not kept: the next call tries again
      throw error
    })
    hookDummies.set(hash, dummy)
  }
  return dummy
}

/**
 * Checks `password` against a hash made the current way (the same algorithm and parameters as
 * {@link hashPassword} with these options) and answers `{ valid: false }`: call it when no user has
 * the name given, so the answer takes as long as a wrong password for an existing user. The dummy
 * hash is made once per parameter set; with a `hash` hook, by the hook on first use (pair it with a
 * `verify` hook, or the check is refused at once as an unknown format).
 *
 * @example
 * ```ts
 * const user = await findUserByEmail(email)
 * const { valid } = user ? await verifyPassword(password, user.passwordHash, options) : await dummyVerify(password, options)
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#authentication-responses
 */
export async function dummyVerify(password: string, options: PasswordHashOptions = {}): Promise<PasswordVerification> {
  const current = currentHashing(options)
  let stored: string
  if (current.algorithm === "custom") {
    try {
      stored = await hookDummy(current.hash)
    } catch (error) {
      return refusal(new PasswordHashError("PasswordHashHookFailed", "The hash hook threw while making the dummy hash", error))
    }
  } else {
    stored = builtInDummy(current)
  }
  const { error } = await verifyPassword(typeof password === "string" ? password : "", stored, options)
  return refusal(error)
}
