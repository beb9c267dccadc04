/**
 * The `otpauth://` URI that authenticator apps read from a QR code, per the Key Uri Format.
 *
 * @module
 */
import { base32Encode } from "./base32.js"
import { TOTP_DEFAULTS, type OtpAlgorithm } from "./totp.js"

/**
 * What an `otpauth://totp/` URI carries.
 *
 * @example
 * ```ts
 * const options: OtpauthUriOptions = { issuer: "Acme", accountName: "ada@example.com", secret: newTotpSecret() }
 * ```
 * @see https://github.com/google/google-authenticator/wiki/Key-Uri-Format
 */
export interface OtpauthUriOptions {
  /** Who issues the code, shown by the app above the account (the app's name). No colon: see {@link otpauthUri}. */
  issuer: string
  /** Whose code it is, usually the user's email address. */
  accountName: string
  /** The shared secret, as raw bytes (written base32, without padding). */
  secret: Uint8Array
  /**
   * The HMAC hash. Some apps (Google Authenticator among them) ignore anything but SHA-1.
   * @default "SHA-1"
   */
  algorithm?: OtpAlgorithm
  /**
   * The code's length.
   * @default 6
   */
  digits?: number
  /**
   * Seconds each code lasts.
   * @default 30
   */
  period?: number
}

// The Key Uri Format writes the hash without its dash.
const URI_ALGORITHM: Readonly<Record<OtpAlgorithm, string>> = { "SHA-1": "SHA1", "SHA-256": "SHA256", "SHA-512": "SHA512" }

// Percent-encoding per RFC 3986: spaces as %20, never "+".
const encode = (value: string) => encodeURIComponent(value)

/**
 * The `otpauth://totp/` URI of a TOTP secret: the label `Issuer:account` percent-encoded, the
 * secret in base32 without padding, the issuer again as a parameter (apps that read only one of
 * the two still show it), and the algorithm, digits and period, written even at their defaults.
 *
 * Apps split the label at its first colon, literal or encoded (`%3A`), so an issuer with a colon
 * would be cut in two: it is refused (a TypeError, raised on the first enrolment). A colon in the
 * account name is harmless, after the split, and is kept (encoded).
 *
 * @example
 * ```ts
 * otpauthUri({ issuer: "Acme Co", accountName: "ada@example.com", secret })
 * // "otpauth://totp/Acme%20Co:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Acme%20Co&algorithm=SHA1&digits=6&period=30"
 * ```
 * @see https://github.com/google/google-authenticator/wiki/Key-Uri-Format
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-4
 */
export function otpauthUri(options: OtpauthUriOptions): string {
  const { issuer, accountName, secret, algorithm = TOTP_DEFAULTS.algorithm, digits = TOTP_DEFAULTS.digits, period = TOTP_DEFAULTS.period } = options
  if (!issuer || !accountName) throw new TypeError("An otpauth URI needs an issuer and an account name")
  if (issuer.includes(":")) throw new TypeError(`An otpauth issuer cannot contain a colon (apps split the label there): ${issuer}`)
  if (!(algorithm in URI_ALGORITHM)) throw new RangeError(`TOTP algorithm must be SHA-1, SHA-256 or SHA-512, not ${String(algorithm)}`)
  const parameters = [
    `secret=${base32Encode(secret)}`,
    `issuer=${encode(issuer)}`,
    `algorithm=${URI_ALGORITHM[algorithm]}`,
    `digits=${digits}`,
    `period=${period}`,
  ]
  return `otpauth://totp/${encode(issuer)}:${encode(accountName)}?${parameters.join("&")}`
}
