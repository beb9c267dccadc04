/**
 * Password accounts from server code: the form actions `changePassword`, `changeEmail`,
 * `requestPasswordReset` and `resetPassword`, returned by `SvelteKitAuth()`. Each posts
 * `<basePath>/<route>/<provider>` through `Auth()` on the event's cookies (no CSRF token: SvelteKit
 * checks the origin of form posts) and writes the cookies it sets (the session issued again after a
 * password change, which keeps the user signed in) through `event.cookies`. A form action reads
 * its fields (`currentPassword`, `newPassword`; `newEmail`, `password`; `email`; `token`,
 * `password`) from the form, or from `input` when called from your own action; it returns the
 * result for the page's `form` prop, refusals included (`{ ok: false, error, status }`).
 *
 * @module
 */
import type { RequestEvent } from "@sveltejs/kit"
import type { EnvObject } from "../../core/env.js"
import { runPasswordCall, type PasswordRoute } from "../shared/passwords.js"
import { actionUrl, clientAddressOf, writeCookies } from "./actions.js"
import { formFields } from "./factors.js"
import type { SvelteKitAuthConfig, SvelteKitPasswordActions } from "./types.js"

/**
 * The password form actions for a configuration resolved per event.
 *
 * @example
 * ```ts
 * const passwords = createPasswordActions(resolveConfig, env)
 * await passwords.changePassword(event)
 * ```
 */
export function createPasswordActions(resolveConfig: (event: RequestEvent) => Promise<SvelteKitAuthConfig>, env: EnvObject): SvelteKitPasswordActions {
  const run = (route: PasswordRoute) => async (event: RequestEvent, input?: object) => {
    const config = await resolveConfig(event)
    return runPasswordCall(route, input ?? (await formFields(event)), {
      config,
      url: actionUrl(route, event, config, env),
      headers: event.request.headers,
      clientAddress: clientAddressOf(event),
      setCookies: (cookies) => writeCookies(event, cookies),
    })
  }
  return {
    changePassword: run("change-password"),
    changeEmail: run("change-email"),
    requestPasswordReset: run("forgot-password"),
    resetPassword: run("reset-password"),
  }
}
