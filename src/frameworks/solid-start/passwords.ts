/**
 * Password accounts from SolidStart server functions (`"use server"`, an `action`):
 * `changePassword`, `changeEmail`, `requestPasswordReset` and `resetPassword`, with the arguments
 * of `authflow/client`'s after the event and the configuration. Each posts
 * `<prefix>/<route>/<provider>` through `Auth()` on the request's cookies and sets the cookies it
 * answers on `event.response` (the session issued again after a password change, which keeps the
 * user signed in).
 *
 * SolidStart does not check where a server function's request comes from, so each refuses a
 * cross-site one (`Sec-Fetch-Site: cross-site`, or an `Origin` of another host) with
 * `{ ok: false, error: "MissingCSRF", status: 403 }`, as the factor functions do.
 *
 * @module
 */
import { runPasswordCall, type PasswordCallFields, type PasswordProviderOption, type PasswordResult, type PasswordRoute } from "../shared/passwords.js"
import { callContext, crossSite, type FactorEvent } from "./factors.js"
import type { GetSessionConfig } from "./session.js"

function run(route: PasswordRoute, event: FactorEvent, config: GetSessionConfig, fields: object): Promise<PasswordResult> {
  if (crossSite(event.request)) return Promise.resolve({ ok: false, error: "MissingCSRF", status: 403 })
  return runPasswordCall(route, fields, callContext(event, config, route))
}

/**
 * Changes the signed-in user's password, with the current one; they stay signed in, their other
 * sessions end. Signed out: `signed-out` (401); a wrong current password: `CredentialsSignin` (400).
 *
 * @example
 * ```ts
 * const savePassword = action(async (form: FormData) => {
 *   "use server"
 *   return changePassword(getRequestEvent()!, authConfig, { currentPassword: String(form.get("current")), newPassword: String(form.get("new")) })
 * })
 * ```
 */
export async function changePassword(event: FactorEvent, config: GetSessionConfig, options: PasswordCallFields["change-password"] & PasswordProviderOption): Promise<PasswordResult> {
  return run("change-password", event, config, options)
}

/**
 * Asks to move the signed-in user's account to `newEmail`, with their password: a link is mailed
 * there, and nothing changes until it is followed.
 *
 * @example
 * ```ts
 * const asked = await changeEmail(getRequestEvent()!, authConfig, { newEmail, password })
 * ```
 */
export async function changeEmail(event: FactorEvent, config: GetSessionConfig, options: PasswordCallFields["change-email"] & PasswordProviderOption): Promise<PasswordResult> {
  return run("change-email", event, config, options)
}

/**
 * Mails a reset link to the account at `email`; the answer is the same whether or not the address
 * has an account.
 *
 * @example
 * ```ts
 * await requestPasswordReset(getRequestEvent()!, authConfig, { email })
 * ```
 */
export async function requestPasswordReset(event: FactorEvent, config: GetSessionConfig, options: PasswordCallFields["forgot-password"] & PasswordProviderOption): Promise<PasswordResult> {
  return run("forgot-password", event, config, options)
}

/**
 * Sets a new password with the `token` of a mailed reset link; it works once, within an hour.
 *
 * @example
 * ```ts
 * const reset = await resetPassword(getRequestEvent()!, authConfig, { token, password })
 * ```
 */
export async function resetPassword(event: FactorEvent, config: GetSessionConfig, options: PasswordCallFields["reset-password"] & PasswordProviderOption): Promise<PasswordResult> {
  return run("reset-password", event, config, options)
}
