/**
 * The OAuth machine's events as the kit generates them, and the stand-in faults that make the
 * engine meet them.
 *
 * @module
 */
import type { AnyMachineSnapshot } from "xstate"
import { clearDiscoveryCache } from "../../core/oauth/discovery.js"
import type { StandInProvider } from "../stand-in.js"
import { modelIssuer, responseParams, responseRefusals, type ResponseVariant } from "./oauth-responses.js"
import type { StandInFaults } from "../stand-in/options.js"
import type { MachineEvent } from "../transitions.js"
import { everyTailPolicy, signInTailEvents } from "./driver.js"
import type { SignInTailPolicy } from "../../machines/sign-in-tail.js"
import { AdapterError } from "../../core/errors.js"

/** The user signed in when the sign-in started, and the one who signed in while it waited at the provider. */
export const starter = "signed-in-before"
export const latecomer = "signed-in-after"

/** The user the provider account is linked to (or whose email the profile has), and who a browser is signed in as, as the model's events carry them. */
const owner = { id: "owner", email: "owner@stand-in.test", emailVerified: null }
const signedInAs = (id: string) => ({ id, email: `${id}@stand-in.test`, emailVerified: null })

/**
 * The replay store failing to claim the waiting flow at the callback: in the adapter's database
 * (the default store of a configuration with an adapter), or in another store.
 */
const claimFailures = {
  adapter: new AdapterError("The replay store could not claim a resumed flow"),
  other: new Error("the replay store threw"),
} as const

/** Which lookup a `lookup.failed` event stands for: the account's (`resolvingAccount`) or the email owner's (`findingEmailOwner`). */
export const failedLookups = { account: "getUserByAccount threw", email: "getUserByEmail threw" } as const

/**
 * The payload-carrying events the model generates paths with: every answer the provider, the
 * database and your own code can give (`issuerRequired`: whether a redirect back without `iss` is
 * one the engine tells apart).
 */
export function oauthEvents(issuerRequired: boolean, own: { adapter: boolean; emailLinking: boolean; tail: SignInTailPolicy }, snapshot: AnyMachineSnapshot): MachineEvent[] {
  const state = snapshot.value
  const variants = (Object.keys(responseParams) as ResponseVariant[]).filter((variant) => variant !== "no-iss" || issuerRequired)
  return [
    { type: "discovery.failed", error: "discovery answered 500" },
    { type: "authorization.failed", error: "no authorization endpoint" },
    { type: "authorization.ready", checks: { codeVerifier: "v", state: "S", nonce: "n", redirectUri: "r", callbackUrl: "/", startedBy: starter }, url: `${modelIssuer}/authorize`, issued: true },
    // Every policy, so that the paths the configuration's own policy rules out are listed with why.
    ...[true, false].flatMap((withAdapter) => [true, false].map((emailLinking) => ({ type: "callback.received", policy: { adapter: withAdapter, emailLinking, ...own.tail } }))),
    // …and every sign-in tail policy (session strategy, pages.newUser) with the configuration's own adapter and linking.
    ...everyTailPolicy(own.tail).slice(1).map((tail) => ({ type: "callback.received", policy: { adapter: own.adapter, emailLinking: own.emailLinking, ...tail } })),
    { type: "flow.claimFailed", error: claimFailures.adapter },
    { type: "flow.claimFailed", error: claimFailures.other },
    ...variants.map((variant) => ({
      type: "response.received",
      params: responseParams[variant],
      expectedIssuer: modelIssuer,
      issuerRequired,
      server: { issuer: modelIssuer },
      ...(responseRefusals[variant] !== undefined && { error: responseRefusals[variant] }),
    })),
    { type: "response.unreadable", error: "discovery down at the callback" },
    { type: "code.refused", error: "invalid_grant" },
    { type: "exchange.failed", error: "ECONNREFUSED" },
    ...Object.keys(idTokenFaults).map((type) => ({ type, error: type })),
    { type: "tokens.invalid", error: "tokens" },
    { type: "profile.failed", error: "userinfo answered 500" },
    { type: "account.linked", user: owner },
    { type: "account.linked", user: owner, signedInAs: "someone-else" },
    { type: "account.new" },
    { type: "account.new", signedIn: signedInAs(starter) },
    { type: "account.new", signedIn: signedInAs(latecomer) },
    { type: "emailOwner.found", user: owner },
    { type: "lookup.failed", error: state === "findingEmailOwner" ? failedLookups.email : failedLookups.account },
    ...signInTailEvents(snapshot),
    { type: "user.persisted", isNewUser: true, user: owner },
    { type: "user.persisted", isNewUser: false, user: owner },
    { type: "persist.failed", error: "linkAccount threw" },
    { type: "user.undone" },
    { type: "undo.failed", error: "deleteUser threw" },
  ]
}

/** The ID token events, and the stand-in fault behind each. */
export const idTokenFaults: Record<string, StandInFaults["idToken"]> = {
  "idToken.badSignature": "bad-signature",
  "idToken.wrongIssuer": "wrong-issuer",
  "idToken.wrongAudience": "wrong-audience",
  "idToken.expired": "expired",
  "idToken.nonceMismatch": "wrong-nonce",
}

/**
 * The stand-in's faults that make the engine meet the provider's events among `events`
 * (`profile.failed`: userinfo fails).
 *
 * @example
 * ```ts
 * standInFaults([{ type: "code.refused", error: "invalid_grant" }], true) // { token: "invalid_grant" }
 * ```
 */
export function standInFaults(events: readonly { type: string }[], oidc: boolean): StandInFaults {
  const has = (type: string) => events.some((event) => event.type === type)
  const idToken = events.map((event) => idTokenFaults[event.type]).find(Boolean)
  return {
    ...(has("discovery.failed") && { discovery: "down" as const }),
    ...(has("authorization.failed") && { discovery: "no-authorization-endpoint" as const }),
    ...(has("code.refused") && { token: "invalid_grant" as const }),
    ...(has("exchange.failed") && { token: "unreachable" as const }),
    ...(has("tokens.invalid") && { token: oidc ? ("no-id-token" as const) : ("no-access-token" as const) }),
    ...(has("profile.failed") && { profile: "unavailable" as const }),
    ...(idToken && { idToken }),
  }
}

/** Between the two requests of `response.unreadable`: the provider's discovery goes down, and the engine forgets what it discovered. */
export function discoveryGoesDown(standIn: StandInProvider): void {
  standIn.faults.discovery = "down"
  clearDiscoveryCache(standIn.fetch)
}
