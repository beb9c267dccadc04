/**
 * Next.js integration of authflow (`authflow/next`), API-compatible with next-auth v5.
 *
 * @example
 * ```ts
 * // auth.ts
 * import NextAuth from "authflow/next"
 * import GitHub from "authflow/providers/github"
 * export const { handlers, auth, signIn, signOut } = NextAuth({ providers: [GitHub] })
 *
 * // app/api/auth/[...nextauth]/route.ts
 * export const { GET, POST } = handlers
 *
 * // proxy.ts (middleware.ts before Next.js 16)
 * export { auth as proxy } from "@/auth"
 * ```
 * @module
 */
import type { NextRequest } from "next/server.js"
import { Auth } from "../../auth.js"
import { createSignIn, createSignInAction, createSignOut, createUpdate } from "./actions.js"
import { createAuth } from "./auth.js"
import { createFactorFunctions } from "./factors.js"
import { createAccountFunctions } from "./accounts.js"
import { createPasswordFunctions } from "./passwords.js"
import { createRequireRecentAuth } from "./recent-auth.js"
import { publicRequest, setNextEnvDefaults, withEnvOrigin } from "./env.js"
import type { NextAuthConfig, NextAuthConfigInit, NextAuthResult } from "./types.js"

/**
 * Sets authflow up for a Next.js app and returns its route handlers, `auth`, and the server-side
 * `signIn`, `signInAction` (a form's sign-in in one call), `signOut`, `unstable_update`, and the
 * signed-in user's second factors (`listFactors`, `enrolAuthenticatorApp`…, see `ServerFactors`).
 *
 * `config` is the configuration, or a function of the request returning it, synchronously or not
 * (lazy initialisation). The function is called for every use: with the `NextRequest` in route
 * handlers and the proxy, with `undefined` in Server Components and Server Actions. Either way the
 * environment fills in the rest (see {@link setNextEnvDefaults}): `AUTH_SECRET`/`NEXTAUTH_SECRET`,
 * `AUTH_URL`/`NEXTAUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`/`_SECRET`…; `basePath`
 * defaults to `/api/auth`. A static configuration is completed once, here.
 *
 * When `AUTH_URL` (or `NEXTAUTH_URL`) is set, requests reach `Auth()` with its origin; otherwise
 * with the one the browser used (`x-forwarded-host` or `host`), not the `localhost` Next.js puts
 * in a `NextRequest` for `127.0.0.1` (see {@link publicRequest}).
 *
 * @example
 * ```ts
 * import NextAuth from "authflow/next"
 * import Credentials from "authflow/providers/credentials"
 *
 * export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth({
 *   providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: checkPassword })],
 *   callbacks: { authorized: ({ auth, request }) => !request.nextUrl.pathname.startsWith("/admin") || !!auth },
 * })
 * ```
 */
export function NextAuth(config: NextAuthConfigInit): NextAuthResult {
  const resolve = configResolver(config)
  const handler = async (request: NextRequest): Promise<Response> => {
    const config = await resolve(await withEnvOrigin(request, process.env))
    return Auth(await publicRequest(request, process.env), config)
  }
  const withoutRequest = () => resolve(undefined)
  const signIn = createSignIn(withoutRequest)
  return {
    handlers: { GET: handler, POST: handler },
    auth: createAuth(resolve),
    signIn,
    signInAction: createSignInAction(signIn),
    signOut: createSignOut(withoutRequest),
    unstable_update: createUpdate(withoutRequest),
    ...createFactorFunctions(withoutRequest),
    ...createAccountFunctions(withoutRequest),
    ...createPasswordFunctions(withoutRequest),
    requireRecentAuth: createRequireRecentAuth(withoutRequest),
  }
}

function configResolver(init: NextAuthConfigInit): (request: NextRequest | undefined) => Promise<NextAuthConfig> {
  if (typeof init === "function") {
    return async (request) => {
      const config = await init(request)
      setNextEnvDefaults(process.env, config)
      return config
    }
  }
  setNextEnvDefaults(process.env, init)
  return async () => init
}

export default NextAuth
export { setNextEnvDefaults } from "./env.js"
export { AuthError, CredentialsSignin } from "../../core/errors.js"
export type {
  AuthorizationParams,
  AuthorizedParams,
  AuthorizedResult,
  NextAuthCallbacks,
  NextAuthConfig,
  NextAuthConfigInit,
  NextAuthFunction,
  NextAuthHandler,
  NextAuthHandlerResult,
  NextAuthRequest,
  NextAuthResult,
  PagesRouterContext,
  SessionUpdate,
  SignInActionState,
  SignInOptions,
  SignOutOptions,
} from "./types.js"
export type { Session, User } from "../../types.js"
export type { FactorsResult, ServerConfirmOptions, ServerFactors, ServerRemoveOptions } from "../shared/factors.js"
export type { NextRecentAuthDemand, NextRequireRecentAuth } from "./types.js"
export type { Accounts, OtherAccount, ServerAccounts, SwitchAccountResult } from "../shared/accounts.js"
export type { RecentAuthDemand } from "../shared/recent-auth.js"
export type { PasswordRefusal, PasswordResult, ServerPasswords } from "../shared/passwords.js"
