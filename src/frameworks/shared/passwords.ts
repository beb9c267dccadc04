/**
 * Password accounts from server code, shared by the framework wrappers: one POST to
 * `/change-password/<id>`, `/change-email/<id>`, `/forgot-password/<id>` or
 * `/reset-password/<id>` run in-process through `Auth()` in raw mode, on the incoming request's
 * cookies, answered as a typed result (`{ ok: true, … }` or `{ ok: false, error, status }`) from
 * where the route sends the browser: `notice=` is done, `error=` a refusal, the sign-in page
 * without either is nobody signed in. The cookies it sets (the session issued again after a
 * password change) go back through the framework's cookie API, which each wrapper passes in.
 *
 * The CSRF token is not checked: each framework protects the server code that calls these
 * (Server Actions, form actions, Qwik actions), and the SolidStart wrapper checks the origin.
 *
 * @module
 */
import { Auth } from "../../auth.js"
import { AuthError, SignInError } from "../../core/errors.js"
import { withClientAddress } from "../../core/rate-limit/peer.js"
import type { AuthConfig, Cookie, ResponseInternal } from "../../types.js"
import { callbackUrlNames, rawConfig } from "./factors.js"

/** The fields each password route reads, by route. */
export interface PasswordCallFields {
  "change-password": { currentPassword: string; newPassword: string }
  "change-email": { newEmail: string; password: string }
  "forgot-password": { email: string }
  "reset-password": { token: string; password: string }
}

/** One of the Password provider's routes a server call posts to. */
export type PasswordRoute = keyof PasswordCallFields

/**
 * Why a password call was refused: `signed-out` (nobody is signed in, 401), the error the route
 * named (`CredentialsSignin`, `NoPassword`, `PasswordChangeRefused`, `PasswordResetRefused`,
 * `InvalidEmail`, `SameEmail`, `EmailSignin`: 400), the link's (`PasswordLinkInvalid`,
 * `PasswordLinkExpired`: 400), or `RateLimited` (429).
 */
export type PasswordRefusal =
  | "signed-out"
  | "CredentialsSignin"
  | "NoPassword"
  | "PasswordChangeRefused"
  | "PasswordResetRefused"
  | "InvalidEmail"
  | "SameEmail"
  | "EmailSignin"
  | "PasswordLinkInvalid"
  | "PasswordLinkExpired"
  | "RateLimited"
  | (string & {})

/** The outcome of a password call: done, or the refusal with its HTTP status (and, for a refused new password, why: `too-short`…). */
export type PasswordResult =
  | { ok: true; error: undefined; status: number }
  | { ok: false; error: PasswordRefusal; reason?: string; status: number }

/** Where a password call runs: the framework's view of the incoming request. */
export interface PasswordCallContext {
  /** The configuration, as the wrapper completed it (`basePath`, `secret`…). */
  config: Omit<AuthConfig, "raw">
  /** `<basePath>/<route>` on the app's public origin (the provider's id is added). */
  url: URL
  /** The incoming request's headers: its cookies say who is signed in. */
  headers: Headers
  /** The client's address, for the rate limiter, where the framework knows it. */
  clientAddress?: string | undefined
  /** Writes the cookies the answer sets through the framework's cookie API. */
  setCookies: (cookies: Cookie[]) => void | Promise<void>
}

/** The Password provider a call is for. */
export interface PasswordProviderOption {
  /**
   * The Password provider's id.
   * @default "password"
   */
  provider?: string | undefined
}

/** The fields the route reads, strings only (a form's other fields are not sent on). */
function bodyOf(route: PasswordRoute, fields: Readonly<Record<string, unknown>>): URLSearchParams {
  const wanted: Record<PasswordRoute, readonly string[]> = {
    "change-password": ["currentPassword", "newPassword"],
    "change-email": ["newEmail", "password"],
    "forgot-password": ["email"],
    "reset-password": ["token", "password"],
  }
  const body = new URLSearchParams()
  for (const key of wanted[route]) if (typeof fields[key] === "string") body.set(key, fields[key] as string)
  return body
}

/**
 * Posts one password route for the incoming request's browser and writes the cookies it sets.
 * `input` holds the route's fields and the `provider` (default `"password"`); fields that are not
 * strings are left out (the route refuses what is missing). A configuration
 * error (no `sendMail` for a reset, no adapter, no secret) or a failing adapter is thrown as the
 * `AuthError` authflow logged.
 *
 * @example
 * ```ts
 * const result = await runPasswordCall("change-password", { currentPassword, newPassword }, {
 *   config, url: new URL("https://app.example/auth/change-password"), headers: request.headers,
 *   setCookies: (cookies) => cookies.forEach(({ name, value, options }) => jar.set(name, value, options)),
 * })
 * if (!result.ok && result.error === "CredentialsSignin") return "That is not your current password"
 * ```
 */
