/**
 * The second factor's primitives, bundled and run inside the `edge-runtime` VM (no Node built-ins,
 * so key derivation and the JWE take their WebCrypto paths). `run()` answers what it computed, for
 * the test in Node to compare with Node's own results.
 */
import {
  base32Decode,
  emailCodeMatches,
  hashBackupCode,
  hashEmailCode,
  openFactorSecret,
  qrCodeSvg,
  sealFactorSecret,
  totpCode,
  verifyTotp,
} from "../../src/core/second-factor/index.js"

/** Runs the primitives with `secret` as the auth secret; `sealedInNode` was sealed by Node with it. */
export async function run(secret: string, sealedInNode: string) {
  // The 64-byte ASCII seed of RFC 6238 for SHA-512.
  const seed = base32Decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA")!
  const sealed = await sealFactorSecret(seed, secret)
  return {
    hasNodeCrypto: typeof (globalThis as { process?: { getBuiltinModule?: unknown } }).process?.getBuiltinModule === "function",
    rfc6238Sha512: await totpCode(seed, { now: 59_000, algorithm: "SHA-512", digits: 8 }),
    verified: await verifyTotp(seed, "90693936", { now: 59_000, algorithm: "SHA-512", digits: 8 }),
    sealed,
    reopened: Array.from((await openFactorSecret(sealed, secret)) ?? []),
    openedFromNode: Array.from((await openFactorSecret(sealedInNode, secret)) ?? []),
    backupCodeHash: await hashBackupCode("k7m2q-x9c4h", secret),
    emailCodeHash: await hashEmailCode("038114", secret),
    emailCodeMatches: await emailCodeMatches("038 114", await hashEmailCode("038114", secret), secret),
    qrLength: qrCodeSvg("otpauth://totp/Acme:ada?secret=GEZDGNBVGY3TQOJQ").length,
  }
}
