/**
 * HOTP (RFC 4226) and TOTP (RFC 6238) on WebCrypto HMAC (`globalThis.crypto.subtle`), so the same
 * code runs on Node and on edge runtimes. Verification finds the matching time step and hands it
 * back: refusing a step already used (replay) is the caller's decision, made in its machine.
 *
 * @module
 */
import { sameInConstantTime } from "./constant-time.js"

/**
 * The HMAC hash of a one-time password: RFC 6238 allows SHA-1, SHA-256 and SHA-512.
 *
 * @example
 * ```ts
 * const algorithm: OtpAlgorithm = "SHA-256"
 * await totpCode(newTotpSecret(32), { algorithm })
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-1.2
 */
export type OtpAlgorithm = "SHA-1" | "SHA-256" | "SHA-512"

/**
 * How codes are made: the same for generating and verifying, and the `otpauth://` URI's parameters.
 *
 * @example
 * ```ts
 * const options: TotpOptions = { algorithm: "SHA-1", digits: 6, period: 30 }
 * await totpCode(secret, options)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-4.1
 */
export interface TotpOptions {
  /**
   * The HMAC hash.
   * @default "SHA-1"
   */
  algorithm?: OtpAlgorithm
  /**
   * The code's length, 6 to 8 digits.
   * @default 6
   */
  digits?: number
  /**
   * Seconds each code lasts (the time step X of RFC 6238).
   * @default 30
   */
  period?: number
  /**
   * The time in milliseconds since the epoch.
   * @default Date.now()
   */
  now?: number
}

/**
 * Options of {@link verifyTotp}: those of the code, plus how many steps around now are accepted.
 *
 * @example
 * ```ts
 * await verifyTotp(secret, typed, { window: 1, digits: 6 }) // { step } or null
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-5.2
 */
export interface VerifyTotpOptions extends TotpOptions {
  /**
   * Steps accepted on each side of the current one, for clock drift and typing time
   * (RFC 6238 section 5.2 recommends at most one).
   * @default 1
   */
  window?: number
}

/**
 * The defaults of {@link TotpOptions}, as the Key Uri Format and most authenticator apps assume them.
 *
 * @example
 * ```ts
 * TOTP_DEFAULTS.period // 30
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-4.1
 */
export const TOTP_DEFAULTS = { algorithm: "SHA-1", digits: 6, period: 30 } as const satisfies Required<Omit<TotpOptions, "now">>

const ALGORITHMS: ReadonlySet<string> = new Set<OtpAlgorithm>(["SHA-1", "SHA-256", "SHA-512"])

interface CodeShape {
  algorithm: OtpAlgorithm
  digits: number
  period: number
}

// Options reach here from configuration: a wrong one is a programming error, thrown at once.
function codeShape(options: TotpOptions): CodeShape {
  const { algorithm = TOTP_DEFAULTS.algorithm, digits = TOTP_DEFAULTS.digits, period = TOTP_DEFAULTS.period } = options
  if (!ALGORITHMS.has(algorithm)) throw new RangeError(`TOTP algorithm must be SHA-1, SHA-256 or SHA-512, not ${String(algorithm)}`)
  if (!Number.isInteger(digits) || digits < 6 || digits > 8) throw new RangeError(`TOTP digits must be 6, 7 or 8, not ${digits}`)
  if (!Number.isInteger(period) || period < 1) throw new RangeError(`TOTP period must be a whole number of seconds, not ${period}`)
  return { algorithm, digits, period }
}

function hmacKey(secret: Uint8Array, algorithm: OtpAlgorithm): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey("raw", new Uint8Array(secret), { name: "HMAC", hash: algorithm }, false, ["sign"])
}

// RFC 4226 section 5.3: the counter as 8 bytes big-endian, HMAC, dynamic truncation, modulo 10^digits.
async function codeAt(key: CryptoKey, counter: number, digits: number): Promise<string> {
  const message = new Uint8Array(8)
  const view = new DataView(message.buffer)
  view.setUint32(0, Math.floor(counter / 2 ** 32))
  view.setUint32(4, counter >>> 0)
  const mac = new DataView(await globalThis.crypto.subtle.sign("HMAC", key, message))
  const offset = mac.getUint8(mac.byteLength - 1) & 0x0f
  const binary = mac.getUint32(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, "0")
}

// Whole periods since T0 = 0; a time before the epoch has no step.
function stepAt(now: number, period: number): number {
  const step = Math.floor(now / 1000 / period)
  checkCounter(step)
  return step
}

function checkCounter(counter: number): void {
  if (!Number.isSafeInteger(counter) || counter < 0) throw new RangeError(`An HOTP counter must be a non-negative integer, not ${counter}`)
}

