/**
 * The effects every flow waiting for an emailed code shares (see `machines/emailed-code.ts`): a
 * new code with its keyed hash and expiry, and the `hashCode` effect that hashes what was typed
 * under every secret.
 *
 * @module
 */
import { Concealed } from "../core/concealed.js"
import { hashEmailCode, newEmailCode, typedEmailCodeHashes } from "../core/second-factor/email-code.js"
import { EMAIL_CODE_LIFETIME } from "../core/second-factor-options.js"
import type { EmailedCodeContext, EmailedCodeEvent } from "../machines/emailed-code.js"
import type { AuthOptions } from "../core/options.js"

/**
 * A new 6-digit code (uniform, from the CSPRNG) to mail, concealed, with what the flow keeps: its
 * keyed hash under the first secret and when it dies (10 minutes from now, epoch ms).
 *
 * @example
 * ```ts
 * const { code, codeHash, expiresAt } = await mintEmailedCode(options.secret)
 * await sendMail({ to, code: code.reveal() })
 * ```
 */
export async function mintEmailedCode(secret: string | string[]): Promise<{ code: Concealed<string>; codeHash: string; expiresAt: number }> {
  const code = newEmailCode()
  return { code: new Concealed(code), codeHash: await hashEmailCode(code, secret), expiresAt: Date.now() + EMAIL_CODE_LIFETIME * 1000 }
}

/**
 * The `hashCode` effect of a code-checking machine: the typed code's keyed hashes under every
 * secret (a rotation during the code's 10 minutes does not void it; what is not 6 digits gets no
 * hash, so no code matches) and the time.
 *
 * @example
 * ```ts
 * const effects = { ...emailedCodeEffects(options), claimFlow, … }
 * ```
 */
export function emailedCodeEffects(options: Pick<AuthOptions, "secret">): { hashCode: (context: EmailedCodeContext) => Promise<EmailedCodeEvent> } {
  return {
    hashCode: async ({ typed }) => ({ type: "emailCode.hashed", hashes: await typedEmailCodeHashes(typed?.reveal() ?? "", options.secret), now: Date.now() }),
  }
}
