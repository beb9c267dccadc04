/**
 * The email change request machine for one Password provider that mails: the kit signs its own
 * account in (or not) and asks to move it to the fixtures' new address, to an address taken, to
 * its own address or to something that is not one, typing its password or a wrong one.
 *
 * @module
 */
import { passwordChangeEmailMachine } from "../../machines/password-change-email.js"
import { rateLimitEvents, rateLimitRole, rateLimitUnreachable, type EventRole, type MachineDriver } from "./driver.js"
import { csrfUnreachable, existingPasswordUser, kitPassword, storePasswordAccount, failAsLabelled, passwordRole } from "./password-account.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/** The model's address of the signed-in user. */
const current = "a user"

/**
 * The driver of the email change request machine for one Password provider of `config` (with `sendMail`).
 *
 * @example
 * ```ts
 * passwordChangeEmailDriver(config, Password({ sendMail })).target // "password-change-email password"
 * ```
 */
export function passwordChangeEmailDriver(config: AuthConfig, provider: CredentialsConfig): MachineDriver {
  const hashing = provider.passwordAccounts!.hashing ?? {}

  function role(event: MachineEvent): EventRole {
    switch (event.type) {
      case "change.read": {
        const read = event as { newEmail?: string; emailProblem?: string }
        if (read.emailProblem) return { condition: "not an email address" }
        return read.newEmail === current ? { condition: "same address" } : {}
      }
      case "password.checked":
        return (event as { valid?: boolean }).valid ? {} : { condition: "wrong password" }
      case "newEmail.taken":
        return { condition: "new address taken" }
      case "lookup.failed":
        return { condition: "address lookup failed" }
      default:
        return passwordRole(event) ?? rateLimitRole(event) ?? {}
    }
  }

  return {
    machine: passwordChangeEmailMachine,
    target: `password-change-email ${provider.id}`,
    provider: provider.id,
    events: [
      { type: "session.user", user: { id: "u1", email: current } },
      { type: "session.failed", error: "getUser threw" },
      ...rateLimitEvents,
      { type: "change.read", newEmail: "new address" },
      { type: "change.read", newEmail: current },
      { type: "change.read", emailProblem: "syntax" },
      { type: "password.checked", valid: true },
      { type: "password.checked", valid: false },
      { type: "check.failed", error: "getAccount threw" },
      { type: "lookup.failed", error: "getUserByEmail threw" },
      { type: "mail.failed", error: "sendMail threw" },
    ],
    role,
    unreachable: (path) => csrfUnreachable(path, config) ?? rateLimitUnreachable(path, config, "credentials"),
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const user = await existingPasswordUser(world, true)
      if (!labels.has("no password account")) await storePasswordAccount(world, provider.id, user, hashing)
      if (!labels.has("not signed in")) await world.signInAs(user)
      const newEmail = world.users.newEmail
      if (labels.has("new address taken")) await world.ensureUser(newEmail, "Another User")
      failAsLabelled(world, labels, scenario.conditions, { "session lookup failed": "getUser", "account lookup failed": "getAccount", "address lookup failed": "getUserByEmail" })
      const csrfToken = await world.csrfToken()
      await world.send(`/change-email/${provider.id}`, {
        form: {
          newEmail: labels.has("not an email address") ? "not an address" : labels.has("same address") ? user.email! : newEmail,
          password: labels.has("wrong password") ? `${kitPassword} (wrong)` : kitPassword,
          ...(!labels.has("csrf.invalid") && { csrfToken }),
        },
      })
    },
  }
}
