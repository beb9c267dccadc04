/**
 * The OAuth machine for one OAuth 2 / OpenID Connect provider: the sign-in request up to the
 * sealed `awaitingCallback`, the provider (a stand-in) answering in every way the machine tells
 * apart, and the callback request that resumes the flow.
 *
 * @module
 */
import { oauthMachine } from "../../machines/oauth.js"
import { resolveEndpoint } from "../../core/oauth/endpoints.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import { AdapterError } from "../../core/errors.js"
import { find, has, limiterEvents, rateLimitEvents, rateLimitRole, rateLimitUnreachable, signInTailRole, signInTailUnreachable, tailPolicyNote, tailPolicyOf, type MachineDriver } from "./driver.js"
import type { OAuthCallbackPolicy } from "../../machines/oauth.js"
import { driveOAuth } from "./oauth-drive.js"
import { failedLookups, idTokenFaults, latecomer, oauthEvents, starter } from "./oauth-events.js"
import { responseLabels, variantOf } from "./oauth-responses.js"
import { strategyOf } from "../world.js"
import type { OAuthProviderConfig } from "../../providers/oauth.js"
import type { MachineEvent } from "../transitions.js"
import type { AuthConfig } from "../../types.js"

/** True when the engine discovers this provider's endpoints (it lacks one it needs). */
export function usesDiscovery(provider: OAuthProviderConfig): boolean {
  const { authorization, token, userinfo } = provider
  return !resolveEndpoint(authorization).url || !resolveEndpoint(token).url || (provider.type === "oidc" && !resolveEndpoint(userinfo).url)
}

/** Events whose condition is their own name. */
const namedConditions = new Set(["csrf.invalid", "discovery.failed", "authorization.failed", "response.unreadable", "code.refused", "exchange.failed", "tokens.invalid", "profile.failed", "undo.failed", ...Object.keys(idTokenFaults)])

/**
 * How the account-linking events are named in a path: by the case they stand for, as the lookups
 * find it (the machine decides what it means).
 */
function accountCondition(event: MachineEvent): string | undefined {
  switch (event.type) {
    case "account.linked":
      return event.signedInAs === undefined ? "account.linkedToUser" : "account.linkedToOther"
    case "account.new": {
      const signedIn = (event.signedIn as { id?: string } | undefined)?.id
      if (signedIn === starter) return "account.new.signedIn(sign-in started signed in)"
      if (signedIn === latecomer) return "account.new.signedIn(signed in meanwhile)"
      return undefined
    }
    case "emailOwner.found":
      return "account.new.emailTaken"
    case "emailOwner.none":
      return "account.new.noUser"
    case "lookup.failed":
      return event.error === failedLookups.email ? "lookup.failed(getUserByEmail)" : "lookup.failed"
  }
  return undefined
}

/**
 * The driver of the OAuth machine for one provider of `config`.
 *
 * @example
 * ```ts
 * const driver = oauthDriver(config, github)
 * driver.target // "oauth github"
 * ```
 */
export function oauthDriver(config: AuthConfig, provider: OAuthProviderConfig): MachineDriver {
  const strategy = strategyOf(config)
  const adapter = config.adapter !== undefined
  const discovery = usesDiscovery(provider)
  const oidc = provider.type === "oidc"
  const emailLinking = provider.allowDangerousEmailAccountLinking === true
  const tail = tailPolicyOf(config, strategy)

  return {
    machine: oauthMachine,
    target: `oauth ${provider.id}`,
    provider: provider.id,
    // The callback's limited state offers its own variants, so that its paths are named apart from the sign-in's.
    events: (snapshot) => [...(snapshot.value === "checkingCallbackRateLimit" ? limiterEvents("callback") : rateLimitEvents), ...oauthEvents(discovery, { adapter, emailLinking, tail }, snapshot)],
    role(event) {
      const limiter = rateLimitRole(event)
      if (limiter) return limiter
      if (namedConditions.has(event.type)) return { condition: event.type }
      if (event.type === "response.received") return { ...(responseLabels[variantOf(event)] && { condition: responseLabels[variantOf(event)]! }) }
      const account = accountCondition(event)
      if (account) return { condition: account }
      // Without an adapter every account is new and nothing is looked up: the path is named as the new account's is with one.
      if (event.type === "profile.received" && !adapter) return { condition: "account.new.noUser" }
      if (event.type === "user.undone") return { ordinary: true }
      if (event.type === "flow.replayed") return { condition: "flow cookie sent twice" }
      if (event.type === "flow.claimFailed") return { condition: event.error instanceof AdapterError ? "claimFlow failed" : "claimFlow failed (another replay store)" }
      if (event.type === "callback.received") {
        const policy = event.policy as OAuthCallbackPolicy
        const tailNote = tailPolicyNote(policy, tail)
        const notes = [
          ...(policy.adapter !== adapter ? [policy.adapter ? "with an adapter" : "without an adapter"] : []),
          ...(policy.emailLinking !== emailLinking ? [`allowDangerousEmailAccountLinking ${policy.emailLinking ? "on" : "off"}`] : []),
          ...(tailNote ? [tailNote] : []),
        ]
        return notes.length ? { note: notes.join(", ") } : {}
      }
      return signInTailRole(event, strategy, config) ?? {}
    },
    impossible(path) {
      const persisted = find<{ type: string; isNewUser: boolean }>(path, "user.persisted")
      // A user is new exactly when the sign-in creates it.
      return persisted !== undefined && persisted.isNewUser !== has(path, "emailOwner.none")
    },
    unreachable(path) {
      const policy = find<{ type: string; policy: OAuthCallbackPolicy }>(path, "callback.received")?.policy
      if (policy && policy.adapter !== adapter) return adapter ? "an adapter is configured: every user is stored" : "no adapter: accounts are never linked"
      if (policy && policy.emailLinking !== emailLinking) {
        return emailLinking
          ? `providers.${provider.id}.allowDangerousEmailAccountLinking is on: an account is always linked to the user with its email`
          : `providers.${provider.id}.allowDangerousEmailAccountLinking is off: an account is never linked to another user with its email`
      }
      if (has(path, "csrf.invalid") && config.skipCSRFCheck === skipCSRFCheck) return "skipCSRFCheck: the CSRF token is not checked"
      const claim = find<{ type: string; error: unknown }>(path, "flow.claimFailed")
      if (claim && config.replayStore) return "replayStore is your own: the kit makes only the adapter-backed default fail"
      if (claim?.error instanceof AdapterError && !config.adapter?.createVerificationToken) return "no adapter with createVerificationToken: the flow is claimed in memory, which cannot fail"
      if (claim && !(claim.error instanceof AdapterError)) return "the kit makes only the adapter-backed default replay store fail, with the adapter's error"
      const limited = rateLimitUnreachable(path, config, "oauth")
      if (limited) return limited
      if (!discovery && ["discovery.failed", "authorization.failed", "response.unreadable"].some((type) => has(path, type))) {
        return `${provider.id} has explicit endpoints: nothing is discovered`
      }
      if (!oidc && Object.keys(idTokenFaults).some((type) => has(path, type))) return `${provider.id} is an OAuth 2 provider: it issues no ID token`
      return signInTailUnreachable(path, strategy, config, policy)
    },
    drive: (scenario, world) => driveOAuth(provider, scenario, world),
  }
}
