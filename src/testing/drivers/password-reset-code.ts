/**
 * The reset-by-code machine for one Password provider that resets by code (`resetBy: "code"` or
 * `"both"`): the kit asks for a reset for its own account in its browser (through the real
 * forgot-password request, not recorded: it has its own paths), takes the code from the mail your
 * `sendMail` accepted, and types it with a new password in that browser: the right one, a wrong
 * one until the tries run out, the right one past its end (the waiting flow sealed again with the
 * code expired), with a password too short and then a good one; with the flow's
 * cookie sent twice, without CSRF, over the rate limit; the password changed, the user gone or the
 * address unverified meanwhile, another change winning the race, the store failing.
 *
 * @module
 */
import { passwordResetCodeMachine, type PasswordResetCodeStart } from "../../machines/password-reset-code.js"
import type { PasswordChangePolicy } from "../../machines/password-reset.js"
import { hashPassword } from "../../core/password/index.js"
import { has, limiterModeOf, rateLimitRole, rateLimitUnreachable, type EventRole, type MachineDriver } from "./driver.js"
import { codeAgainEvents, codeCheckEvents, codeFlowRole, otherThanWrongCodes, submittedPolicyOf, typeCode, typeWrongCodes } from "./code-flow.js"
import {
  changePolicyNote,
  changePolicyOf,
  changePolicyUnreachable,
  csrfUnreachable,
  existingPasswordUser,
  failSessionEnding,
  failsOpenBeside,
  kitPassword,
  mailedCode,
  newPassword,
  passwordRole,
  resetRole,
  storePasswordAccount,
  tooShort,
} from "./password-account.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/** The model's flow: the code's hash is `mailed`, and it dies at time 2. */
const start: PasswordResetCodeStart = { link: { userId: "u1", email: "a user" }, bound: "bound", codeHash: "mailed", expiresAt: 2 }

/** The conditions a path may meet after a refused new password: the right code and a good password, typed again, find the address as before. */
const afterRefusal = new Set(["new password too short", "unverified address"])

/**
 * The driver of the reset-by-code machine for one Password provider of `config` (with `sendMail`,
 * and `resetBy` `"code"` or `"both"`).
 *
 * @example
 * ```ts
 * passwordResetCodeDriver(config, Password({ sendMail, resetBy: "code" })).target // "password-reset-code password"
 * ```
 */
