/**
 * The OAuth machine for one OAuth 2 / OpenID Connect provider: the sign-in request up to the
 * sealed `awaitingCallback`, the provider (a stand-in) answering in every way the machine tells
 * apart, and the callback request that resumes the flow.
 *
 * @module
 */
import { oauthMachine } from "../../machines/oauth.js"
import { mapProfile } from "../../core/oauth/callback.js"
import { clearDiscoveryCache } from "../../core/oauth/discovery.js"
import { resolveEndpoint } from "../../core/oauth/endpoints.js"
import { usesFormPost } from "../../core/oauth/client.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import { find, has, signInTailRole, signInTailUnreachable, type MachineDriver } from "./driver.js"
import { strategyOf } from "../world.js"
import type { StandInFaults } from "../stand-in/options.js"
import type { MachineEvent } from "../transitions.js"
import type { OAuthProviderConfig } from "../../providers/oauth.js"
import type { AuthConfig } from "../../types.js"

const starter = "signed-in-before"
const latecomer = "signed-in-after"
const issuer = "https://issuer.model"

/** True when the engine discovers this provider's endpoints (it lacks one it needs). */
export function usesDiscovery(provider: OAuthProviderConfig): boolean {
  const { authorization, token, userinfo } = provider
  return !resolveEndpoint(authorization).url || !resolveEndpoint(token).url || (provider.type === "oidc" && !resolveEndpoint(userinfo).url)
}

type ResponseVariant = "ok" | "no-iss" | "wrong-iss" | "forged-state" | "error"

const responseParams: Record<ResponseVariant, { state: string; iss?: string; error?: string }> = {
  ok: { state: "S", iss: issuer },
  "no-iss": { state: "S" },
  "wrong-iss": { state: "S", iss: "https://impostor.model" },
  "forged-state": { state: "forged", iss: issuer },
  error: { state: "S", iss: issuer, error: "access_denied" },
}

const responseLabels: Record<ResponseVariant, string | undefined> = {
  ok: undefined,
  "no-iss": "response.received(iss missing)",
  "wrong-iss": "response.received(iss of another issuer)",
  "forged-state": "response.received(forged state)",
  error: "response.received(error=access_denied)",
}

function variantOf(event: MachineEvent): ResponseVariant {
  const params = event.params as { state?: string; iss?: string; error?: string }
  if (params.error) return "error"
  if (params.state !== "S") return "forged-state"
  if (params.iss === undefined) return "no-iss"
  return params.iss === issuer ? "ok" : "wrong-iss"
}

const idTokenFaults: Record<string, StandInFaults["idToken"]> = {
  "idToken.badSignature": "bad-signature",
  "idToken.wrongIssuer": "wrong-issuer",
  "idToken.wrongAudience": "wrong-audience",
  "idToken.expired": "expired",
  "idToken.nonceMismatch": "wrong-nonce",
}