/**
 * The HOTP value of `secret` at `counter`.
 *
 * @example
 * ```ts
 * const secret = new TextEncoder().encode("12345678901234567890")
 * await hotpCode(secret, 0) // "755224"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc4226#section-5.3
 */
export async function hotpCode(secret: Uint8Array, counter: number, options: Omit<TotpOptions, "now" | "period"> = {}): Promise<string> {
  const { algorithm, digits } = codeShape(options)
  checkCounter(counter)
  return codeAt(await hmacKey(secret, algorithm), counter, digits)
}

/**
 * The TOTP time step at `now`: whole periods since the Unix epoch (T0 = 0).
 *
 * @example
 * ```ts
 * totpStep(59_000) // 1
 * totpStep(59_000, { period: 60 }) // 0
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-4.2
 */
export function totpStep(now: number = Date.now(), options: Pick<TotpOptions, "period"> = {}): number {
  return stepAt(now, codeShape(options).period)
}

/**
 * The TOTP code of `secret` at `now` (or at the current time).
 *
 * @example
 * ```ts
 * const secret = newTotpSecret()
 * const code = await totpCode(secret) // "492039"
 * await totpCode(secret, { now: Date.now() - 30_000 }) // the previous code
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-4.2
 */
export async function totpCode(secret: Uint8Array, options: TotpOptions = {}): Promise<string> {
  const { algorithm, digits, period } = codeShape(options)
  return codeAt(await hmacKey(secret, algorithm), stepAt(options.now ?? Date.now(), period), digits)
}

/**
 * The code as typed, with spaces removed ("123 456" reads as "123456"), when it is `digits` ASCII
 * digits; null otherwise.
 *
 * @example
 * ```ts
 * normalizeTotpCode(" 123 456 ") // "123456"
 * normalizeTotpCode("12345a")    // null
 * normalizeTotpCode("1234567")   // null (6 digits expected)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc4226#section-5.3
 */
export function normalizeTotpCode(code: string, digits: number = TOTP_DEFAULTS.digits): string | null {
  if (typeof code !== "string") return null
  const compact = code.replace(/\s/g, "")
  return compact.length === digits && /^[0-9]+$/.test(compact) ? compact : null
}

/**
 * Checks a TOTP code against the steps from `window` before now to `window` after, and returns the
 * step it matched, or null. Every step in the window is computed and compared in constant time, so
 * the answer's timing tells nothing about which step (or digit) matched. A code that is not
 * `digits` digits once spaces are removed is refused without computing anything.
 *
 * The caller keeps the last accepted step per user and refuses a match at or before it: that is the
 * replay protection of RFC 6238 section 5.2. When a code matches more than one step (a chance of
 * one in 10^digits per pair), the latest step is returned, so a fresh code is never taken for an
 * old one.
 *
 * @example
 * ```ts
 * const match = await verifyTotp(secret, "123 456")
 * if (match && match.step > lastUsedStep) accept(match.step)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-5.2
 * @see https://www.rfc-editor.org/rfc/rfc4226#section-7.2
 */
export async function verifyTotp(secret: Uint8Array, code: string, options: VerifyTotpOptions = {}): Promise<{ step: number } | null> {
  const { algorithm, digits, period } = codeShape(options)
  const { window = 1 } = options
  if (!Number.isInteger(window) || window < 0) throw new RangeError(`TOTP window must be a non-negative integer, not ${window}`)
  const typed = normalizeTotpCode(code, digits)
  if (typed === null) return null
  const current = stepAt(options.now ?? Date.now(), period)
  const key = await hmacKey(secret, algorithm)
  let matched: number | null = null
  for (let step = Math.max(0, current - window); step <= current + window; step++) {
    if (sameInConstantTime(await codeAt(key, step, digits), typed)) matched = step
  }
  return matched === null ? null : { step: matched }
}

/**
 * A new TOTP secret: 20 random bytes (160 bits), the length RFC 4226 recommends and SHA-1's block
 * of output. Pass 32 or 64 for SHA-256 or SHA-512 if you want the key as long as the hash.
 *
 * @example
 * ```ts
 * const secret = newTotpSecret()
 * otpauthUri({ issuer: "Acme", accountName: "ada@example.com", secret })
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc4226#section-4
 */
export function newTotpSecret(byteLength: number = 20): Uint8Array {
  if (!Number.isInteger(byteLength) || byteLength < 16) throw new RangeError(`A TOTP secret needs at least 16 bytes (128 bits), not ${byteLength}`)
  return globalThis.crypto.getRandomValues(new Uint8Array(byteLength))
}
