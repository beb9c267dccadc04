/**
 * What a new password must be, after NIST SP 800-63B: long enough and not too long, counted in
 * Unicode code points after NFKC normalisation, and nothing else (no composition rules such as
 * "one digit and one symbol"); plus a hook for the check NIST does ask for, against a list of
 * breached or common passwords.
 *
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html#passwordver
 * @module
 */

/**
 * Why a password breaks the length rules, or that it is not a string at all.
 *
 * @example
 * ```ts
 * const messages: Record<PasswordRuleViolation, string> = { "not-a-string": "Enter a password", "too-short": "At least 8 characters", "too-long": "At most 128 characters" }
 * ```
 */
export type PasswordRuleViolation = "not-a-string" | "too-short" | "too-long"

/**
 * The length rules.
 *
 * @example
 * ```ts
 * const rules: PasswordRules = { minLength: 15 } // the password is the only factor
 * ```
 */
export interface PasswordRules {
  /**
   * The fewest code points a password may have. NIST SP 800-63B rev. 4 asks for 15 when the password
   * is the only factor, 8 when a second factor always follows it.
   *
   * @default 8
   */
  minLength?: number
  /**
   * The most code points a password may have (NIST asks to allow at least 64).
   *
   * @default 128
   */
  maxLength?: number
}

/**
 * The verdict on a password: accepted, or refused with a reason.
 *
 * @example
 * ```ts
 * const verdict: PasswordVerdict<"breached"> = await checkNewPassword(password, { checkPassword: notBreached })
 * if (!verdict.ok) console.log(verdict.reason)
 * ```
 */
export type PasswordVerdict<Reason extends string = never> = { ok: true } | { ok: false; reason: PasswordRuleViolation | Reason }

/**
 * An app's own check of a new password, for instance against a breached-password list: called with
 * the NFKC-normalised password once the length rules pass. It answers `{ ok: true }` or refuses
 * with a reason of the app's choosing. A check that throws makes {@link checkNewPassword} throw:
 * whether an unreachable list lets passwords through is the check's decision (catch inside it).
 *
 * @example
 * ```ts
 * const notBreached: PasswordCheck<"breached"> = async (password) =>
 *   (await breachCount(password)) > 0 ? { ok: false, reason: "breached" } : { ok: true }
 * ```
 */
export type PasswordCheck<Reason extends string = string> = (password: string) => Promise<{ ok: true } | { ok: false; reason: Reason }>

/**
 * The password as it is hashed and measured: NFKC-normalised, so the same password typed as a
 * composed or a decomposed character (é as U+00E9 or as e + U+0301), or with a compatibility form
 * (a full-width letter), hashes the same.
 *
 * @example
 * ```ts
 * normalizePassword("e\u0301") === normalizePassword("\u00e9") // true
 * ```
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html#passwordver
 */
export function normalizePassword(password: string): string {
  return password.normalize("NFKC")
}

function codePoints(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

function limits({ minLength = 8, maxLength = 128 }: PasswordRules): { minLength: number; maxLength: number } {
  if (!Number.isInteger(minLength) || minLength < 1) throw new RangeError(`minLength must be a positive integer, not ${minLength}`)
  if (!Number.isInteger(maxLength) || maxLength < minLength) throw new RangeError(`maxLength must be an integer no less than minLength (${minLength}), not ${maxLength}`)
  return { minLength, maxLength }
}

/**
 * Whether a new password meets the length rules: a string of `minLength` to `maxLength` Unicode
 * code points once NFKC-normalised. Throws a RangeError on rules that make no sense (a
 * `maxLength` below `minLength`), never on the password.
 *
 * @example
 * ```ts
 * checkPasswordRules("correct horse battery staple") // { ok: true }
 * checkPasswordRules("short")                        // { ok: false, reason: "too-short" }
 * checkPasswordRules(42)                             // { ok: false, reason: "not-a-string" }
 * ```
 * @see https://pages.nist.gov/800-63-4/sp800-63b.html#passwordver
 */
export function checkPasswordRules(password: unknown, rules: PasswordRules = {}): PasswordVerdict {
  const { minLength, maxLength } = limits(rules)
  if (typeof password !== "string") return { ok: false, reason: "not-a-string" }
  // A bound before normalising megabytes: NFKC composes at most four code points into one (Greek
  // letters with three marks) and a code point takes at most two UTF-16 units, so input longer than
  // 16 units per allowed code point is surely too long.
  if (password.length > maxLength * 16) return { ok: false, reason: "too-long" }
  const length = codePoints(normalizePassword(password))
  if (length < minLength) return { ok: false, reason: "too-short" }
  if (length > maxLength) return { ok: false, reason: "too-long" }
  return { ok: true }
}

/**
 * The length rules, then the app's `checkPassword` (a breached-password list, for instance) on the
 * normalised password if they pass.
 *
 * @example
 * ```ts
 * const verdict = await checkNewPassword(form.password, { minLength: 15, checkPassword: notBreached })
 * if (!verdict.ok) return refuse(verdict.reason) // "too-short" | "too-long" | "not-a-string" | "breached"
 * ```
 */
export async function checkNewPassword<Reason extends string = never>(
  password: unknown,
  { checkPassword, ...rules }: PasswordRules & { checkPassword?: PasswordCheck<Reason> } = {},
): Promise<PasswordVerdict<Reason>> {
  const verdict = checkPasswordRules(password, rules)
  if (!verdict.ok || !checkPassword) return verdict
  return checkPassword(normalizePassword(password as string))
}
