/**
 * Setting a forgotten password's new one, shared by the reset link (`reset.ts`) and the reset code
 * (`reset-code.ts`): the rules and the app's `checkPassword`, the effects of the machines' shared
 * new-password steps, and the page where a reset code is typed.
 *
 * @module
 */
import { asError } from "../../core/as-error.js"
import { checkPasswordRules, hashPassword, normalizePassword } from "../../core/password/index.js"
import { linkBindings } from "./link-token.js"
import { passwordRouteUrl, sendPasswordMail } from "./mails.js"
import { endUserSessions } from "./sessions.js"
import { replacePasswordHash } from "./store.js"
import type { AuthOptions } from "../../core/options.js"
import type { OpenedLink } from "../../machines/password-link.js"
import type { NewPasswordEffect, NewPasswordEvent, NewPasswordReadEvent } from "../../machines/password-reset.js"
import type { CredentialsConfig, PasswordAccountsOptions } from "../../types.js"

/**
 * What the rules and the app's `checkPassword` say of a new password (`newPassword.read`, with the
 * problem when there is one): 8 to 128 code points after NFKC by default.
 *
 * @example
 * ```ts
 * await readNewPassword(provider.passwordAccounts!, "short") // { type: "newPassword.read", problem: "too-short" }
 * ```
 */
export async function readNewPassword(settings: PasswordAccountsOptions, password: unknown): Promise<NewPasswordReadEvent> {
  const rules = checkPasswordRules(password, { ...(settings.minLength !== undefined && { minLength: settings.minLength }), ...(settings.maxLength !== undefined && { maxLength: settings.maxLength }) })
  if (!rules.ok) return { type: "newPassword.read", problem: rules.reason }
  if (settings.checkPassword && !(await settings.checkPassword(normalizePassword(password as string)))) return { type: "newPassword.read", problem: "refused-password" }
  return { type: "newPassword.read" }
}

/**
 * The page where a reset code is typed with the new password: `<basePath>/reset-password/<id>?type=code`, with a query.
 *
 * @example
 * ```ts
 * resetCodePage(options, provider) // "https://app.test/auth/reset-password/password?type=code"
 * ```
 */
export function resetCodePage(options: AuthOptions, provider: CredentialsConfig, query: Record<string, string> = {}): string {
  return passwordRouteUrl(options, provider, "reset-password", { type: "code", ...query })
}

/**
 * The effects of setting a forgotten password's new one, shared by the reset link and the reset
 * code (see `newPasswordStates`): find the account and whether the mail is still bound to its
 * password hash (`boundOf` gives the keyed hash the mail carried), check the new `password`, write
 * its hash compare-and-set on the one found, mark the address verified, end the user's sessions,
 * mail `password-changed`.
 *
 * @example
 * ```ts
 * const effects = { ...newPasswordEffects(options, provider, body.password, ({ bound }) => bound), claimFlow, … }
 * ```
 */
export function newPasswordEffects<TContext extends { link?: OpenedLink }>(
  options: AuthOptions,
  provider: CredentialsConfig,
  password: unknown,
  boundOf: (context: TContext) => string,
): Record<NewPasswordEffect, (context: TContext) => Promise<NewPasswordEvent>> {
  const settings = provider.passwordAccounts!
  const adapter = options.adapter!
  let hash = ""
  return {
    findLinkedAccount: async (context) => {
      try {
        const user = await adapter.getUser!(context.link!.userId)
        const account = user && (await adapter.getAccount!(user.id, provider.id))
        if (!user || typeof account?.refresh_token !== "string" || account.refresh_token === "") return { type: "account.missing" }
        hash = account.refresh_token
        return { type: "account.found", bound: (await linkBindings(options.secret, hash)).includes(boundOf(context)), verified: user.emailVerified != null }
      } catch (error) {
        return { type: "lookup.failed", error }
      }
    },
    readNewPassword: () => readNewPassword(settings, password),
    writePassword: async ({ link }) => {
      try {
        // Compare-and-set on the hash the mail is bound to: of two writes, one wins.
        const written = await replacePasswordHash(adapter, provider.id, link!.userId, hash, await hashPassword(password as string, settings.hashing ?? {}))
        return written ? { type: "password.written" } : { type: "password.raced" }
      } catch (error) {
        return { type: "write.failed", error }
      }
    },
    markVerified: async ({ link }) => {
      try {
        await adapter.updateUser!({ id: link!.userId, emailVerified: new Date() })
        return { type: "email.verified" }
      } catch (error) {
        return { type: "verify.failed", error }
      }
    },
    endSessions: async ({ link }) => {
      const ended = await endUserSessions(options, link!.userId)
      if (ended.type === "sessions.failed") options.logger.error(asError(ended.error))
      return ended
    },
    notifyPasswordChanged: ({ link }) => sendPasswordMail(options, provider, { kind: "password-changed", to: link!.email }),
  }
}
