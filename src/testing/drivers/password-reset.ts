/**
 * The password reset machine for one Password provider that mails: the kit asks for a reset link
 * for its own account (through the real forgot-password request, not recorded), takes it from the
 * mail your `sendMail` accepted, and follows it as mailed or after something happened to it (its
 * token taken out, tampered with, expired; the password changed since; the user gone), with a new
 * password or one too short.
 *
 * @module
 */
import { passwordResetMachine, type PasswordChangePolicy } from "../../machines/password-reset.js"
import { hashPassword } from "../../core/password/index.js"
import { Browser } from "../browser.js"
import { rateLimitEvents, rateLimitRole, rateLimitUnreachable, type EventRole, type MachineDriver } from "./driver.js"
import {
  changePolicyNote,
  changePolicyOf,
  changePolicyUnreachable,
  csrfUnreachable,
  editLink,
  existingPasswordUser,
  failAsLabelled,
  failSessionEnding,
  kitPassword,
  linkEditOf,
  linkRole,
  mailedLink,
  newPassword,
  passwordRole,
  resetRole,
  storePasswordAccount,
  tooShort,
  tooShortUnreachable,
} from "./password-account.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/**
 * The driver of the password reset machine for one Password provider of `config` (with `sendMail`).
 *
 * @example
 * ```ts
 * passwordResetDriver(config, Password({ sendMail })).target // "password-reset password"
 * ```
 */
export function passwordResetDriver(config: AuthConfig, provider: CredentialsConfig): MachineDriver {
  const hashing = provider.passwordAccounts!.hashing ?? {}
  // A reset is always mailed its notice: the route is served only where the provider mails.
  const own = { ...changePolicyOf(provider), mailsNotice: true }
  const policyOf = (input: unknown) => (input as { policy?: PasswordChangePolicy } | undefined)?.policy

  function role(event: MachineEvent): EventRole {
    const link = linkRole(event)
    if (link) return link
    switch (event.type) {
      case "account.found": {
        const found = event as { bound?: boolean; verified?: boolean }
        if (!found.bound) return { condition: "password changed since the link was mailed" }
        return found.verified ? {} : { condition: "unverified address" }
      }
      default:
        return resetRole(event) ?? passwordRole(event) ?? rateLimitRole(event) ?? {}
    }
  }

  return {
    machine: passwordResetMachine,
    target: `password-reset ${provider.id}`,
    provider: provider.id,
    events: [
      { type: "link.opened", link: { userId: "u1", email: "a user" } },
      ...rateLimitEvents,
      { type: "account.found", bound: true, verified: true },
      { type: "account.found", bound: true, verified: false },
      { type: "account.found", bound: false, verified: true },
      { type: "lookup.failed", error: "getUser threw" },
      { type: "newPassword.read" },
      { type: "newPassword.read", problem: "too-short" },
      { type: "write.failed", error: "updateAccountTokens threw" },
      { type: "verify.failed", error: "updateUser threw" },
      { type: "sessions.failed", error: "ending the sessions threw" },
      { type: "mail.failed", error: "sendMail threw" },
    ],
    inputs: [own.endsOtherSessions, !own.endsOtherSessions].map((endsOtherSessions) => ({ policy: { endsOtherSessions } })),
    inputNote: (input) => changePolicyNote(policyOf(input), own),
    role,
    unreachable(path, input) {
      const refused = csrfUnreachable(path, config) ?? changePolicyUnreachable(own, policyOf(input)) ?? rateLimitUnreachable(path, config, "password-reset") ?? tooShortUnreachable(path, provider)
      if (refused) return refused
      if (path.some((event) => event.type === "account.missing") && !config.adapter?.deleteUser) return "the adapter has no deleteUser: the kit cannot remove the user a link names"
      return undefined
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const database = world.database!
      const user = await existingPasswordUser(world, !labels.has("unverified address"))
      await storePasswordAccount(world, provider.id, user, hashing)
      // The link is asked for in another browser (not recorded: the reset request has its own paths)…
      const asking = new Browser(world.config, world.browser.origin, world.browser.basePath)
      await asking.send(`/forgot-password/${provider.id}`, { form: { email: user.email!, csrfToken: await asking.csrfToken() }, record: false })
      const mailed = mailedLink(world, "reset-password", "password-reset-request")
      if (!mailed) return
      const link = await editLink(world, mailed, "reset-password", linkEditOf(labels))
      // …something happens to the account meanwhile…
      if (labels.has("password changed since the link was mailed")) await storePasswordAccount(world, provider.id, user, hashing)
      if (labels.has("user gone")) await database.deleteUser!(user.id)
      if (labels.has("another change won the race")) world.hashLandsFirst = await hashPassword(kitPassword, hashing)
      if (labels.has("ending the sessions failed")) failSessionEnding(world)
      failAsLabelled(world, labels, scenario.conditions, { "account lookup failed": "getUser", "storing the new hash failed": "updateAccountTokens", "marking the address verified failed": "updateUser" })
      // …and the new-password form it opens is posted.
      const token = link.searchParams.get("token")
      const csrfToken = await world.csrfToken()
      await world.send(`/reset-password/${provider.id}`, {
        form: { ...(token !== null && { token }), password: labels.has("new password too short") ? tooShort(provider)! : newPassword, ...(!labels.has("csrf.invalid") && { csrfToken }) },
      })
    },
  }
}
