/**
 * Password accounts from Server Actions and Route Handlers: `changePassword`, `changeEmail`,
 * `requestPasswordReset` and `resetPassword` of `NextAuth()`, with the names and arguments of
 * `authflow/client`'s. Each posts `<basePath>/<route>/<provider>` through `Auth()` on the incoming
 * request's cookies (no CSRF token: Next.js protects Server Actions) and writes the cookies it sets
 * (the session issued again after a password change, which keeps the user signed in) through
 * Next's cookie store.
 *
 * @module
 */
import { serverPasswords, type ServerPasswords } from "../shared/passwords.js"
import { actionUrl, incomingHeaders, writeCookies, type ConfigResolver } from "./actions.js"

/**
 * The password functions of `NextAuth()` (see the module).
 *
 * @example
 * ```ts
 * // auth.ts
 * export const { handlers, auth, changePassword } = NextAuth(config)
 *
 * // app/account/actions.ts
 * "use server"
 * export async function savePassword(_previous: unknown, form: FormData) {
 *   const changed = await changePassword({ currentPassword: String(form.get("current")), newPassword: String(form.get("new")) })
 *   return changed.ok ? { saved: true } : { error: changed.error }
 * }
 * ```
 */
export function createPasswordFunctions(resolve: ConfigResolver): ServerPasswords {
  return serverPasswords(async (route) => {
    const headers = await incomingHeaders()
    const config = await resolve()
    return { config, url: actionUrl(route, headers, config), headers, setCookies: writeCookies }
  })
}
