/**
 * What the model tests of the Password provider's link machines share: a world with a Password
 * provider that mails (every mail recorded), and the links its mails carry, sealed as the server
 * seals them: valid, expired, or bound to an address.
 */
import { vi } from "vitest"
import { linkBindings, sealPasswordLink, type PasswordLinkPurpose } from "../../src/actions/password/link-token.js"
import { addressBinding } from "../../src/actions/password/mails.js"
import type { PasswordMail } from "../../src/types.js"

export const linkSecret = "model-secret-for-password-links"

/** A token of `purpose` for `userId` at `email` (a new address for a change), bound to that address; sealed a day and more ago with `expired`. */
export async function linkToken(purpose: PasswordLinkPurpose, claims: { userId: string; email: string; newEmail?: string }, expired = false): Promise<string> {
  const [bound] = await linkBindings(linkSecret, addressBinding(claims.userId, claims.email))
  if (!expired) return sealPasswordLink(linkSecret, purpose, { ...claims, bound: bound! })
  vi.useFakeTimers({ now: Date.now() - 25 * 60 * 60 * 1000, toFake: ["Date"] })
  try {
    return await sealPasswordLink(linkSecret, purpose, { ...claims, bound: bound! })
  } finally {
    vi.useRealTimers()
  }
}

/** A `sendMail` that records each mail's kind and address, and fails when `fails` says so. */
export function recordingMailer(fails: boolean) {
  const mails: { kind: PasswordMail["kind"]; to: string }[] = []
  const sendMail = (mail: PasswordMail) => {
    mails.push({ kind: mail.kind, to: mail.to })
    if (fails) throw new Error("SMTP down")
  }
  return { mails, sendMail }
}
