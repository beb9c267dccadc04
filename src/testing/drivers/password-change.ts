/**
 * The signed-in password change machine for one Password provider: the kit signs its own account
 * in (or not) and changes its password, typing the current one or a wrong one, a new one or one too
 * short; a user without a password account; the write losing its race or failing, the other
 * sessions' ending and the notice failing.
 *
 * @module
 */
import { passwordChangeMachine } from "../../machines/password-change.js"
import type { PasswordChangePolicy } from "../../machines/password-reset.js"
import { hashPassword } from "../../core/password/index.js"
import { rateLimitEvents, rateLimitRole, rateLimitUnreachable, type EventRole, type MachineDriver } from "./driver.js"
import { changePolicyNote, changePolicyOf, changePolicyUnreachable, csrfUnreachable, existingPasswordUser, failSessionEnding, kitPassword, newPassword, storePasswordAccount, tooShort, failAsLabelled, passwordRole, tooShortUnreachable } from "./password-account.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/**
 * The driver of the password change machine for one Password provider of `config`.
 *
 * @example
 * ```ts
 * passwordChangeDriver(config, Password()).target // "password-change password"
 * ```
 */
export function passwordChangeDriver(config: AuthConfig, provider: CredentialsConfig): MachineDriver {
  const hashing = provider.passwordAccounts!.hashing ?? {}
  const own = changePolicyOf(provider)
  const policyOf = (input: unknown) => (input as { policy?: PasswordChangePolicy } | undefined)?.policy
  const policies = [own.endsOtherSessions, !own.endsOtherSessions].flatMap((endsOtherSessions) => [own.mailsNotice, !own.mailsNotice].map((mailsNotice) => ({ policy: { endsOtherSessions, mailsNotice } })))

  function role(event: MachineEvent): EventRole {
    switch (event.type) {
      case "password.checked":
        return (event as { valid?: boolean }).valid ? {} : { condition: "wrong current password" }
      case "sessions.failed":
        return { condition: "ending the other sessions failed" }
      default:
        return passwordRole(event) ?? rateLimitRole(event) ?? {}
    }
  }

  return {
    machine: passwordChangeMachine,
    target: `password-change ${provider.id}`,
    provider: provider.id,
    events: [
      { type: "session.user", user: { id: "u1", email: "a user" } },
      { type: "session.failed", error: "getUser threw" },
      ...rateLimitEvents,
      { type: "password.checked", valid: true },
      { type: "password.checked", valid: false },
      { type: "check.failed", error: "getAccount threw" },
      { type: "newPassword.read" },
      { type: "newPassword.read", problem: "too-short" },
      { type: "write.failed", error: "updateAccountTokens threw" },
      { type: "sessions.failed", error: "ending the sessions threw" },
      { type: "mail.failed", error: "sendMail threw" },
    ],
    inputs: policies,
    inputNote: (input) => changePolicyNote(policyOf(input), own),
    role,
    unreachable(path, input) {
      return csrfUnreachable(path, config) ?? changePolicyUnreachable(own, policyOf(input)) ?? rateLimitUnreachable(path, config, "credentials") ?? tooShortUnreachable(path, provider)
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const user = await existingPasswordUser(world, true)
      if (!labels.has("no password account")) await storePasswordAccount(world, provider.id, user, hashing)
      if (!labels.has("not signed in")) await world.signInAs(user)
      if (labels.has("another change won the race")) world.hashLandsFirst = await hashPassword(kitPassword, hashing)
      if (labels.has("ending the other sessions failed")) failSessionEnding(world)
      failAsLabelled(world, labels, scenario.conditions, { "session lookup failed": "getUser", "account lookup failed": "getAccount", "storing the new hash failed": "updateAccountTokens" })
      const csrfToken = await world.csrfToken()
      await world.send(`/change-password/${provider.id}`, {
        form: {
          currentPassword: labels.has("wrong current password") ? `${kitPassword} (wrong)` : kitPassword,
          newPassword: labels.has("new password too short") ? tooShort(provider)! : newPassword,
          ...(!labels.has("csrf.invalid") && { csrfToken }),
        },
      })
    },
  }
}
