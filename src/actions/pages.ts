import type { PageProvider, RenderedPage } from "../pages/index.js"
import { onFirstUse } from "../core/on-first-use.js"
import { requestTranslator } from "../core/i18n/load.js"
import { english } from "../core/i18n/english.js"
import type { CoreKey, KeysOf, MessageArea } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import type { AuthOptions } from "../core/options.js"
import type { AuthConfig, Cookie, ResponseInternal } from "../types.js"
import type { AuthRequest } from "../core/request.js"

// Each page (and the pages' JSX runtime with it) is loaded when it is first rendered: a redirect
// to the app's own page loads none.
const pages = {
  signIn: /* @__PURE__ */ onFirstUse(() => import("../pages/signin.js")),
  // The passkey form, with @simplewebauthn/browser inlined: only for a page with a WebAuthn provider.
  passkeys: /* @__PURE__ */ onFirstUse(() => import("../pages/webauthn-form.js")),
  // The OAuth/OIDC buttons and the email form: only for a page with such a provider.
  oauthEmail: /* @__PURE__ */ onFirstUse(() => import("../pages/signin-oauth-email.js")),
  signOut: /* @__PURE__ */ onFirstUse(() => import("../pages/signout.js")),
  error: /* @__PURE__ */ onFirstUse(() => import("../pages/error.js")),
  verifyRequest: /* @__PURE__ */ onFirstUse(() => import("../pages/verify-request.js")),
}
// The page where an emailed code is typed: only for a provider that mails codes.
const codePage = /* @__PURE__ */ onFirstUse(() => import("./code-page.js"))

/**
 * The language of a request's pages and emails (the `i18n` option, the locale cookie, then
 * `Accept-Language`), chosen once per request: the core messages, and those of `areas`, whose
 * English is loaded now if it is not yet.
 *
 * @example
 * ```ts
 * const text = await pageText(options.config, options.request)
 * text.t("signOutQuestion") // "Möchten Sie sich wirklich abmelden?" for Accept-Language: de
 * (await pageText(options.config, options.request, ["password"])).t("signUpTitle") // "Konto erstellen"
 * ```
 */
export function pageText<A extends MessageArea = never>(config: Pick<AuthConfig, "i18n">, request: AuthRequest, areas: readonly A[] = []): Promise<Translator<KeysOf<NoInfer<A>>>> {
  return requestTranslator(config.i18n, request, areas)
}

// A positive whole number of seconds from the query (`retryAfter` of a rate-limited sign-in).
function secondsOf(value: string | undefined): number | undefined {
  return value !== undefined && /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : undefined
}

/**
 * `page` with `params` added to its query (those `undefined` left out), for the redirects to an
 * app's own pages and to sign-in.
 *
 * @example
 * ```ts
 * withQuery("/login?next=1", { error: "AccessDenied", code: undefined }) // "/login?next=1&error=AccessDenied"
 * ```
 */
export function withQuery(page: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, value)
  const text = query.toString()
  return text ? `${page}${page.includes("?") ? "&" : "?"}${text}` : page
}

/**
 * A rendered page as the answer: its status, `text/html`, and the cookies set on the way.
 *
 * @example
 * ```ts
 * return html((await pages.signOut()).renderSignOutPage(props), cookies)
 * ```
 */
export function html(page: RenderedPage, cookies: Cookie[]): ResponseInternal<string> {
  return { status: page.status, headers: { "Content-Type": "text/html; charset=utf-8" }, body: page.html, cookies }
}

function pageProviders(options: AuthOptions): PageProvider[] {
  // A credentials provider without fields has no form to show (it is used through signIn() only).
  return options.providers.filter((provider) => provider.type !== "credentials" || Boolean(provider.credentials))
}

/**
 * GET `/signin`: the built-in sign-in page, or a redirect to `pages.signIn` with the callback URL
 * and error.
 *
 * @example
 * ```ts
 * // GET /auth/signin?error=CredentialsSignin → page with "Sign in failed. Check the details you provided are correct."
 * ```
 */
