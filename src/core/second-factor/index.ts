/**
 * The primitives of the second factor: TOTP (RFC 6238) and HOTP (RFC 4226) on WebCrypto, base32,
 * `otpauth://` URIs and their QR codes as SVG, backup codes and emailed codes stored as keyed
 * hashes, and factor secrets sealed at rest. Pure functions: the machines decide, these compute.
 *
 * @example
 * ```ts
 * import { newTotpSecret, otpauthUri, qrCodeSvg, sealFactorSecret, verifyTotp } from "./core/second-factor/index.js"
 *
 * const secret = newTotpSecret()
 * const svg = qrCodeSvg(otpauthUri({ issuer: "Acme", accountName: "ada@example.com", secret }), { label: "Scan to add Acme" })
 * const sealed = await sealFactorSecret(secret, process.env.AUTH_SECRET!)
 * const match = await verifyTotp(secret, "123 456") // { step } or null
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6238
 * @module
 */
export { base32Decode, base32Encode } from "./base32.js"
export { BACKUP_CODE_ALPHABET, BACKUP_CODE_LENGTH, BACKUP_CODE_SALT, backupCodeHashes, hashBackupCode, newBackupCodes, normalizeBackupCode } from "./backup-codes.js"
export { sameInConstantTime } from "./constant-time.js"
export { EMAIL_CODE_DIGITS, EMAIL_CODE_SALT, emailCodeMatches, emailCodeMatchesAny, hashEmailCode, newEmailCode, typedEmailCodeHashes } from "./email-code.js"
export { keyedHashes } from "./keyed-hash.js"
export { otpauthUri, type OtpauthUriOptions } from "./otpauth.js"
export { QR_ERROR_CORRECTION, QR_QUIET_ZONE, qrCodeSvg, type QrCodeSvgOptions } from "./qr.js"
export { uniformIntegers } from "./random.js"
export { FACTOR_SECRET_SALT, openFactorSecret, sealFactorSecret } from "./sealed-secret.js"
export {
  TOTP_DEFAULTS,
  hotpCode,
  newTotpSecret,
  normalizeTotpCode,
  totpCode,
  totpStep,
  verifyTotp,
  type OtpAlgorithm,
  type TotpOptions,
  type VerifyTotpOptions,
} from "./totp.js"
