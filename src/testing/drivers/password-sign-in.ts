/**
 * The password sign-in machine for one Password provider: the kit keeps a password account of its
 * own for the fixtures' existing user (hashed with the provider's own settings, or with other
 * parameters where the path needs an outdated hash), and types its password, a wrong one, or an
 * address nobody has.
 *
 * @module
 */
import { passwordSignInMachine, type PasswordSignInPolicy } from "../../machines/password-sign-in.js"
import { currentHashing, type PasswordHashOptions } from "../../core/password/index.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import { everyTailPolicy, has, limiterModeOf, prepareSecondFactor, rateLimitEvents, rateLimitRole, rateLimitUnreachable, signInTailEvents, signInTailRole, signInTailUnreachable, tailPolicyNote, tailPolicyOf, type EventRole, type MachineDriver } from "./driver.js"
import { strategyOf } from "../world.js"
import { existingPasswordUser, kitPassword, storePasswordAccount } from "./password-account.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"

/**
 * Hashing options that make a hash the provider verifies but calls outdated (another scrypt cost,
 * or another PBKDF2 iteration count), or undefined where the app's own `hash` hook makes every hash.
 */
function outdatedHashing(hashing: PasswordHashOptions): PasswordHashOptions | undefined {
  const current = currentHashing(hashing)
  if (current.algorithm === "custom") return undefined
  if (current.algorithm === "scrypt") return { algorithm: "scrypt", scrypt: { ...current.params, ln: current.params.ln === 10 ? 11 : 10 } }
  return { algorithm: "pbkdf2-sha256", pbkdf2: { iterations: current.params.iterations + 1 } }
}

/**
 * The driver of the password sign-in machine for one Password provider of `config`.
 *
 * @example
 * ```ts
 * passwordSignInDriver(config, Password()).target // "password-sign-in password"
 * ```
 */
export function passwordSignInDriver(config: AuthConfig, provider: CredentialsConfig): MachineDriver {
  const strategy = strategyOf(config)
  const settings = provider.passwordAccounts!
  const hashing = settings.hashing ?? {}
  const requiresVerifiedEmail = settings.verification === "required"
  const policy = tailPolicyOf(config, strategy)
  const policyOf = (input: unknown) => (input as { policy?: PasswordSignInPolicy } | undefined)?.policy

  function role(event: MachineEvent): EventRole {
    switch (event.type) {
      case "csrf.invalid":
        return { condition: "csrf.invalid" }
      case "credentials.read": {
        const read = event as { identifier?: string; nonString?: string[] }
        if (read.nonString?.length) return { condition: "non-string credentials" }
        return read.identifier === undefined ? { condition: "no email typed" } : {}
      }
      case "account.found":
        return (event as { emailVerified?: boolean }).emailVerified ? {} : { condition: "unverified address" }
      case "account.unknown":
        return { condition: "unknown email" }
      case "account.failed":
        return { condition: "account lookup failed" }
      case "password.checked": {
        const checked = event as { valid?: boolean; needsRehash?: boolean }
        if (!checked.valid) return { condition: "wrong password" }
        return checked.needsRehash ? { condition: "outdated hash" } : {}
      }
      case "rehash.failed":
        return { condition: "storing the new hash failed" }
      default:
        return rateLimitRole(event) ?? signInTailRole(event, strategy, config) ?? {}
    }
  }

  return {
    machine: passwordSignInMachine,
    target: `password-sign-in ${provider.id}`,
    provider: provider.id,
    events: (snapshot) => [
      { type: "credentials.read", identifier: "a user", nonString: [] },
      { type: "credentials.read", nonString: [] },
      { type: "credentials.read", nonString: ["email"] },
      ...rateLimitEvents,
      { type: "account.found", user: { id: "u1" }, hash: "stored", emailVerified: true },
      { type: "account.found", user: { id: "u1" }, hash: "stored", emailVerified: false },
      { type: "account.unknown" },
      { type: "account.failed", error: "getUserByEmail threw" },
      { type: "password.checked", valid: true, needsRehash: false },
      { type: "password.checked", valid: true, needsRehash: true },
      { type: "password.checked", valid: false, needsRehash: false },
      { type: "rehash.failed", error: "updateAccountTokens threw" },
      ...signInTailEvents(snapshot),
    ],
    inputs: everyTailPolicy(policy).map((each) => ({ policy: { ...each, requiresVerifiedEmail } })),
    inputNote: (input) => tailPolicyNote(policyOf(input), policy),
    role,
    impossible(path) {
      // An email that cannot be read names nobody: no account is looked up, it is unknown.
      const unread = path.some((event) => event.type === "credentials.read" && (event as { identifier?: string }).identifier === undefined)
      return unread && (has(path, "account.found") || has(path, "account.failed"))
    },
    unreachable(path, input) {
      if (has(path, "csrf.invalid") && config.skipCSRFCheck === skipCSRFCheck) return "skipCSRFCheck: the CSRF token is not checked"
      if (path.some((event) => event.type === "credentials.read" && (event as { nonString?: string[] }).nonString?.length)) {
        return "a form posts only strings: a field that is not a string comes only in a JSON body, and is refused before anything is looked up"
      }
      const limited = rateLimitUnreachable(path, config, "credentials")
      if (limited) return limited
      const outdated = path.some((event) => event.type === "password.checked" && (event as { needsRehash?: boolean }).needsRehash)
      if (outdated && !outdatedHashing(hashing)) return `providers.${provider.id}.hashing.hash makes every hash: the kit cannot make one the provider calls outdated`
      return signInTailUnreachable(path, strategy, config, policyOf(input))
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      if (has(scenario.conditions, "session.failed")) world.record.failing.add("createSession")
      if (labels.has("account lookup failed")) world.record.failing.add("getUserByEmail")
      if (labels.has("storing the new hash failed")) world.record.failing.add("updateAccountTokens")
      prepareSecondFactor(scenario.conditions, world)
      let email: string | undefined = world.users.newEmail
      if (labels.has("no email typed")) email = undefined
      else if (!labels.has("unknown email")) {
        // The kit's own account for the existing user: verified unless the path says not, hashed as the path needs.
        const user = await existingPasswordUser(world, !labels.has("unverified address"))
        email = user.email
        await storePasswordAccount(world, provider.id, user, labels.has("outdated hash") ? outdatedHashing(hashing)! : hashing)
      }
      world.limitRequests(limiterModeOf(scenario.conditions))
      const csrfToken = await world.csrfToken()
      const password = labels.has("wrong password") ? `${kitPassword} (wrong)` : kitPassword
      await world.send(`/callback/${provider.id}`, {
        form: { ...(email !== undefined && { email }), password, callbackUrl: world.callbackUrl, ...(!labels.has("csrf.invalid") && { csrfToken }) },
      })
    },
  }
}