export async function runPasswordCall(route: PasswordRoute, input: object, context: PasswordCallContext): Promise<PasswordResult> {
  const fields = input as Readonly<Record<string, unknown>>
  const headers = new Headers(context.headers)
  // The internal request's body is not the incoming one; a `{ url }` answer would hide the refusal.
  for (const name of ["content-length", "content-type", "x-auth-return-redirect"]) headers.delete(name)
  headers.set("content-type", "application/x-www-form-urlencoded")
  const provider = typeof fields.provider === "string" ? fields.provider : "password"
  const url = new URL(`${context.url.pathname.replace(/\/$/, "")}/${encodeURIComponent(provider)}`, context.url)
  const request = new Request(url, { method: "POST", headers, body: bodyOf(route, fields) })
  let answer: ResponseInternal
  try {
    answer = await Auth(withClientAddress(request, context.clientAddress), rawConfig(context.config))
  } catch (error) {
    // Raw mode throws the refusals the router answers on its error page (a link, a rate limit): the user's, not the app's.
    if (error instanceof SignInError) return { ok: false, error: error.type, status: error.type === "RateLimited" ? 429 : 400 }
    throw error
  }
  if (answer.redirect) {
    const skipped = callbackUrlNames(context.config)
    const cookies = (answer.cookies ?? []).filter((cookie) => !skipped.has(cookie.name))
    if (cookies.length) await context.setCookies(cookies)
    const query = new URL(answer.redirect, url).searchParams
    const error = query.get("error")
    const reason = query.get("reason")
    if (error !== null) return { ok: false, error, ...(reason !== null && { reason }), status: 400 }
    if (query.has("notice")) return { ok: true, error: undefined, status: 200 }
    // Neither: the route sent the browser to sign in first.
    return { ok: false, error: "signed-out", status: 401 }
  }
  throw new AuthError(`POST /${route} failed: authflow answered HTTP ${answer.status ?? 200}, a configuration error: the [auth][error] line logged with it says what to set`)
}

/**
 * The password functions of a wrapper, run in-process: the names and arguments of
 * `authflow/client`'s. `changePassword` and `changeEmail` resolve
 * `{ ok: false, error: "signed-out", status: 401 }` when nobody is signed in.
 */
export interface ServerPasswords {
  /**
   * Changes the signed-in user's password, with the current one. Their other sessions end (unless
   * the provider's `endOtherSessions` is `false`); this one is issued again, so they stay signed
   * in. A wrong current password: `{ ok: false, error: "CredentialsSignin", status: 400 }`.
   *
   * @example
   * ```ts
   * const changed = await changePassword({ currentPassword, newPassword })
   * if (!changed.ok && changed.error === "PasswordChangeRefused") return `Choose another password (${changed.reason})`
   * ```
   */
  changePassword(options: PasswordCallFields["change-password"] & PasswordProviderOption): Promise<PasswordResult>
  /**
   * Asks to move the signed-in user's account to `newEmail`, with their password: a link is mailed
   * there, and nothing changes until it is followed.
   *
   * @example
   * ```ts
   * const asked = await changeEmail({ newEmail: "ada@new.example", password })
   * if (asked.ok) return "Check the new address's inbox for the link"
   * ```
   */
  changeEmail(options: PasswordCallFields["change-email"] & PasswordProviderOption): Promise<PasswordResult>
  /**
   * Mails a reset link to the account at `email`. The answer is the same whether or not the
   * address has an account.
   *
   * @example
   * ```ts
   * await requestPasswordReset({ email })
   * return "If the address has an account, a link is on its way"
   * ```
   */
  requestPasswordReset(options: PasswordCallFields["forgot-password"] & PasswordProviderOption): Promise<PasswordResult>
  /**
   * Sets a new password with the `token` of a mailed reset link; it works once, within an hour.
   * The user then signs in with it.
   *
   * @example
   * ```ts
   * const reset = await resetPassword({ token, password })
   * if (!reset.ok && reset.error === "PasswordLinkExpired") return "The link has expired: ask for another"
   * ```
   */
  resetPassword(options: PasswordCallFields["reset-password"] & PasswordProviderOption): Promise<PasswordResult>
}

/**
 * The {@link ServerPasswords} functions over a context made for each call and route (the wrapper
 * reads the incoming request there).
 *
 * @example
 * ```ts
 * const { changePassword } = serverPasswords(async (route) => ({ config, url: new URL(`/auth/${route}`, origin), headers: await incomingHeaders(), setCookies }))
 * ```
 */
export function serverPasswords(contextOf: (route: PasswordRoute) => Promise<PasswordCallContext>): ServerPasswords {
  const run = (route: PasswordRoute) => async (options: object) => runPasswordCall(route, options, await contextOf(route))
  return {
    changePassword: run("change-password"),
    changeEmail: run("change-email"),
    requestPasswordReset: run("forgot-password"),
    resetPassword: run("reset-password"),
  }
}
