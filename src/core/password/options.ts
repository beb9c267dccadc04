/**
 * The options of password hashing, shared by `hashPassword`, `verifyPassword` and `dummyVerify` so
 * one object configures all three, and what they resolve to: the way new hashes are made now.
 *
 * @module
 */
import { settingProblem, type AlgorithmSetting, type PasswordAlgorithm } from "./algorithms.js"
import { PBKDF2_DEFAULTS, type Pbkdf2Params } from "./pbkdf2.js"
import { nodePasswordCrypto } from "./runtime.js"
import { SCRYPT_DEFAULTS, type ScryptParams } from "./scrypt.js"

/**
 * An app's own hashing, replacing the built-in one: given the NFKC-normalised password, the string
 * to store. Pair it with a `verify` hook that knows the format.
 *
 * @example
 * ```ts
 * const hash: PasswordHashHook = (password) => argon2.hash(password)
 * ```
 */
export type PasswordHashHook = (password: string) => Promise<string> | string

/**
 * What a `verify` hook answers: whether the password matches, and optionally whether the hash should
 * be replaced (when left out: true, unless a `hash` hook makes the hook's format the current one).
 *
 * @example
 * ```ts
 * const verdict: PasswordHookVerdict = { valid: await bcrypt.compare(password, stored), needsRehash: true }
 * ```
 */
export type PasswordHookVerdict = boolean | { valid: boolean; needsRehash?: boolean }

/**
 * An app's verifier for stored strings that are not a built-in format (bcrypt hashes from an older
 * system, say). It gets the password as typed (older systems did not normalise), the stored string,
 * and the NFKC-normalised password (what a `hash` hook was given).
 *
 * @example
 * ```ts
 * const verify: PasswordVerifyHook = (password, stored) => bcrypt.compare(password, stored)
 * ```
 */
export type PasswordVerifyHook = (password: string, stored: string, normalized: string) => Promise<PasswordHookVerdict> | PasswordHookVerdict

/**
 * How passwords are hashed and checked.
 *
 * @example
 * ```ts
 * const options: PasswordHashOptions = { algorithm: "pbkdf2-sha256", verify: (password, stored) => bcrypt.compare(password, stored) }
 * const stored = await hashPassword(password, options)
 * const { valid } = await verifyPassword(password, stored, options)
 * ```
 */
export interface PasswordHashOptions {
  /**
   * The built-in algorithm of new hashes; hashes of either are verified wherever their primitive
   * exists (scrypt needs `node:crypto`; PBKDF2 runs on WebCrypto everywhere). Set it when one user
   * table serves both Node and an edge runtime: scrypt hashes cannot be checked on the edge.
   *
   * @default "scrypt" where `node:crypto` has scrypt, otherwise "pbkdf2-sha256"
   */
  algorithm?: PasswordAlgorithm
  /**
   * scrypt's cost parameters (OWASP's minimum by default).
   *
   * @default { ln: 17, r: 8, p: 1 }
   */
  scrypt?: Partial<ScryptParams>
  /**
   * PBKDF2's iteration count (OWASP's minimum for HMAC-SHA256 by default).
   *
   * @default { iterations: 600000 }
   */
  pbkdf2?: Partial<Pbkdf2Params>
  /**
   * Replaces the built-in hashing of new passwords (then `algorithm`, `scrypt` and `pbkdf2` only
   * matter for verifying built-in hashes, all of which then need rehashing).
   *
   * @default undefined (built-in hashing)
   */
  hash?: PasswordHashHook
  /**
   * Verifies stored strings that are not a built-in format. Without it, such a string is
   * `{ valid: false }` with a `PasswordHashUnknownFormat` error.
   *
   * @default undefined (only built-in formats verify)
   */
  verify?: PasswordVerifyHook
}

/**
 * The way new hashes are made now: a built-in algorithm with its parameters, or the app's hook.
 *
 * @example
 * ```ts
 * const current: CurrentHashing = currentHashing(options)
 * if (current.algorithm === "scrypt") console.log(current.params.ln)
 * ```
 */
export type CurrentHashing = AlgorithmSetting | { algorithm: "custom"; hash: PasswordHashHook }

/**
 * The way new hashes are made under these options. Throws a RangeError on parameters out of
 * bounds: a configuration mistake, found on the first use.
 *
 * @example
 * ```ts
 * currentHashing({})                                  // { algorithm: "scrypt", params: { ln: 17, r: 8, p: 1 } } on Node
 * currentHashing({ algorithm: "pbkdf2-sha256" })      // { algorithm: "pbkdf2-sha256", params: { iterations: 600000 } }
 * ```
 */
export function currentHashing(options: PasswordHashOptions): CurrentHashing {
  if (options.hash) return { algorithm: "custom", hash: options.hash }
  const algorithm = options.algorithm ?? (nodePasswordCrypto() ? "scrypt" : "pbkdf2-sha256")
  let setting: AlgorithmSetting
  if (algorithm === "scrypt") {
    const { ln = SCRYPT_DEFAULTS.ln, r = SCRYPT_DEFAULTS.r, p = SCRYPT_DEFAULTS.p } = options.scrypt ?? {}
    setting = { algorithm, params: { ln, r, p } }
  } else if (algorithm === "pbkdf2-sha256") {
    setting = { algorithm, params: { iterations: options.pbkdf2?.iterations ?? PBKDF2_DEFAULTS.iterations } }
  }
  else throw new RangeError(`algorithm must be "scrypt" or "pbkdf2-sha256", not ${JSON.stringify(algorithm)}`)
  const problem = settingProblem(setting)
  if (problem) throw new RangeError(`Password hashing with ${algorithm}: ${problem}`)
  return setting
}
