/**
 * The built-in password hashing algorithms side by side: their PHC ids and parameters, how a stored
 * hash is read back (within bounds), and key derivation on whichever primitive the runtime has.
 *
 * @module
 */
import { PasswordHashError } from "./errors.js"
import { pbkdf2Key, pbkdf2ParamsProblem, type Pbkdf2Params } from "./pbkdf2.js"
import { decimalParam, parsePhc } from "./phc.js"
import { nodePasswordCrypto } from "./runtime.js"
import { scryptKey, scryptParamsProblem, type ScryptParams } from "./scrypt.js"

/**
 * The algorithms authflow hashes and verifies itself, by their PHC ids.
 *
 * @example
 * ```ts
 * const algorithm: PasswordAlgorithm = "pbkdf2-sha256" // the same hashes on Node and the edge
 * ```
 */
export type PasswordAlgorithm = "scrypt" | "pbkdf2-sha256"

/**
 * A built-in algorithm with its parameters.
 *
 * @example
 * ```ts
 * const setting: AlgorithmSetting = { algorithm: "scrypt", params: { ln: 17, r: 8, p: 1 } }
 * ```
 */
export type AlgorithmSetting = { algorithm: "scrypt"; params: ScryptParams } | { algorithm: "pbkdf2-sha256"; params: Pbkdf2Params }

/**
 * A stored hash of a built-in algorithm, read back.
 *
 * @example
 * ```ts
 * const stored: StoredHash | undefined = readStoredHash(user.passwordHash)
 * ```
 */
export type StoredHash = AlgorithmSetting & { salt: Uint8Array<ArrayBuffer>; hash: Uint8Array<ArrayBuffer> }

/**
 * Bytes of random salt in a new hash (128 bits, as NIST SP 800-132 asks at least).
 *
 * @example
 * ```ts
 * parsePhc(await hashPassword("pw"))!.salt.length === SALT_BYTES // true
 * ```
 */
export const SALT_BYTES = 16
/**
 * Bytes of derived key in a new hash.
 *
 * @example
 * ```ts
 * parsePhc(await hashPassword("pw"))!.hash.length === KEY_BYTES // true
 * ```
 */
export const KEY_BYTES = 32

// What a stored hash may have: a short key would let wrong passwords match (one byte: 1 in 256).
const SALT_RANGE = [8, 64] as const
const KEY_RANGE = [16, 64] as const

/**
 * The parameters as the PHC string writes them, in order.
 *
 * @example
 * ```ts
 * paramList({ algorithm: "scrypt", params: { ln: 17, r: 8, p: 1 } }) // [["ln", 17], ["r", 8], ["p", 1]]
 * ```
 */
export function paramList(setting: AlgorithmSetting): Array<[string, number]> {
  return setting.algorithm === "scrypt"
    ? [
        ["ln", setting.params.ln],
        ["r", setting.params.r],
        ["p", setting.params.p],
      ]
    : [["i", setting.params.iterations]]
}

/**
 * Why the setting's parameters are unusable, or undefined when they are fine.
 *
 * @example
 * ```ts
 * settingProblem({ algorithm: "pbkdf2-sha256", params: { iterations: 0 } }) // "iterations must be …"
 * ```
 */
export function settingProblem(setting: AlgorithmSetting): string | undefined {
  return setting.algorithm === "scrypt" ? scryptParamsProblem(setting.params) : pbkdf2ParamsProblem(setting.params)
}

/**
 * The built-in algorithm a stored string claims to be (by its leading `$id$`), or undefined for any
 * other string: those go to the app's `verify` hook.
 *
 * @example
 * ```ts
 * builtInAlgorithmOf("$scrypt$ln=17,r=8,p=1$…$…") // "scrypt"
 * builtInAlgorithmOf("$2b$12$…")                  // undefined
 * ```
 */
export function builtInAlgorithmOf(stored: string): PasswordAlgorithm | undefined {
  if (stored.startsWith("$scrypt$")) return "scrypt"
  if (stored.startsWith("$pbkdf2-sha256$")) return "pbkdf2-sha256"
  return undefined
}

function onlyKeys(params: ReadonlyMap<string, string>, keys: readonly string[]): boolean {
  return params.size === keys.length && keys.every((key) => params.has(key))
}

function settingOf(id: string, params: ReadonlyMap<string, string>): AlgorithmSetting | undefined {
  if (id === "scrypt" && onlyKeys(params, ["ln", "r", "p"])) {
    const [ln, r, p] = ["ln", "r", "p"].map((key) => decimalParam(params.get(key)))
    if (ln === undefined || r === undefined || p === undefined) return undefined
    return { algorithm: "scrypt", params: { ln, r, p } }
  }
  if (id === "pbkdf2-sha256" && onlyKeys(params, ["i"])) {
    const iterations = decimalParam(params.get("i"))
    return iterations === undefined ? undefined : { algorithm: "pbkdf2-sha256", params: { iterations } }
  }
  return undefined
}

/**
 * A stored built-in hash read back, or undefined when it is malformed: not a PHC string, unknown or
 * missing parameters, parameters out of bounds, or a salt or key of an implausible length.
 *
 * @example
 * ```ts
 * readStoredHash("$pbkdf2-sha256$i=600000$…$…") // { algorithm: "pbkdf2-sha256", params: { iterations: 600000 }, salt, hash }
 * ```
 */
export function readStoredHash(stored: string): StoredHash | undefined {
  const phc = parsePhc(stored)
  if (!phc) return undefined
  const setting = settingOf(phc.id, phc.params)
  if (!setting || settingProblem(setting) !== undefined) return undefined
  if (phc.salt.length < SALT_RANGE[0] || phc.salt.length > SALT_RANGE[1]) return undefined
  if (phc.hash.length < KEY_RANGE[0] || phc.hash.length > KEY_RANGE[1]) return undefined
  return { ...setting, salt: phc.salt, hash: phc.hash }
}

/**
 * The key the setting derives from the (normalised, UTF-8) password and salt: scrypt on
 * `node:crypto`, PBKDF2 on WebCrypto. Throws a `PasswordHashUnavailable` {@link PasswordHashError}
 * where the primitive is missing or refuses the parameters.
 *
 * @example
 * ```ts
 * const key = await deriveKey({ algorithm: "pbkdf2-sha256", params: { iterations: 600_000 } }, passwordBytes, salt, 32)
 * ```
 */
export async function deriveKey(setting: AlgorithmSetting, password: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, keyLength: number): Promise<Uint8Array> {
  if (setting.algorithm === "scrypt") {
    const node = nodePasswordCrypto()
    if (!node) {
      throw new PasswordHashError(
        "PasswordHashUnavailable",
        'scrypt needs node:crypto, which this runtime lacks: where passwords are hashed or checked on an edge runtime, hash them with algorithm "pbkdf2-sha256" everywhere',
      )
    }
    try {
      return await scryptKey(node, password, salt, setting.params, keyLength)
    } catch (error) {
      throw new PasswordHashError("PasswordHashUnavailable", "node:crypto's scrypt failed", error)
    }
  }
  try {
    return await pbkdf2Key(password, salt, setting.params, keyLength)
  } catch (error) {
    throw new PasswordHashError("PasswordHashUnavailable", `WebCrypto's PBKDF2 failed with ${setting.params.iterations} iterations (Cloudflare Workers allow at most 100,000)`, error)
  }
}
