/**
 * The Password verification code machine for one Password provider that verifies addresses by
 * code (`verifyBy: "code"` or `"both"`): the kit signs a new user up in its browser (not
 * recorded: sign-up has its own paths), takes the code from the mail your `sendMail` accepted, and
 * types it in that browser: the right one, a wrong one until the tries run out, the right one past
 * its end (the waiting flow sealed again with the code expired); with the flow's
 * cookie sent twice, without CSRF, over the rate limit; the account verified, replaced or gone
 * meanwhile, the store failing; then the sign-in tail.
 *
 * @module
 */
import { passwordVerifyCodeMachine, type PasswordCodeStart } from "../../machines/password-verify-code.js"
import type { SignInTailPolicy } from "../../machines/sign-in-tail.js"
import { everyTailPolicy, has, limiterModeOf, prepareSecondFactor, rateLimitRole, rateLimitUnreachable, signInTailEvents, signInTailRole, signInTailUnreachable, tailPolicyNote, tailPolicyOf, type EventRole, type MachineDriver } from "./driver.js"
import { strategyOf } from "../world.js"
import { csrfUnreachable, failsOpenBeside, kitPassword, mailedCode } from "./password-account.js"
import { codeAgainEvents, codeCheckEvents, codeFlowRole, otherThanWrongCodes, submittedPolicyOf, typeCode, typeWrongCodes } from "./code-flow.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/** The model's flow: the code's hash is `mailed`, and it dies at time 2. */
const start: PasswordCodeStart = { email: "someone@example.test", bound: "bound", codeHash: "mailed", expiresAt: 2, callbackUrl: "/" }

/**
 * The driver of the Password verification code machine for one Password provider of `config`
 * (with `sendMail`, `verification` not `"off"`, and `verifyBy` `"code"` or `"both"`).
 *
 * @example
 * ```ts
 * passwordVerifyCodeDriver(config, Password({ sendMail, verifyBy: "code" })).target // "password-verify-code password"
 * ```
 */
export function passwordVerifyCodeDriver(config: AuthConfig, provider: CredentialsConfig): MachineDriver {
  const strategy = strategyOf(config)
  const own = tailPolicyOf(config, strategy)
  const policies = everyTailPolicy(own)
  const policyOf = submittedPolicyOf<SignInTailPolicy>

  function role(event: MachineEvent): EventRole {
    const shared = codeFlowRole(event, start)
    if (shared) return shared
    switch (event.type) {
      case "code.submitted": {
        const note = tailPolicyNote(event.policy as SignInTailPolicy, own)
        return note ? { note } : {}
      }
      case "user.found": {
        const found = event as { bound?: boolean; verified?: boolean }
        if (!found.bound) return { condition: "another account at the address since the code was mailed" }
        return found.verified ? { condition: "address verified already" } : {}
      }
      case "user.missing":
        return { condition: "user gone" }
      case "lookup.failed":
        return { condition: "user lookup failed" }
      case "update.failed":
        return { condition: "marking the address verified failed" }
      case "email.verified":
        return {}
      default:
        return rateLimitRole(event) ?? signInTailRole(event, strategy, config) ?? {}
    }
  }

  return {
    machine: passwordVerifyCodeMachine,
    target: `password-verify-code ${provider.id}`,
    provider: provider.id,
    events: (snapshot) => {
      const { context } = snapshot
      // After a wrong code, the next request types a wrong one again, until the last try: its faults take the same transitions as the first request's.
      if (context.attempts > 0) return codeAgainEvents(context)
      return [
        ...codeCheckEvents(context, policies, start),
        { type: "user.found", user: { id: "u1", email: start.email }, bound: true, verified: false },
        { type: "user.found", user: { id: "u1", email: start.email }, bound: true, verified: true },
        { type: "user.found", user: { id: "u2", email: start.email }, bound: false, verified: false },
        { type: "user.missing" },
        { type: "lookup.failed", error: "getUserByEmail threw" },
        { type: "update.failed", error: "updateUser threw" },
        ...signInTailEvents(snapshot),
      ]
    },
    inputs: [start],
    role,
    // After a wrong code, a fault takes the same transitions as at the first request: the later requests type wrong codes until the last try.
    redundant: (path) => failsOpenBeside(path, role) || otherThanWrongCodes(path, role),
    unreachable(path) {
      const csrf = csrfUnreachable(path, config)
      if (csrf) return csrf
      if (has(path, "flow.claimFailed") && config.replayStore) return "replayStore is your own: the kit makes only the adapter-backed default fail"
      const limited = rateLimitUnreachable(path, config, "email-code")
      if (limited) return limited
      if (has(path, "user.missing") && !config.adapter?.deleteUser) return "the adapter has no deleteUser: the kit cannot remove the user a code was mailed for"
      return signInTailUnreachable(path, strategy, config, policyOf(path))
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const database = world.database!
      const email = world.users.newEmail
      const route = `/verify-email/${provider.id}`
      // The code is mailed at sign-up, and this browser waits for it (not recorded: sign-up has its own paths)…
      await world.browser.send(`/signup/${provider.id}`, { form: { email, password: kitPassword, callbackUrl: world.callbackUrl, csrfToken: await world.csrfToken() }, record: false })
      const code = mailedCode(world, "password-sign-up")
      if (code === undefined) return
      // …something happens to the account meanwhile…
      const user = await database.getUserByEmail!(email)
      if (user && labels.has("address verified already")) await database.updateUser!({ id: user.id, emailVerified: new Date() })
      if (user && labels.has("another account at the address since the code was mailed")) {
        await database.updateUser!({ id: user.id, email: `moved-${email}` })
        await world.ensureUser(email, "Another User")
      }
      if (user && labels.has("user gone")) await database.deleteUser!(user.id)
      // …wrong codes are typed first, where the path says so (every try, where they run out)…
      const typed = await typeWrongCodes(world, route, code, scenario.conditions.filter((event) => role(event).condition === "wrong code").length)
      // …then the path's own request.
      if (labels.has("claimFlow failed")) for (const method of ["useVerificationToken", "createVerificationToken"]) world.record.failing.add(method)
      if (labels.has("user lookup failed")) world.record.failing.add("getUserByEmail")
      if (labels.has("marking the address verified failed")) world.record.failing.add("updateUser")
      if (has(scenario.conditions, "session.failed")) world.record.failing.add("createSession")
      prepareSecondFactor(scenario.conditions, world)
      world.limitRequests(limiterModeOf(scenario.conditions))
      await typeCode(world, labels, route, typed, { kind: "password-verify-code", providerId: provider.id })
    },
  }
}
