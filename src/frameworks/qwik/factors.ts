/**
 * The server side of the Qwik factor actions (`useFactors`, `useEnrolAuthenticatorApp`…): each
 * runs `/auth/factors` through `Auth()` on the event's cookies (no CSRF token: Qwik City checks the
 * origin of actions) and writes the cookies it sets (a waiting enrolment) through `event.cookie`.
 * Kept apart from the QRL wiring, which needs a Qwik City build to load.
 *
 * @module
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { factorCallOf, runFactorCall, type FactorCall, type FactorCallContext, type FactorCallResults, type FactorsResult } from "../shared/factors.js"
import type { AuthAction, AuthConfig } from "../../types.js"
import { writeCookies } from "./cookies.js"
import { qwikBasePath } from "./env.js"

/** What each factor action runs on the server: the call named, with the input's string fields. */
export type QwikFactorRunner = <A extends FactorCall["action"]>(action: A, input: unknown, event: RequestEventCommon) => Promise<FactorsResult<FactorCallResults[A]>>

/**
 * Runs factor calls for a configuration resolved per event.
 *
 * @example
 * ```ts
 * const run = qwikFactorRunner((event) => configFor(configQrl, event))
 * const listed = await run("list", {}, event)
 * ```
 */
export function qwikFactorRunner(configOf: (event: RequestEventCommon) => Promise<Omit<AuthConfig, "raw">>): QwikFactorRunner {
  return async (action, input, event) => {
    const fields = input && typeof input === "object" ? (input as Record<string, unknown>) : {}
    return runFactorCall(factorCallOf(action, fields), qwikCallContext(event, await configOf(event), "factors"))
  }
}

/**
 * Where a server call to `/auth/<action>` runs: the event's request, its cookies written through
 * `event.cookie`.
 *
 * @example
 * ```ts
 * const context = qwikCallContext(event, await configOf(event), "factors")
 * ```
 */
export function qwikCallContext(event: RequestEventCommon, config: Omit<AuthConfig, "raw">, action: AuthAction): FactorCallContext {
  return {
    config,
    url: new URL(`${qwikBasePath}/${action}`, event.url),
    headers: event.request.headers,
    clientAddress: event.clientConn?.ip,
    setCookies: (cookies) => writeCookies(event.cookie, cookies),
  }
}
