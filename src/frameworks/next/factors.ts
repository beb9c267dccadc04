/**
 * The signed-in user's second factors from Server Actions, Server Components and Route Handlers:
 * `listFactors`, `enrolAuthenticatorApp`, `confirmAuthenticatorApp`, `renameFactor`,
 * `removeFactor` and `regenerateBackupCodes` of `NextAuth()`, with the names, arguments and
 * results of `authflow/client`'s. Each runs `<basePath>/factors` through `Auth()` on the incoming
 * request's cookies (no CSRF token: Next.js protects Server Actions) and writes the cookies it
 * sets (a waiting enrolment) through Next's cookie store, so all but `listFactors` belong in a
 * Server Action or Route Handler; `listFactors` sets none and also works in a Server Component.
 *
 * @module
 */
import { serverFactors, type ServerFactors } from "../shared/factors.js"
import { actionUrl, incomingHeaders, writeCookies, type ConfigResolver } from "./actions.js"

/**
 * The factor functions of `NextAuth()` (see the module).
 *
 * @example
 * ```ts
 * // auth.ts
 * export const { handlers, auth, enrolAuthenticatorApp, confirmAuthenticatorApp } = NextAuth(config)
 *
 * // app/account/actions.ts
 * "use server"
 * export async function startEnrolment() {
 *   const enrolment = await enrolAuthenticatorApp()
 *   return enrolment.ok ? { uri: enrolment.otpauthUri, secret: enrolment.secret } : { error: enrolment.error }
 * }
 * ```
 */
export function createFactorFunctions(resolve: ConfigResolver): ServerFactors {
  return serverFactors(async () => {
    const headers = await incomingHeaders()
    const config = await resolve()
    return { config, url: actionUrl("factors", headers, config), headers, setCookies: writeCookies }
  })
}
