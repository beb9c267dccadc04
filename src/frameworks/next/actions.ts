/**
 * Server-side `signIn`, `signOut` and `unstable_update`, for Server Actions: each runs `Auth()` in
 * raw mode on a request built from the incoming headers, writes the cookies through Next's cookie
 * store, and redirects with Next's `redirect()`.
 *
 * CSRF checks are skipped for these calls: a Server Action is already protected by Next.js (it
 * only runs for a same-origin POST carrying the action id).
 *
 * @module
 */
import { Auth } from "../../auth.js"
import { AuthError, CredentialsSignin, isClientSafeError, type ErrorType } from "../../core/errors.js"
import { createActionURL } from "../../core/env.js"
import { resolveProviders } from "../../core/providers.js"
import { raw, skipCSRFCheck } from "../../core/symbols.js"
import type { AuthAction, AuthConfig, Cookie, ResponseInternal, Session } from "../../types.js"
import { nextHeaders, nextNavigation } from "./next-modules.js"
import type { AuthorizationParams, NextAuthConfig, NextAuthResult, SessionUpdate, SignInActionState, SignInOptions, SignOutOptions } from "./types.js"

/** Resolves the configuration for a call that has no request (lazy initialisation gets `undefined`). */
export type ConfigResolver = () => Promise<NextAuthConfig>

const rawConfigs = new WeakMap<NextAuthConfig, AuthConfig>()

function rawConfig(config: NextAuthConfig): AuthConfig & { raw: typeof raw } {
  let derived = rawConfigs.get(config)
  if (!derived) rawConfigs.set(config, (derived = { ...config, raw, skipCSRFCheck }))
  return derived as AuthConfig & { raw: typeof raw }
}

/** The incoming request's headers, ready to be reused for an internal request. */
export async function incomingHeaders(): Promise<Headers> {
  const { headers: requestHeaders } = await nextHeaders()
  const headers = new Headers(await requestHeaders())
  // The body of the internal request is not the incoming one, and a raw-mode call must not ask
  // for a `{ url }` answer (it would swallow the AuthErrors the caller should see).
  headers.delete("content-length")
  headers.delete("x-auth-return-redirect")
  return headers
}

/** The absolute URL of an action, on `AUTH_URL` or the incoming request's origin. */
export function actionUrl(action: AuthAction, headers: Headers, config: NextAuthConfig): URL {
  return createActionURL(action, headers.get("x-forwarded-proto") ?? undefined, headers, process.env, config)
}

/**
 * Runs `Auth()` in raw mode and writes the cookies it sets. A configuration error (or a request
 * `Auth()` cannot parse) comes back as an answer with an error status and no redirect, which
 * {@link redirectOf} turns into an error for the caller.
 */
async function runRaw(
  url: URL,
  headers: Headers,
  body: string,
  contentType: string,
  config: NextAuthConfig,
): Promise<ResponseInternal | Response> {
  headers.set("content-type", contentType)
  const result: ResponseInternal | Response = await Auth(new Request(url, { method: "POST", headers, body }), rawConfig(config))
  if (result instanceof Response) return result
  await writeCookies(result.cookies)
  return result
}

/**
 * The redirect of a raw result. An error status without a redirect (a configuration error: no
 * secret, an untrusted host) is a failure the caller must see, never a redirect to `callbackUrl` as
 * if the action had worked.
 */
function redirectOf(result: ResponseInternal | Response, action: string): string | undefined {
  const status = result.status ?? 200
  if (result instanceof Response || (status >= 400 && !result.redirect)) {
    throw new AuthError(`${action} failed: authflow answered HTTP ${status}, a configuration error: the [auth][error] line logged with it says what to set`)
  }
  return result.redirect
}

/** Writes cookies through Next's cookie store (Server Actions and Route Handlers only). */
export async function writeCookies(list: Cookie[] | undefined): Promise<void> {
  if (!list?.length) return
  const { cookies } = await nextHeaders()
  const jar = await cookies()
  for (const { name, value, options } of list) jar.set(name, value, { ...options })
}

function fieldsOf(options: SignInOptions | FormData): SignInOptions {
  if (!(options instanceof FormData)) return options
  const fields: SignInOptions = {}
  for (const [key, value] of options) {
    // React adds `$ACTION_…` entries to forms bound to Server Actions; files have no place here.
    if (typeof value === "string" && !key.startsWith("$ACTION")) fields[key] = value
  }
  if (typeof fields.redirect === "string") fields.redirect = fields.redirect !== "false"
  return fields
}

function stringFields(fields: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) result[key] = String(value)
  return result
}

async function finish(url: string, redirect: boolean): Promise<string> {
  if (redirect) (await nextNavigation()).redirect(url)
  return url
}