export function passwordResetCodeDriver(config: AuthConfig, provider: CredentialsConfig): MachineDriver {
  const hashing = provider.passwordAccounts!.hashing ?? {}
  // A reset is always mailed its notice: the route is served only where the provider mails.
  const own = { ...changePolicyOf(provider), mailsNotice: true }
  const policies: PasswordChangePolicy[] = [{ endsOtherSessions: own.endsOtherSessions }, { endsOtherSessions: !own.endsOtherSessions }]
  const policyOf = submittedPolicyOf<PasswordChangePolicy>

  function role(event: MachineEvent): EventRole {
    const shared = codeFlowRole(event, start)
    if (shared) return shared
    switch (event.type) {
      case "code.submitted": {
        const note = changePolicyNote(event.policy as PasswordChangePolicy, own)
        return note ? { note } : {}
      }
      case "account.found": {
        const found = event as { bound?: boolean; verified?: boolean }
        if (!found.bound) return { condition: "password changed since the code was mailed" }
        return found.verified ? {} : { condition: "unverified address" }
      }
      default:
        return resetRole(event) ?? passwordRole(event) ?? rateLimitRole(event) ?? {}
    }
  }

  const conditionsOf = (path: readonly MachineEvent[]) => path.map((event) => role(event).condition).filter((condition) => condition !== undefined)

  return {
    machine: passwordResetCodeMachine,
    target: `password-reset-code ${provider.id}`,
    provider: provider.id,
    events: (snapshot) => {
      const { context } = snapshot
      const again = (hashes: string[]): MachineEvent[] => [
        ...codeAgainEvents(context, hashes),
        { type: "account.found", bound: true, verified: false },
        { type: "account.found", bound: true, verified: true },
        { type: "newPassword.read" },
      ]
      // After a wrong code, the next request types a wrong one again, until the last try; after a refused password, the right code and a good password.
      if (context.attempts > 0) return again(["another"])
      if (context.refusal !== undefined) return again([start.codeHash])
      return [
        ...codeCheckEvents(context, policies, start),
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
      ]
    },
    inputs: [start],
    role,
    // The address is the same at both requests of a path with a refused password: verified at both, or at neither.
    impossible(path) {
      const found = path.filter((event) => event.type === "account.found").map((event) => (event as { verified?: boolean }).verified)
      return found.some((verified) => verified !== found[0])
    },
    // After a wrong code, a fault takes the same transitions as at the first request: the later requests type wrong codes until the last try. After a refused password, likewise.
    redundant(path) {
      const conditions = conditionsOf(path)
      const refused = conditions.indexOf("new password too short")
      return failsOpenBeside(path, role) || otherThanWrongCodes(path, role) || (refused >= 0 && conditions.slice(refused).some((condition) => !afterRefusal.has(condition)))
    },
    unreachable(path) {
      const refused = csrfUnreachable(path, config) ?? changePolicyUnreachable(own, policyOf(path)) ?? rateLimitUnreachable(path, config, "password-reset")
      if (refused) return refused
      if (has(path, "flow.claimFailed") && config.replayStore) return "replayStore is your own: the kit makes only the adapter-backed default fail"
      if (path.some((event) => event.type === "newPassword.read" && (event as { problem?: string }).problem) && !tooShort(provider)) return `providers.${provider.id}.minLength is 1 or less: no password is too short`
      if (has(path, "account.missing") && !config.adapter?.deleteUser) return "the adapter has no deleteUser: the kit cannot remove the user a code was mailed for"
      return undefined
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const database = world.database!
      const route = `/reset-password/${provider.id}`
      const user = await existingPasswordUser(world, !labels.has("unverified address"))
      await storePasswordAccount(world, provider.id, user, hashing)
      // The code is asked for in this browser, which the flow then waits in (not recorded: the forgot request has its own paths)…
      await world.browser.send(`/forgot-password/${provider.id}`, { form: { email: user.email!, csrfToken: await world.csrfToken() }, record: false })
      const code = mailedCode(world, "password-reset-request", "reset-password")
      if (code === undefined) return
      // …something happens to the account meanwhile…
      if (labels.has("password changed since the code was mailed")) await storePasswordAccount(world, provider.id, user, hashing)
      if (labels.has("user gone")) await database.deleteUser!(user.id)
      // …wrong codes are typed first, where the path says so (every try, where they run out), or a password too short…
      const typed = await typeWrongCodes(world, route, code, scenario.conditions.filter((event) => role(event).condition === "wrong code").length, { password: newPassword })
      if (labels.has("new password too short")) await world.send(route, { form: { code, password: tooShort(provider)!, csrfToken: await world.csrfToken() } })
      // …then the path's own request.
      if (labels.has("claimFlow failed")) for (const method of ["useVerificationToken", "createVerificationToken"]) world.record.failing.add(method)
      if (labels.has("another change won the race")) world.hashLandsFirst = await hashPassword(kitPassword, hashing)
      if (labels.has("account lookup failed")) world.record.failing.add("getUser")
      if (labels.has("storing the new hash failed")) world.record.failing.add("updateAccountTokens")
      if (labels.has("marking the address verified failed")) world.record.failing.add("updateUser")
      if (labels.has("ending the sessions failed")) failSessionEnding(world)
      if (labels.has("mail service down")) world.mailFails = true
      world.limitRequests(limiterModeOf(scenario.conditions))
      await typeCode(world, labels, route, typed, { kind: "password-reset-code", providerId: provider.id }, { password: newPassword })
    },
  }
}
