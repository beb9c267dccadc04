/**
 * The reset request machine (forgot password) for one Password provider that mails: the kit asks
 * for a reset link (or, with `resetBy: "code"` or `"both"`, a code) for its own account's address,
 * for an address nobody has, and for something that is not an address.
 *
 * @module
 */
import { passwordResetRequestMachine, type ResetRequestPolicy } from "../../machines/password-reset-request.js"
import { rateLimitEvents, rateLimitRole, rateLimitUnreachable, type EventRole, type MachineDriver } from "./driver.js"
import { csrfUnreachable, existingPasswordUser, storePasswordAccount, failAsLabelled, passwordRole } from "./password-account.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/**
 * The driver of the reset request machine for one Password provider of `config` (with `sendMail`).
 *
 * @example
 * ```ts
 * passwordResetRequestDriver(config, Password({ sendMail })).target // "password-reset-request password"
 * ```
 */
export function passwordResetRequestDriver(config: AuthConfig, provider: CredentialsConfig): MachineDriver {
  const hashing = provider.passwordAccounts!.hashing ?? {}
  // Where resets are by code, every request ends in `codeSent` (the browser goes on to type it); else in `resetSent`.
  const resetsByCode = (provider.passwordAccounts!.resetBy ?? "link") !== "link"
  const policyOf = (input: unknown) => (input as { policy?: ResetRequestPolicy } | undefined)?.policy

  function role(event: MachineEvent): EventRole {
    switch (event.type) {
      case "request.read":
        return (event as { emailProblem?: string }).emailProblem ? { condition: "not an email address" } : {}
      case "account.unknown":
        return { condition: "unknown email" }
      case "lookup.failed":
        return { condition: "account lookup failed" }
      default:
        return passwordRole(event) ?? rateLimitRole(event) ?? {}
    }
  }

  return {
    machine: passwordResetRequestMachine,
    target: `password-reset-request ${provider.id}`,
    provider: provider.id,
    events: [
      { type: "request.read", email: "a user" },
      { type: "request.read", emailProblem: "syntax" },
      ...rateLimitEvents,
      { type: "account.found", user: { id: "u1", email: "a user" }, hash: "stored" },
      { type: "lookup.failed", error: "getUserByEmail threw" },
      { type: "mail.failed", error: "sendMail threw" },
    ],
    inputs: [resetsByCode, !resetsByCode].map((byCode) => ({ policy: { resetsByCode: byCode } })),
    inputNote: (input) => (policyOf(input)?.resetsByCode ? "reset by code" : "reset by link"),
    role,
    unreachable(path, input) {
      if (policyOf(input) && policyOf(input)!.resetsByCode !== resetsByCode) {
        return resetsByCode ? `providers.${provider.id}.resetBy is "${provider.passwordAccounts!.resetBy}": forgot password mails a code, typed in the browser that asked` : `providers.${provider.id}.resetBy is "link" (the default): forgot password mails a link, no code`
      }
      return csrfUnreachable(path, config) ?? rateLimitUnreachable(path, config, "password-reset")
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const user = await existingPasswordUser(world, true)
      await storePasswordAccount(world, provider.id, user, hashing)
      const email = labels.has("not an email address") ? "not an address" : labels.has("unknown email") ? world.users.newEmail : user.email!
      failAsLabelled(world, labels, scenario.conditions, { "account lookup failed": "getUserByEmail" })
      const csrfToken = await world.csrfToken()
      await world.send(`/forgot-password/${provider.id}`, { form: { email, ...(!labels.has("csrf.invalid") && { csrfToken }) } })
    },
  }
}
