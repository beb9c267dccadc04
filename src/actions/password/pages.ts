/**
 * The Password provider's built-in pages: sign-up, the password forms (forgot, reset, change) and
 * the change-email form. The router loads this module when one of their routes is first hit, so an
 * app without a Password provider never loads it.
 *
 * @module
 */
import { onFirstUse } from "../../core/on-first-use.js"
import type { AuthOptions } from "../../core/options.js"
import type { Cookie, CredentialsConfig, ResponseInternal } from "../../types.js"
import { html, pageText, withQuery } from "../pages.js"
import { triesLeftOf } from "../tries-left.js"

// Each page (and the pages' JSX runtime with it) is loaded when it is first rendered.
const pages = {
  signUp: /* @__PURE__ */ onFirstUse(() => import("../../pages/sign-up.js")),
  changeEmail: /* @__PURE__ */ onFirstUse(() => import("../../pages/change-email.js")),
  password: /* @__PURE__ */ onFirstUse(() => import("../../pages/password.js")),
}

/**
 * GET `/signup/<id>`: the built-in sign-up page of a Password provider.
 *
 * @example
 * ```ts
 * // GET /auth/signup/password → "Create an account"
 * ```
 */
export async function signUpPage(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<ResponseInternal> {
  const page = (await pages.signUp()).renderSignUpPage({
    action: `${options.baseUrl}/signup/${provider.id}`,
    ...(options.csrfToken !== undefined && { csrfToken: options.csrfToken }),
    callbackUrl: options.callbackUrl,
    minLength: provider.passwordAccounts?.minLength ?? 8,
    signInUrl: options.pages.signIn ?? `${options.baseUrl}/signin`,
    theme: options.theme,
    text: await pageText(options.config, options.request, ["password"]),
  })
  return html(page, cookies)
}

/**
 * GET `/change-email/<id>`: the form where a signed-in user of a Password provider asks to change
 * their address (with their password); nobody signed in goes to sign in first, and comes back.
 *
 * @example
 * ```ts
 * // GET /auth/change-email/password → "Change your email address"
 * ```
 */
export async function changeEmailPage(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<ResponseInternal> {
  const action = `${options.baseUrl}/change-email/${encodeURIComponent(provider.id)}`
  const { sessionUser } = await import("../second-factor/session-user.js")
  const signedIn = await sessionUser(options)
  const user = signedIn && (await options.adapter!.getUser!(signedIn.id))
  if (!user) return { redirect: withQuery(options.pages.signIn ?? `${options.baseUrl}/signin`, { callbackUrl: action }), cookies }
  const { query } = options.request
  const page = (await pages.changeEmail()).renderChangeEmailPage({
    action,
    ...(options.csrfToken !== undefined && { csrfToken: options.csrfToken }),
    email: user.email ?? "",
    ...(query.notice !== undefined && { notice: query.notice }),
    ...(query.error !== undefined && { error: query.error }),
    theme: options.theme,
    text: await pageText(options.config, options.request, ["password"]),
  })
  return html(page, cookies)
}

/**
 * GET `/forgot-password/<id>`, `/reset-password/<id>?token=…` (or `?type=code`, the form of a
 * mailed code and the new password) and `/change-password/<id>`: the
 * Password provider's password forms. The change form is for a signed-in user; nobody signed in
 * goes to sign in first, and comes back.
 *
 * @example
 * ```ts
 * // GET /auth/forgot-password/password → "Reset your password"
 * ```
 */
export async function passwordPage(options: AuthOptions, provider: CredentialsConfig, cookies: Cookie[]): Promise<ResponseInternal> {
  const { action: route, query } = options.request
  const triesLeft = triesLeftOf(query)
  const action = `${options.baseUrl}/${route}/${encodeURIComponent(provider.id)}`
  const signInUrl = options.pages.signIn ?? `${options.baseUrl}/signin`
  if (route === "change-password") {
    const { sessionUser } = await import("../second-factor/session-user.js")
    if (!(await sessionUser(options))) return { redirect: withQuery(signInUrl, { callbackUrl: action }), cookies }
  }
  const page = (await pages.password()).renderPasswordPage({
    form: route === "forgot-password" ? "forgot" : route === "reset-password" ? (query.type === "code" ? "reset-code" : "reset") : "change",
    action,
    ...(options.csrfToken !== undefined && { csrfToken: options.csrfToken }),
    ...(route === "reset-password" && query.token !== undefined && { token: query.token }),
    minLength: provider.passwordAccounts?.minLength ?? 8,
    maxLength: provider.passwordAccounts?.maxLength ?? 128,
    signInUrl,
    ...(query.notice !== undefined && { notice: query.notice }),
    ...(query.error !== undefined && { error: query.error }),
    ...(query.reason !== undefined && { reason: query.reason }),
    ...(triesLeft !== undefined && { triesLeft }),
    theme: options.theme,
    text: await pageText(options.config, options.request, ["password"]),
  })
  return html(page, cookies)
}
