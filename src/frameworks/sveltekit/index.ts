/**
 * SvelteKit integration of authflow (`authflow/sveltekit`), API-compatible with `@auth/sveltekit`.
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { SvelteKitAuth } from "authflow/sveltekit"
 * import GitHub from "authflow/providers/github"
 * import { base } from "$app/paths"
 * import { dev } from "$app/environment"
 * import { env } from "$env/dynamic/private"
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [GitHub] }, { base, dev, env })
 *
 * // src/hooks.server.ts
 * export { handle } from "./auth"
 *
 * // src/routes/signin/+page.server.ts
 * import { signIn } from "../../auth"
 * export const actions = { default: signIn }
 * ```
 * @module
 */
import type { Handle, RequestEvent } from "@sveltejs/kit"
import { Auth } from "../../auth.js"
import { withClientAddress } from "../../core/rate-limit/peer.js"
import { isAuthAction, type EnvObject } from "../../core/env.js"
import { clientAddressOf, readSession, signInAction, signOutAction } from "./actions.js"
import { processEnv, setSvelteKitEnvDefaults } from "./env.js"
import { createFactorActions } from "./factors.js"
import { createPasswordActions } from "./passwords.js"
import { createAccountActions } from "./accounts.js"
import { createRequireRecentAuth } from "./recent-auth.js"
import type { SvelteKitAuthConfig, SvelteKitAuthConfigInit, SvelteKitAuthOptions, SvelteKitAuthResult } from "./types.js"

/**
 * Sets authflow up for a SvelteKit app and returns the server hook `handle`, the form actions
 * `signIn` and `signOut`, the signed-in user's second factors (`listFactors`, the form actions
 * `enrolAuthenticatorApp`…, see `SvelteKitFactorActions`), and the Password provider's form
 * actions `changePassword`, `changeEmail`, `requestPasswordReset` and `resetPassword` (see
 * `SvelteKitPasswordActions`).
 *
 * `config` is the configuration, or a function of the request event returning it, synchronously
 * or not (lazy initialisation, called for every use). On first use each configuration object is
 * completed from the environment (see {@link setSvelteKitEnvDefaults}): `basePath` is
 * `<base>/auth`, `skipCSRFCheck` is set, `secret` comes from `AUTH_SECRET`…
 *
 * `options` stands in for SvelteKit's virtual modules, which a package cannot import outside Vite:
 * pass `base` (`$app/paths`), `dev` (`$app/environment`) and `env` (`$env/dynamic/private`).
 *
 * @example
 * ```ts
 * import { SvelteKitAuth, CredentialsSignin } from "authflow/sveltekit"
 * import Credentials from "authflow/providers/credentials"
 * import { fail } from "@sveltejs/kit"
 *
 * export const { handle, signIn, signOut } = SvelteKitAuth({
 *   providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: checkPassword })],
 * })
 *
 * // +page.server.ts: a refused sign-in is thrown; turn it into a form failure
 * export const actions = {
 *   default: async (event) => {
 *     try {
 *       return await signIn(event)
 *     } catch (error) {
 *       if (error instanceof CredentialsSignin) return fail(400, { error: "CredentialsSignin" })
 *       throw error
 *     }
 *   },
 * }
 * ```
 */
export function SvelteKitAuth(config: SvelteKitAuthConfigInit, options: SvelteKitAuthOptions = {}): SvelteKitAuthResult {
  const env: EnvObject = options.env ?? processEnv()
  const base = options.base ?? ""
  const dev = options.dev ?? env.NODE_ENV === "development"
  const completed = new WeakSet<SvelteKitAuthConfig>()

  async function resolveConfig(event: RequestEvent): Promise<SvelteKitAuthConfig> {
    const resolved = typeof config === "function" ? await config(event) : config
    if (!completed.has(resolved)) {
      setSvelteKitEnvDefaults(env, resolved, { base, dev })
      completed.add(resolved)
    }
    return resolved
  }

  const handle: Handle = async ({ event, resolve }) => {
    const resolved = await resolveConfig(event)
    event.locals.auth ??= () => readSession(event, resolved, env)
    event.locals.getSession ??= event.locals.auth
    const prefix = `${resolved.basePath}/`
    const { pathname } = event.url
    if (pathname.startsWith(prefix) && isAuthAction(pathname.slice(prefix.length).split("/")[0] ?? "")) {
      return Auth(withClientAddress(event.request, clientAddressOf(event)), resolved)
    }
    return resolve(event)
  }

  return {
    handle,
    signIn: async (event) => signInAction(event, await resolveConfig(event), env),
    signOut: async (event) => signOutAction(event, await resolveConfig(event), env),
    ...createFactorActions(resolveConfig, env),
    ...createAccountActions(resolveConfig, env),
    ...createPasswordActions(resolveConfig, env),
    requireRecentAuth: createRequireRecentAuth(resolveConfig, env),
  }
}

export default SvelteKitAuth
export { setSvelteKitEnvDefaults } from "./env.js"
export { AuthError, CredentialsSignin } from "../../core/errors.js"
export type { AuthActionData, AuthorizationParamsField, SvelteKitAuthConfig, SvelteKitAuthConfigInit, SvelteKitAuthOptions, SvelteKitAuthResult } from "./types.js"
export type { Session, User } from "../../types.js"
export type { SvelteKitFactorActions } from "./types.js"
export type { SvelteKitAccountActions } from "./types.js"
export type { SvelteKitPasswordActions } from "./types.js"
export type { PasswordRefusal, PasswordResult } from "../shared/passwords.js"
export type { Accounts, OtherAccount, SwitchAccountResult } from "../shared/accounts.js"
export type { ConfirmFactorInput, FactorsResult, RemoveFactorInput, RenameFactorInput } from "../shared/factors.js"
export type { SvelteKitRequireRecentAuth } from "./types.js"
export type { RecentAuthDemand } from "../shared/recent-auth.js"
