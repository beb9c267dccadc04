/**
 * The credentials sign-in machine for one credentials provider: the credentials the fixtures give,
 * typed into the form, answered by the provider's own `authorize`.
 *
 * @module
 */
import { credentialsSignInMachine } from "../../machines/credentials-sign-in.js"
import { CredentialsSignin } from "../../core/errors.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import { everyTailPolicy, has, prepareSecondFactor, rateLimitEvents, rateLimitRole, rateLimitUnreachable, limiterModeOf, signInTailEvents, signInTailRole, signInTailUnreachable, tailPolicyNote, tailPolicyOf, type EventRole, type MachineDriver } from "./driver.js"
import type { SignInTailPolicy } from "../../machines/sign-in-tail.js"
import type { MachineEvent } from "../transitions.js"
import { strategyOf } from "../world.js"
import type { CredentialsFixture } from "../fixtures.js"
import type { AuthConfig, CredentialsConfig } from "../../types.js"
import { identityFieldOf, rateLimitOf } from "../../core/rate-limit/limiter.js"

/**
 * The driver of the credentials sign-in machine for one provider of `config`.
 *
 * @example
 * ```ts
 * credentialsDriver(config, provider, { accepted: { username: "ada", password: "lovelace" }, rejected: { username: "ada", password: "x" } }).target
 * // "credentials-sign-in credentials"
 * ```
 */
export function credentialsDriver(config: AuthConfig, provider: CredentialsConfig, fixture: CredentialsFixture | undefined): MachineDriver {
  const strategy = strategyOf(config)
  const decidedBy = `providers.${provider.id}.authorize`
  const policy = tailPolicyOf(config, strategy)
  const policyOf = (input: unknown) => (input as { policy?: SignInTailPolicy } | undefined)?.policy
  // Whom an attempt counts against: the fixtures name the user in the declared identity field, unless the provider declares none.
  const identityField = rateLimitOf(config)?.credentialsIdentifier ? "rateLimit.credentialsIdentifier" : identityFieldOf(provider.credentials)
  const readAs = (event: MachineEvent) => {
    const read = event as { type: string; identifier?: string; nonString?: string[] }
    return read.nonString?.length ? "non-string credentials" : read.identifier === undefined ? "identity unread" : "identity read"
  }

  function role(event: MachineEvent): EventRole {
    switch (event.type) {
      case "csrf.invalid":
        return { condition: "csrf.invalid" }
      case "credentials.read": {
        const read = readAs(event)
        // The ordinary answer is no condition: the identity the fixtures name, or, for a provider that declares none, the shared budget.
        return read === "non-string credentials" || (read === "identity unread") === (identityField !== undefined) ? { condition: read } : {}
      }
      case "authorize.returned":
        return { condition: event.user ? "accepted credentials" : "rejected credentials", decidedBy }
      case "authorize.threw":
        return { condition: event.error instanceof CredentialsSignin ? "rejected credentials" : "failing credentials", decidedBy }
      default:
        return rateLimitRole(event) ?? signInTailRole(event, strategy, config) ?? {}
    }
  }

  return {
    machine: credentialsSignInMachine,
    target: `credentials-sign-in ${provider.id}`,
    provider: provider.id,
    events: (snapshot) => [
      { type: "credentials.read", identifier: "a user", nonString: [] },
      { type: "credentials.read", nonString: [] },
      { type: "credentials.read", nonString: ["a field"] },
      ...rateLimitEvents,
      { type: "authorize.returned", user: { id: "u1", name: "A User" } },
      { type: "authorize.returned", user: null },
      { type: "authorize.threw", error: new CredentialsSignin() },
      { type: "authorize.threw", error: new Error("authorize threw") },
      ...signInTailEvents(snapshot),
    ],
    inputs: everyTailPolicy(policy).map((each) => ({ policy: each })),
    inputNote: (input) => tailPolicyNote(policyOf(input), policy),
    role,
    unreachable(path, input) {
      if (has(path, "csrf.invalid") && config.skipCSRFCheck === skipCSRFCheck) return "skipCSRFCheck: the CSRF token is not checked"
      const read = path.find((event) => event.type === "credentials.read")
      if (read && readAs(read) === "non-string credentials") return "a form posts only strings: a declared field that is not a string comes only in a JSON body, and is refused before authorize runs"
      if (read && readAs(read) === "identity unread" && identityField !== undefined) {
        return `the kit types fixtures.credentials["${provider.id}"], which name the user (${identityField}): an attempt that names no one counts against the shared budget`
      }
      if (read && readAs(read) === "identity read" && identityField === undefined) {
        return `providers.${provider.id}.credentials declares no field that names the user: every attempt counts against the shared budget`
      }
      const limited = rateLimitUnreachable(path, config, "credentials")
      if (limited) return limited
      const authorizes = path.some((event) => event.type.startsWith("authorize."))
      if (authorizes && !fixture) return `no fixtures.credentials["${provider.id}"]: the kit does not know which credentials authorize accepts and refuses`
      const failing = path.some((event) => event.type === "authorize.threw" && !(event.error instanceof CredentialsSignin))
      if (failing && !fixture?.failing) return `no fixtures.credentials["${provider.id}"].failing: no credentials are known to make authorize throw`
      return signInTailUnreachable(path, strategy, config, policyOf(input))
    },
    async drive(scenario, world) {
      const labels = new Set(scenario.conditions.map((event) => role(event).condition))
      const typed = labels.has("failing credentials") ? fixture?.failing : labels.has("rejected credentials") ? fixture?.rejected : fixture?.accepted
      if (has(scenario.conditions, "session.failed")) world.record.failing.add("createSession")
      prepareSecondFactor(scenario.conditions, world)
      world.limitRequests(limiterModeOf(scenario.conditions))
      const csrfToken = await world.csrfToken()
      await world.send(`/callback/${provider.id}`, {
        form: { ...typed, callbackUrl: world.callbackUrl, ...(!labels.has("csrf.invalid") && { csrfToken }) },
      })
    },
  }
}
