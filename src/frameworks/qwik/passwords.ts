/**
 * The server side of the Qwik password actions (`useChangePassword`, `useChangeEmail`,
 * `useRequestPasswordReset`, `useResetPassword`): each posts `/auth/<route>/<provider>` through
 * `Auth()` on the event's cookies (no CSRF token: Qwik City checks the origin of actions) and
 * writes the cookies it sets (the session issued again after a password change, which keeps the
 * user signed in) through `event.cookie`. Kept apart from the QRL wiring, which needs a Qwik City
 * build to load.
 *
 * @module
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { runPasswordCall, type PasswordResult, type PasswordRoute } from "../shared/passwords.js"
import type { AuthConfig } from "../../types.js"
import { qwikCallContext } from "./factors.js"

/** What each password action runs on the server: the route named, with the input's string fields. */
export type QwikPasswordRunner = (route: PasswordRoute, input: unknown, event: RequestEventCommon) => Promise<PasswordResult>

/**
 * Runs password calls for a configuration resolved per event.
 *
 * @example
 * ```ts
 * const run = qwikPasswordRunner((event) => configFor(configQrl, event))
 * const changed = await run("change-password", { currentPassword, newPassword }, event)
 * ```
 */
export function qwikPasswordRunner(configOf: (event: RequestEventCommon) => Promise<Omit<AuthConfig, "raw">>): QwikPasswordRunner {
  return async (route, input, event) => {
    const fields = input && typeof input === "object" ? (input as Record<string, unknown>) : {}
    return runPasswordCall(route, fields, qwikCallContext(event, await configOf(event), route))
  }
}
