/**
 * A software TOTP authenticator for tests: what a phone app does with the secret shown at
 * enrolment, so a test can enrol, then sign in with the current code, a stale one or a replayed one.
 *
 * @example
 * ```ts
 * import { totpFromUri } from "authflow/testing"
 * const app = totpFromUri(uriShownOnTheEnrolmentPage)
 * const code = await app.code() // type it into the second-factor form
 * ```
 * @module
 */
import { base32Decode } from "../core/second-factor/base32.js"
import { TOTP_DEFAULTS, totpCode, type OtpAlgorithm, type TotpOptions } from "../core/second-factor/totp.js"

/**
 * A software authenticator holding one TOTP secret.
 *
 * @example
 * ```ts
 * const app: SoftwareTotp = softwareTotp("JBSWY3DPEHPK3PXP")
 * await app.code()
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-4
 */
export interface SoftwareTotp {
  /** The secret's bytes. */
  readonly secret: Uint8Array
  /** How its codes are made. */
  readonly options: Required<Omit<TotpOptions, "now">>
  /**
   * The code at `now` (milliseconds since the epoch).
   * @default Date.now()
   */
  code(now?: number): Promise<string>
}

/**
 * A software authenticator read from an `otpauth://` URI, with the label's parts.
 *
 * @example
 * ```ts
 * const app: SoftwareTotpFromUri = totpFromUri(uri)
 * app.issuer // "Acme"
 * ```
 * @see https://github.com/google/google-authenticator/wiki/Key-Uri-Format
 */
export interface SoftwareTotpFromUri extends SoftwareTotp {
  /** The issuer: the `issuer` parameter, or the label's part before the colon. */
  readonly issuer: string | undefined
  /** The account, the label's part after the colon (or the whole label). */
  readonly accountName: string
}

/**
 * A software authenticator for a base32 secret (as an enrolment page shows it for typing in;
 * spaces and lower case are fine).
 *
 * @example
 * ```ts
 * import { softwareTotp } from "authflow/testing"
 * const app = softwareTotp("JBSW Y3DP EHPK 3PXP")
 * await app.code()                         // the current code
 * await app.code(Date.now() - 60_000)      // a code two steps old: refused with the default window
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238#section-4
 */
export function softwareTotp(secretBase32: string, options: Omit<TotpOptions, "now"> = {}): SoftwareTotp {
  const secret = base32Decode(secretBase32)
  if (secret === null || secret.length === 0) throw new TypeError(`Not a base32 TOTP secret: ${JSON.stringify(secretBase32)}`)
  const settings = { ...TOTP_DEFAULTS, ...options }
  return {
    secret,
    options: settings,
    code: (now = Date.now()) => totpCode(secret, { ...settings, now }),
  }
}

const ALGORITHMS: Readonly<Record<string, OtpAlgorithm>> = { SHA1: "SHA-1", SHA256: "SHA-256", SHA512: "SHA-512" }

function numberParameter(url: URL, name: string, fallback: number): number {
  const value = url.searchParams.get(name)
  if (value === null) return fallback
  if (!/^[0-9]+$/.test(value)) throw new TypeError(`The otpauth URI's ${name} is not a number: ${value}`)
  return Number(value)
}

/**
 * A software authenticator for an `otpauth://totp/` URI, read as an authenticator app reads the
 * QR code: the secret, algorithm, digits and period, with the Key Uri Format's defaults for those
 * left out. Throws a TypeError for an URI an app would refuse (another scheme, `hotp`, no secret).
 *
 * @example
 * ```ts
 * import { totpFromUri } from "authflow/testing"
 * const app = totpFromUri("otpauth://totp/Acme:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Acme")
 * app.accountName   // "ada@example.com"
 * await app.code()  // "492039"
 * ```
 * @see https://github.com/google/google-authenticator/wiki/Key-Uri-Format
 */
export function totpFromUri(otpauthUri: string): SoftwareTotpFromUri {
  const url = new URL(otpauthUri)
  if (url.protocol !== "otpauth:" || url.host !== "totp") throw new TypeError(`Not an otpauth://totp/ URI: ${otpauthUri}`)
  const secret = url.searchParams.get("secret")
  if (!secret) throw new TypeError("The otpauth URI has no secret")
  const algorithmName = (url.searchParams.get("algorithm") ?? "SHA1").toUpperCase()
  const algorithm = ALGORITHMS[algorithmName]
  if (!algorithm) throw new TypeError(`The otpauth URI's algorithm is not SHA1, SHA256 or SHA512: ${algorithmName}`)
  const app = softwareTotp(secret, {
    algorithm,
    digits: numberParameter(url, "digits", TOTP_DEFAULTS.digits),
    period: numberParameter(url, "period", TOTP_DEFAULTS.period),
  })
  // The label is `Issuer:account` or `account`, split at the first colon, literal or %3A.
  const label = /^\/(?:(.*?)(?::|%3A))?(.*)$/i.exec(url.pathname)!
  const accountName = decodeURIComponent(label[2]!).trim()
  const labelIssuer = label[1] === undefined ? undefined : decodeURIComponent(label[1])
  return { ...app, issuer: url.searchParams.get("issuer") ?? labelIssuer, accountName }
}