/**
 * The server-side `signIn`.
 *
 * @example
 * ```ts
 * export const { signIn } = NextAuth(config)
 * // in a Server Action:
 * await signIn("credentials", formData)
 * ```
 */
export function createSignIn(resolve: ConfigResolver) {
  return async function signIn(
    provider?: string,
    options: SignInOptions | FormData = {},
    authorizationParams?: AuthorizationParams,
  ): Promise<string> {
    const headers = await incomingHeaders()
    const config = await resolve()
    const { redirect = true, redirectTo, ...fields } = fieldsOf(options)
    const callbackUrl = String(redirectTo || headers.get("referer") || "/")
    const found = provider === undefined ? undefined : resolveProviders(config.providers, "").find((p) => p.id === provider)
    if (!found) {
      const url = actionUrl("signin", headers, config)
      url.searchParams.set("callbackUrl", callbackUrl)
      return finish(url.href, redirect)
    }
    const url = actionUrl(found.type === "credentials" ? "callback" : "signin", headers, config)
    url.pathname = `${url.pathname}/${encodeURIComponent(found.id)}`
    url.search = new URLSearchParams(authorizationParams).toString()
    const body = new URLSearchParams({ ...stringFields(fields), callbackUrl }).toString()
    const result = await runRaw(url, headers, body, "application/x-www-form-urlencoded", config)
    return finish(redirectOf(result, "signIn") ?? callbackUrl, Boolean(redirect))
  }
}

/**
 * `signInAction`: `signIn` for a form's Server Action, in one call. It redirects as `signIn` does
 * when the sign-in succeeds; when it is refused for a reason the user may see (a wrong password:
 * `CredentialsSignin`; `AccessDenied`, `OAuthAccountNotLinked`… the types allowed in a URL) it
 * returns `{ error, code }` instead of throwing, so `useActionState` shows the form again with the
 * error. Anything else (a configuration error, a bug) is thrown as before. `options` are added to the
 * form's fields (`redirectTo`, `redirect`, more credentials).
 *
 * @example
 * ```ts
 * // app/actions.ts
 * "use server"
 * import { signInAction } from "@/auth"
 * export async function signInWithPassword(_previous: unknown, formData: FormData) {
 *   return signInAction("credentials", formData, { redirectTo: "/dashboard" })
 * }
 * // app/signin/form.tsx ("use client"): const [state, action] = useActionState(signInWithPassword, null)
 * ```
 */
export function createSignInAction(signIn: NextAuthResult["signIn"]) {
  return async function signInAction(
    provider: string,
    formData: FormData | SignInOptions = {},
    options: SignInOptions = {},
    authorizationParams?: AuthorizationParams,
  ): Promise<SignInActionState | null> {
    try {
      await signIn(provider, { ...fieldsOf(formData), ...options }, authorizationParams)
      return null
    } catch (error) {
      if (!isClientSafeError(error)) throw error
      // Client-safe errors all have a type of their own (never the base class's "AuthError").
      const type = error.type as ErrorType
      return error instanceof CredentialsSignin ? { error: type, code: error.code } : { error: type }
    }
  }
}

/**
 * The server-side `signOut`.
 *
 * @example
 * ```ts
 * export const { signOut } = NextAuth(config)
 * // in a Server Action:
 * await signOut({ redirectTo: "/" })
 * ```
 */
export function createSignOut(resolve: ConfigResolver) {
  return async function signOut(options: SignOutOptions = {}): Promise<string> {
    const headers = await incomingHeaders()
    const config = await resolve()
    const callbackUrl = options.redirectTo ?? headers.get("referer") ?? "/"
    const body = new URLSearchParams({ callbackUrl }).toString()
    const result = await runRaw(actionUrl("signout", headers, config), headers, body, "application/x-www-form-urlencoded", config)
    return finish(redirectOf(result, "signOut") ?? callbackUrl, options.redirect ?? true)
  }
}

/**
 * The server-side session update: `POST <basePath>/session` with `{ data }`.
 *
 * @example
 * ```ts
 * export const { unstable_update } = NextAuth(config)
 * await unstable_update({ user: { name: "Ada King" } })
 * ```
 */
export function createUpdate(resolve: ConfigResolver) {
  return async function unstable_update(data: SessionUpdate): Promise<Session | null> {
    const headers = await incomingHeaders()
    const config = await resolve()
    const result = await runRaw(actionUrl("session", headers, config), headers, JSON.stringify({ data }), "application/json", config)
    if (result instanceof Response) return null
    const status = result.status ?? 200
    const body = result.body
    if (status < 200 || status > 299 || !body || typeof body !== "object" || Object.keys(body).length === 0) return null
    return body as Session
  }
}
