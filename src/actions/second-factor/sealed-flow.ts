/**
 * The second-factor flow's cookies: its snapshot sealed for 5 minutes in the `secondFactor`
 * cookie, bound to the browser by `flowBinding`'s name with `.second-factor`.
 *
 * @module
 */
import { sealedFlow, type FlowCookies } from "../flow-cookie.js"
import type { AuthOptions } from "../../core/options.js"
import { secondFactorMachine } from "../../machines/second-factor.js"

/** Bump when the waiting state or the sealed context change shape: older flows are then refused. */
export const SECOND_FACTOR_FLOW_VERSION = 1

/** Seconds a sign-in waits for its second factor. */
export const SECOND_FACTOR_MAX_AGE = 5 * 60

/** The flow is not a provider's: every second factor is sealed for this one name. */
export const secondFactorSite = { id: "second-factor" } as const

/**
 * The second-factor flow's cookies: the `secondFactor` cookie, and the binding cookie (`flowBinding`'s
 * name with `.second-factor`), both living 5 minutes.
 *
 * @example
 * ```ts
 * secondFactorCookies(options).binding.name // "__Host-authflow.flow-binding.second-factor" (with secure cookies)
 * ```
 */
export function secondFactorCookies(options: Pick<AuthOptions, "cookies">): FlowCookies {
  return {
    flow: options.cookies.secondFactor,
    binding: { name: `${options.cookies.flowBinding.name}.second-factor`, options: { ...options.cookies.flowBinding.options, maxAge: SECOND_FACTOR_MAX_AGE } },
  }
}

/**
 * The sealed second-factor flow.
 *
 * @example
 * ```ts
 * const site = secondFactorFlow.site(options, secondFactorSite)
 * const opened = await secondFactorFlow.open(site, options.request.cookies)
 * ```
 */
export const secondFactorFlow = sealedFlow({
  machine: secondFactorMachine,
  version: SECOND_FACTOR_FLOW_VERSION,
  seals: ["user", "account", "profile", "isNewUser", "callbackUrl", "methods", "attempts", "emailCode", "rateLimitIdentity", "stepUp"],
  maxAge: SECOND_FACTOR_MAX_AGE,
  cookies: (options) => secondFactorCookies(options),
})
