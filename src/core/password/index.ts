/**
 * The primitives of password sign-in: hashing new passwords (scrypt on `node:crypto`, PBKDF2 on
 * WebCrypto elsewhere, as PHC strings), verifying them in constant time with a rehash signal,
 * a dummy check that equalises time for unknown users, and NIST SP 800-63B's length rules with a
 * hook for a breached-password check. Pure functions: the machines decide, these compute.
 *
 * @example
 * ```ts
 * import { checkNewPassword, dummyVerify, hashPassword, verifyPassword } from "./core/password/index.js"
 *
 * const verdict = await checkNewPassword(form.password, { minLength: 15 })
 * if (verdict.ok) await saveUser({ email, passwordHash: await hashPassword(form.password) })
 *
 * const user = await findUserByEmail(email)
 * const { valid, needsRehash } = user ? await verifyPassword(password, user.passwordHash) : await dummyVerify(password)
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html#passwordver
 * @module
 */
export { KEY_BYTES, SALT_BYTES, type PasswordAlgorithm } from "./algorithms.js"
export { sameBytes } from "./constant-time.js"
export { dummyVerify } from "./dummy.js"
export { PasswordHashError, type PasswordHashErrorType } from "./errors.js"
export { hashPassword } from "./hash.js"
export { currentHashing, type CurrentHashing, type PasswordHashHook, type PasswordHashOptions, type PasswordHookVerdict, type PasswordVerifyHook } from "./options.js"
export { PBKDF2_DEFAULTS, type Pbkdf2Params } from "./pbkdf2.js"
export { decodePhcBase64, encodePhcBase64, parsePhc, type PhcHash } from "./phc.js"
export {
  checkNewPassword,
  checkPasswordRules,
  normalizePassword,
  type PasswordCheck,
  type PasswordRules,
  type PasswordRuleViolation,
  type PasswordVerdict,
} from "./rules.js"
export { SCRYPT_DEFAULTS, type ScryptParams } from "./scrypt.js"
export { verifyPassword, type PasswordVerification } from "./verify.js"
