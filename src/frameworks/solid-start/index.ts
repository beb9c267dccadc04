/**
 * SolidStart integration of authflow (`authflow/solid-start`), API-compatible with
 * `@auth/solid-start`.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import type { SolidAuthConfig } from "authflow/solid-start"
 * import GitHub from "authflow/providers/github"
 * export const authConfig: SolidAuthConfig = { providers: [GitHub] }
 *
 * // src/routes/api/auth/[...solidauth].ts
 * import { SolidAuth } from "authflow/solid-start"
 * import { authConfig } from "~/auth"
 * export const { GET, POST } = SolidAuth(authConfig)
 * ```
 * @module
 */
import type { APIEvent, FetchEvent } from "@solidjs/start/server"
import { Auth } from "../../auth.js"
import { withClientAddress } from "../../core/rate-limit/peer.js"
import { isAuthAction } from "../../core/env.js"
import { derivedConfig, processEnv } from "./config.js"
import type { SolidAuthConfig, SolidAuthHandlers } from "./types.js"

/**
 * Sets authflow up for a SolidStart app and returns the `GET` and `POST` handlers of the catch-all
 * API route mounted at `prefix` (default `/api/auth`, e.g. `src/routes/api/auth/[...solidauth].ts`).
 *
 * A request goes to `Auth()` when its path starts with `<prefix>/` and the next segment is an
 * action (`session`, `csrf`, `providers`, `signin`, `signout`, `callback`, `verify-request`,
 * `error`, `webauthn-options`); any other request gets `undefined`.
 *
 * The environment fills in the rest (`AUTH_SECRET`, `AUTH_TRUST_HOST`, `AUTH_URL`,
 * `AUTH_<PROVIDER>_ID`/`_SECRET`…), read once per configuration object, at its first request; and
 * `prefix` becomes `basePath` (see `deriveConfig` in `config.ts`).
 * Deliberate differences from `@auth/solid-start`: `prefix` really is the base path (there, core's
 * `/auth` applied and the default setup failed with 400), `webauthn-options` is routed too, and
 * `raw` is ignored (an API route must answer a `Response`).
 *
 * @example
 * ```ts
 * import { SolidAuth } from "authflow/solid-start"
 * import Credentials from "authflow/providers/credentials"
 *
 * export const { GET, POST } = SolidAuth({
 *   providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: checkPassword })],
 * })
 * ```
 */
export function SolidAuth(config: SolidAuthConfig): SolidAuthHandlers {
  const handler = async (event: APIEvent | FetchEvent): Promise<Response | undefined> => {
    const { prefix, config: authConfig } = derivedConfig(config, processEnv())
    const { request } = event
    const { pathname } = new URL(request.url)
    if (!pathname.startsWith(`${prefix}/`)) return undefined
    const action = pathname.slice(prefix.length + 1).split("/")[0] ?? ""
    if (!isAuthAction(action)) return undefined
    return Auth(withClientAddress(request, (event as { clientAddress?: string }).clientAddress), authConfig)
  }
  return { GET: handler, POST: handler }
}

export { getSession, type GetSessionConfig } from "./session.js"
export { authMiddleware, isProtectedPath, requireSession } from "./protect.js"
export { requireRecentAuth } from "./recent-auth.js"
export type { RecentAuthDemand } from "../shared/recent-auth.js"
export { confirmAuthenticatorApp, enrolAuthenticatorApp, listFactors, regenerateBackupCodes, removeFactor, renameFactor, type FactorEvent } from "./factors.js"
export type { FactorsResult, ServerConfirmOptions, ServerRemoveOptions } from "../shared/factors.js"
export { listAccounts, switchAccount } from "./accounts.js"
export { changeEmail, changePassword, requestPasswordReset, resetPassword } from "./passwords.js"
export type { PasswordRefusal, PasswordResult } from "../shared/passwords.js"
export type { Accounts, OtherAccount, SwitchAccountResult } from "../shared/accounts.js"
export { AuthError, CredentialsSignin } from "../../core/errors.js"
export type {
  AuthMiddlewareOptions,
  ProtectOptions,
  SolidAuthConfig,
  SolidAuthHandler,
  SolidAuthHandlers,
  SolidAuthMiddleware,
} from "./types.js"
export type { Session, User } from "../../types.js"
