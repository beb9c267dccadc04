/**
 * The email sign-in machine for one email provider: an address typed into the form (a new one,
 * an existing user's, one the normaliser refuses), the database and the mailer answering; with the
 * provider's `code` option, the code made and mailed (the flow ends in `codeSent`).
 *
 * @module
 */
import { emailSignInMachine } from "../../machines/email-sign-in.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import { has, rateLimitEvents, rateLimitRole, rateLimitUnreachable, limiterModeOf, signInCallbackEvents, signInTailRole, signInTailUnreachable, type EventRole, type MachineDriver } from "./driver.js"
import { strategyOf } from "../world.js"
import type { MachineEvent } from "../transitions.js"
import type { EmailConfig } from "../../providers/email-config.js"
import type { AuthConfig } from "../../types.js"

/** What the kit types for an address the normaliser (or authflow's grammar) refuses. */
export const invalidAddress = "not an address"

/**
 * The driver of the email sign-in machine for one email provider of `config`.
 *
 * @example
 * ```ts
 * emailSignInDriver(config, provider).target // "email-sign-in email"
 * ```
 */
export function emailSignInDriver(config: AuthConfig, provider: EmailConfig): MachineDriver {
  const strategy = strategyOf(config)
  const normalizer = `providers.${provider.id}.normalizeIdentifier`

  function role(event: MachineEvent): EventRole {
    switch (event.type) {
      case "csrf.invalid":
      case "lookup.failed":
      case "store.failed":
      case "send.failed":
      case "revoke.failed":
        return { condition: event.type }
      case "email.normalized":
        return event.normalized === invalidAddress ? { condition: "invalid address", decidedBy: normalizer } : {}
      case "normalizer.threw":
        return { condition: "invalid address", decidedBy: normalizer }
      case "user.lookedUp":
        return { condition: event.user ? "address of an existing user" : "new address" }
      default:
        return rateLimitRole(event) ?? signInTailRole(event, strategy, config) ?? {}
    }
  }

  return {
    machine: emailSignInMachine,
    target: `email-sign-in ${provider.id}`,
    provider: provider.id,
    events: [
      ...rateLimitEvents,
      { type: "email.normalized", normalized: "someone@example.test" },
      { type: "email.normalized", normalized: invalidAddress },
      { type: "normalizer.threw", error: "Invalid email address format." },
      { type: "user.lookedUp", user: { id: "u1", email: "someone@example.test", emailVerified: null } },
      { type: "user.lookedUp", user: null },
      { type: "lookup.failed", error: "getUserByEmail threw" },
      ...signInCallbackEvents,
      { type: "store.failed", error: "createVerificationToken threw" },
      { type: "code.made", code: "[code]", hash: "[hash]", expiresAt: 0 },
      { type: "send.failed", error: "the mail service is down" },
      { type: "revoke.failed", error: "useVerificationToken threw" },
    ],
    // The provider's `code` option is the machine's input: with it, the mail carries a code and the flow ends in codeSent.
    ...(provider.code && { inputs: [{ code: provider.code }] }),
    role,
    unreachable(path) {
      if (has(path, "csrf.invalid") && config.skipCSRFCheck === skipCSRFCheck) return "skipCSRFCheck: the CSRF token is not checked"
      const limited = rateLimitUnreachable(path, config, "email")
      if (limited) return limited
      return signInTailUnreachable(path, strategy, config)
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const email = labels.has("invalid address") ? invalidAddress : labels.has("address of an existing user") ? (await world.existingUser()).email : world.users.newEmail
      if (labels.has("lookup.failed")) world.record.failing.add("getUserByEmail")
      if (labels.has("store.failed")) world.record.failing.add("createVerificationToken")
      if (labels.has("revoke.failed")) world.record.failing.add("useVerificationToken")
      world.mailFails = labels.has("send.failed")
      world.limitRequests(limiterModeOf(scenario.conditions))
      const csrfToken = await world.csrfToken()
      await world.send(`/signin/${provider.id}`, { form: { email, callbackUrl: world.callbackUrl, ...(!labels.has("csrf.invalid") && { csrfToken }) } })
    },
  }
}
