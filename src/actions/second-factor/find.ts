/**
 * The facts the sign-in tail's second-factor guards read, looked up once the first factor passed.
 *
 * @module
 */
import type { AuthOptions } from "../../core/options.js"
import type { SecondFactorFound } from "../../machines/sign-in-tail.js"
import type { SignInOutcome } from "../issue-session.js"
import { revocationStoreOf } from "../../core/revocation-store.js"
import { factorsFingerprint, readTrustedDevice } from "./trusted-device.js"

/**
 * The user's authenticator apps and backup codes, whether the configuration requires a factor of
 * them, whether a code can be emailed, whether the first factor was a passkey with user
 * verification, and the trusted-device cookie of this browser. It reports; the guards decide.
 *
 * @example
 * ```ts
 * await secondFactorFacts(options, { user, account }) // { type: "secondFactor.found", factors: 1, backupCodes: 10, … }
 * ```
 */
export async function secondFactorFacts(options: AuthOptions, { user, account }: SignInOutcome): Promise<SecondFactorFound> {
  const settings = options.secondFactor!
  const adapter = options.adapter!
  const userId = user.id!
  const [factors, backupCodes, required, trustedDevice] = await Promise.all([
    adapter.listFactorsByUserId!(userId),
    adapter.countBackupCodes!(userId),
    settings.required({ user, account }),
    readTrustedDevice(options),
  ])
  // Only a browser that holds a trusted device asks whether the user's sessions were revoked since.
  const revokedAt = trustedDevice ? await revocationStoreOf(options.config).revokedAt([`user:${userId}`]) : undefined
  const provider = options.providers.find((candidate) => candidate.id === account.provider)
  const passkeyVerified = provider?.type === "webauthn" && (provider.verifyAuthenticationOptions?.requireUserVerification ?? true)
  return {
    type: "secondFactor.found",
    factors: factors.length,
    backupCodes,
    required: required === true,
    emailCode: settings.sendCode !== undefined && typeof user.email === "string" && user.email !== "",
    firstFactorEmail: provider?.type === "email",
    passkeyVerified,
    ...(trustedDevice && { trustedDevice }),
    current: { userId, fingerprint: factorsFingerprint(userId, factors), ...(revokedAt !== undefined && { revokedAt }) },
  }
}
