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
import { EMAIL_CODE_MAX_ATTEMPTS } from "../../machines/emailed-code.js"
import type { SignInTailPolicy } from "../../machines/sign-in-tail.js"
import { everyTailPolicy, has, limiterModeOf, prepareSecondFactor, rateLimitEvents, rateLimitRole, rateLimitUnreachable, signInTailEvents, signInTailRole, signInTailUnreachable, tailPolicyNote, tailPolicyOf, type EventRole, type MachineDriver } from "./driver.js"
import { postFromCopy } from "./second-factor.js"
import { expireEmailedCode } from "./flow-expiry.js"
import { strategyOf } from "../world.js"
import { codeFlowRole, csrfUnreachable, failsOpenBeside, kitPassword, mailedCode } from "./password-account.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/** The model's flow: the code's hash is `mailed`, and it dies at time 2. */
const start: PasswordCodeStart = { email: "someone@example.test", bound: "bound", codeHash: "mailed", expiresAt: 2, callbackUrl: "/" }

/** A well-formed code that is not `code`. */
const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0")

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
  const policyOf = (path: readonly MachineEvent[]) => path.find((event) => event.type === "code.submitted")?.policy as SignInTailPolicy | undefined

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
      if (context.attempts > 0) {
        return [{ type: "code.submitted", code: "typed", policy: context.policy }, { type: "flow.fresh" }, rateLimitEvents[0]!, { type: "emailCode.hashed", hashes: ["another"], now: 1 }]
      }
      return [
        ...(context.policy ? [context.policy] : policies).map((policy) => ({ type: "code.submitted", code: "typed", policy })),
        { type: "flow.fresh" },
        { type: "flow.replayed" },
        { type: "flow.claimFailed", error: "the replay store threw" },
        ...rateLimitEvents,
        { type: "emailCode.hashed", hashes: [start.codeHash], now: 1 },
        { type: "emailCode.hashed", hashes: ["another"], now: 1 },
        { type: "emailCode.hashed", hashes: [start.codeHash], now: start.expiresAt },
        { type: "user.found", user: { id: "u1", email: start.email }, bound: true, verified: false },
        { type: "user.found", user: { id: "u1", email: start.email }, bound: true, verified: true },
        { type: "user.found", user: { id: "u2", email: start.email }, bound: false, verified: false },
        { type: "user.missing" },
        { type: "lookup.failed", error: "getUserByEmail threw" },
        { type: "update.failed", error: "updateUser threw" },
        ...signInTailEvents(snapshot.value),
      ]
    },
    inputs: [start],
    role,
    // After a wrong code, a fault takes the same transitions as at the first request: the later requests type wrong codes until the last try.
    redundant(path) {
      const conditions = path.map((event) => role(event).condition).filter((condition) => condition !== undefined)
      const wrong = conditions.indexOf("wrong code")
      return failsOpenBeside(path, role) || (wrong >= 0 && conditions.slice(wrong).some((condition) => condition !== "wrong code"))
    },
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
      const wrong = scenario.conditions.filter((event) => role(event).condition === "wrong code").length
      for (let attempt = 0; attempt < Math.min(wrong, EMAIL_CODE_MAX_ATTEMPTS - 1); attempt++) await world.send(route, { form: { code: wrongOf(code), csrfToken: await world.csrfToken() } })
      // …then the path's own request.
      if (labels.has("claimFlow failed")) for (const method of ["useVerificationToken", "createVerificationToken"]) world.record.failing.add(method)
      if (labels.has("user lookup failed")) world.record.failing.add("getUserByEmail")
      if (labels.has("marking the address verified failed")) world.record.failing.add("updateUser")
      if (has(scenario.conditions, "session.failed")) world.record.failing.add("createSession")
      prepareSecondFactor(scenario.conditions, world)
      world.limitRequests(limiterModeOf(scenario.conditions))
      // The kit has no clock: the flow waiting in this browser, sealed again with its code past its end.
      if (labels.has("code expired") && !(await expireEmailedCode(world, "password-verify-code", provider.id))) return
      const csrfToken = labels.has("csrf.invalid") ? undefined : await world.csrfToken()
      const form = { code: wrong > 0 ? wrongOf(code) : code, ...(csrfToken && { csrfToken }) }
      if (labels.has("flow cookie sent twice")) await postFromCopy(world, route, form)
      await world.send(route, { form })
    },
  }
}