/** Events whose condition is their own name. */
const namedConditions = new Set(["csrf.invalid", "discovery.failed", "authorization.failed", "response.unreadable", "code.refused", "exchange.failed", "tokens.invalid", "profile.failed", "lookup.failed", ...Object.keys(idTokenFaults)])

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
  const issuerRequired = discovery
  const emailLinking = provider.allowDangerousEmailAccountLinking === true
  const callbacks = (config.callbacks ?? {}) as Record<string, unknown>
  const variants = (Object.keys(responseParams) as ResponseVariant[]).filter((variant) => variant !== "no-iss" || issuerRequired)

  const events: MachineEvent[] = [
    { type: "discovery.failed", error: "discovery answered 500" },
    { type: "authorization.failed", error: "no authorization endpoint" },
    { type: "authorization.ready", checks: { codeVerifier: "v", state: "S", nonce: "n", redirectUri: "r", callbackUrl: "/", startedBy: starter } },
    // Every policy, so that the paths the configuration's own policy rules out are listed with why.
    ...[true, false].flatMap((withAdapter) => [true, false].map((emailLinking) => ({ type: "callback.received", policy: { adapter: withAdapter, emailLinking } }))),
    ...variants.map((variant) => ({ type: "response.received", params: responseParams[variant], expectedIssuer: issuer, issuerRequired })),
    { type: "response.unreadable", error: "discovery down at the callback" },
    { type: "code.refused", error: "invalid_grant" },
    { type: "exchange.failed", error: "ECONNREFUSED" },
    ...Object.keys(idTokenFaults).map((type) => ({ type, error: type })),
    { type: "tokens.invalid", error: "tokens" },
    { type: "profile.failed", error: "userinfo answered 500" },
    { type: "account.new.signedIn", userId: starter },
    { type: "account.new.signedIn", userId: latecomer },
    { type: "lookup.failed", error: "getUserByAccount threw" },
    { type: "signIn.denied" },
    { type: "signIn.redirect", url: "/elsewhere" },
    { type: "user.persisted", isNewUser: true },
    { type: "user.persisted", isNewUser: false },
    { type: "persist.failed", error: "linkAccount threw" },
    { type: "session.failed", error: "createSession threw" },
  ]

  return {
    machine: oauthMachine,
    target: `oauth ${provider.id}`,
    provider: provider.id,
    events,
    role(event) {
      if (namedConditions.has(event.type)) return { condition: event.type }
      if (event.type === "response.received") return { ...(responseLabels[variantOf(event)] && { condition: responseLabels[variantOf(event)]! }) }
      if (event.type === "account.new.signedIn") return { condition: event.userId === starter ? "account.new.signedIn(sign-in started signed in)" : "account.new.signedIn(signed in meanwhile)" }
      if (event.type.startsWith("account.")) return { condition: event.type }
      if (event.type === "callback.received") {
        const policy = event.policy as { adapter: boolean; emailLinking: boolean }
        const notes = [...(policy.adapter !== adapter ? [policy.adapter ? "with an adapter" : "without an adapter"] : []), ...(policy.emailLinking !== emailLinking ? [`allowDangerousEmailAccountLinking ${policy.emailLinking ? "on" : "off"}`] : [])]
        return notes.length ? { note: notes.join(", ") } : {}
      }
      return signInTailRole(event, strategy, (name) => typeof callbacks[name] === "function") ?? {}
    },
    impossible(path) {
      const persisted = find<{ type: string; isNewUser: boolean }>(path, "user.persisted")
      // A user is new exactly when the sign-in creates it.
      return persisted !== undefined && persisted.isNewUser !== has(path, "account.new.noUser")
    },
    unreachable(path) {
      const policy = find<{ type: string; policy: { adapter: boolean; emailLinking: boolean } }>(path, "callback.received")?.policy
      if (policy && policy.adapter !== adapter) return adapter ? "an adapter is configured: every user is stored" : "no adapter: accounts are never linked"
      if (policy && policy.emailLinking !== emailLinking) {
        return emailLinking
          ? `providers.${provider.id}.allowDangerousEmailAccountLinking is on: an account is always linked to the user with its email`
          : `providers.${provider.id}.allowDangerousEmailAccountLinking is off: an account is never linked to another user with its email`
      }
      if (has(path, "csrf.invalid") && config.skipCSRFCheck === skipCSRFCheck) return "skipCSRFCheck: the CSRF token is not checked"
      if (!discovery && ["discovery.failed", "authorization.failed", "response.unreadable"].some((type) => has(path, type))) {
        return `${provider.id} has explicit endpoints: nothing is discovered`
      }
      if (!oidc && Object.keys(idTokenFaults).some((type) => has(path, type))) return `${provider.id} is an OAuth 2 provider: it issues no ID token`
      const account = path.find((event) => event.type.startsWith("account.") && event.type !== "account.new.noUser")
      if (!adapter && account) return "no adapter: accounts are never linked"
      if (!adapter && has(path, "lookup.failed")) return "no adapter: nothing is looked up"
      return signInTailUnreachable(path, strategy, config)
    },
    async drive(scenario, world) {
      const conditions = scenario.conditions
      const standIn = world.standIn(provider.id)
      const idTokenFault = conditions.map((event) => idTokenFaults[event.type]).find(Boolean)
      standIn.faults = {
        ...(has(conditions, "discovery.failed") && { discovery: "down" as const }),
        ...(has(conditions, "authorization.failed") && { discovery: "no-authorization-endpoint" as const }),
        ...(has(conditions, "code.refused") && { token: "invalid_grant" as const }),
        ...(has(conditions, "exchange.failed") && { token: "unreachable" as const }),
        ...(has(conditions, "tokens.invalid") && { token: oidc ? ("no-id-token" as const) : ("no-access-token" as const) }),
        ...(has(conditions, "profile.failed") && { profile: "unavailable" as const }),
        ...(idTokenFault && { idToken: idTokenFault }),
      }

      // The database and the browser as this path finds them.
      const account = conditions.find((event) => event.type.startsWith("account."))
      const signedInBefore = account?.type === "account.linkedToOther" || (account?.type === "account.new.signedIn" && account.userId === starter)
      const signedInAfter = account?.type === "account.new.signedIn" && account.userId === latecomer
      if (account?.type === "account.linkedToUser" || account?.type === "account.linkedToOther") {
        const claims = standIn.options.claims
        const owner = await world.ensureUser(String(claims.email), String(claims.name ?? "Stand-in User"))
        const { account: mapped } = await mapProfile(provider, { ...claims, sub: standIn.subject }, { access_token: standIn.accessToken, token_type: "bearer" })
        await world.database!.linkAccount!({ userId: owner.id, type: provider.type, provider: provider.id, providerAccountId: mapped.providerAccountId })
      }
      if (account?.type === "account.new.emailTaken") standIn.options.claims.email = (await world.existingUser()).email
      if (signedInBefore) await world.signInAs(await world.existingUser())

      const csrfToken = await world.csrfToken()
      const signIn = await world.send(`/signin/${provider.id}`, {
        form: { callbackUrl: world.callbackUrl, ...(!has(conditions, "csrf.invalid") && { csrfToken }) },
      })
      const location = signIn.headers.get("location")
      // The flow ended in the sign-in request unless it sent the browser to the provider.
      if (!location || new URL(location, world.origin).origin === world.origin) return

      // Between the two requests.
      if (has(conditions, "response.unreadable")) {
        standIn.faults.discovery = "down"
        clearDiscoveryCache(standIn.fetch)
      }
      if (signedInAfter) await world.signInAs(await world.existingUser())
      if (has(conditions, "lookup.failed")) world.record.failing.add("getUserByAccount")
      if (has(conditions, "persist.failed")) world.record.failing.add("linkAccount")
      if (has(conditions, "session.failed") && strategy === "database") world.record.failing.add("createSession")

      const response = find(conditions, "response.received")
      const variant = response ? variantOf(response) : "ok"
      const back = standIn.redirectBack(new URL(location), {
        ...(variant === "error" && { error: "access_denied" }),
        ...(variant === "forged-state" && { state: "forged-state" }),
        ...(variant === "no-iss" && { iss: "omit" }),
        ...(variant === "wrong-iss" && { iss: "https://impostor.stand-in.test" }),
      })
      if (usesFormPost(provider)) await world.send(`/callback/${provider.id}`, { form: Object.fromEntries(back) })
      else await world.send(`/callback/${provider.id}?${back}`)
    },
  }
}