export async function signInPage(options: AuthOptions, cookies: Cookie[]): Promise<ResponseInternal> {
  const { query } = options.request
  if (options.pages.signIn) {
    return { redirect: withQuery(options.pages.signIn, { callbackUrl: options.callbackUrl, error: query.error, notice: query.notice }), cookies }
  }
  const providers = pageProviders(options)
  const passkeys = providers.some((provider) => provider.type === "webauthn") ? await pages.passkeys() : undefined
  const oauthEmail = providers.some((provider) => provider.type === "oauth" || provider.type === "oidc" || provider.type === "email") ? await pages.oauthEmail() : undefined
  const retryAfter = secondsOf(query.retryAfter)
  const props = { providers, csrfToken: options.csrfToken, callbackUrl: options.callbackUrl, email: query.email, error: query.error, notice: query.notice, theme: options.theme, text: await pageText(options.config, options.request), ...(retryAfter !== undefined && { retryAfter }), ...addAccountLink(options) }
  return html((await pages.signIn()).renderSignInPage(props, { ...(passkeys && { passkeys }), ...(oauthEmail && { oauthEmail }) }), cookies)
}

/** With `multiSession` on and a session cookie present (and not already adding one): where "Use another account" leads. */
function addAccountLink(options: AuthOptions): { addAccountUrl?: string } {
  if (!options.multiSession || options.request.query.addAccount === "1" || !options.request.cookies[options.cookies.sessionToken.name] && !options.request.cookies[`${options.cookies.sessionToken.name}.0`]) return {}
  return { addAccountUrl: `${options.baseUrl}/signin?${new URLSearchParams({ addAccount: "1", callbackUrl: options.callbackUrl })}` }
}

/**
 * GET `/signout`: the confirmation page whose form POSTs back here, or a redirect to `pages.signOut`.
 *
 * @example
 * ```ts
 * // GET /auth/signout → "Are you sure you want to sign out?"
 * ```
 */
export async function signOutPage(options: AuthOptions, cookies: Cookie[]): Promise<ResponseInternal> {
  if (options.pages.signOut) return { redirect: options.pages.signOut, cookies }
  return html((await pages.signOut()).renderSignOutPage({ url: options.request.url.href, csrfToken: options.csrfToken, cancelUrl: options.callbackUrl, theme: options.theme, text: await pageText(options.config, options.request) }), cookies)
}

/**
 * GET `/error`: the error page for `?error=` (Configuration 500, AccessDenied 403, Verification
 * 403, anything else 200), or a redirect to `pages.error` with the same code.
 *
 * @example
 * ```ts
 * // GET /auth/error?error=AccessDenied → 403 "Access Denied"
 * ```
 */
export async function errorPage(options: AuthOptions, cookies: Cookie[], error = options.request.query.error): Promise<ResponseInternal> {
  if (options.pages.error) {
    return { redirect: withQuery(options.pages.error, { error }), cookies }
  }
  return html(await builtInErrorPage(options.origin, options.baseUrl, options.theme, error, await pageText(options.config, options.request)), cookies)
}

/**
 * The built-in error page, also used when the configuration itself is broken, in `text`'s language.
 *
 * @example
 * ```ts
 * (await builtInErrorPage("https://app.test", "https://app.test/auth", theme, "Configuration")).status // 500
 * ```
 */
export async function builtInErrorPage(origin: string, baseUrl: string, theme: AuthOptions["theme"], error: string | undefined, text: Translator<CoreKey> = english): Promise<RenderedPage> {
  return (await pages.error()).renderErrorPage({ error, url: `${baseUrl}/error`, signinUrl: `${baseUrl}/signin`, host: origin, theme, text })
}

/**
 * GET `/verify-request`: "Check your email", or a redirect to `pages.verifyRequest` keeping the query.
 * With `type=code` (an email provider's `code` option, or a Password provider's `verifyBy` code),
 * the form where the emailed code is typed.
 *
 * @example
 * ```ts
 * // GET /auth/verify-request?provider=email&type=email
 * ```
 */
export async function verifyRequestPage(options: AuthOptions, cookies: Cookie[]): Promise<ResponseInternal> {
  if (options.pages.verifyRequest) return { redirect: `${options.pages.verifyRequest}${options.request.url.search}`, cookies }
  const { query } = options.request
  const text = await pageText(options.config, options.request)
  const mailsCode = query.type === "code" ? options.providers.find((candidate) => candidate.id === query.provider && (candidate.type === "email" || (candidate.type === "credentials" && Boolean(candidate.passwordAccounts?.sendMail)))) : undefined
  if (mailsCode) return html(await (await codePage()).renderCodePage(options, mailsCode, text), cookies)
  return html((await pages.verifyRequest()).renderVerifyRequestPage({ url: options.origin, theme: options.theme, text }), cookies)
}
