import { AuthError, CredentialsSignin, ErrorPageLoop, InvalidCallbackUrl, InvalidProvider, MissingCSRF, RateLimited, UnknownAction, isClientSafeError } from "./core/errors.js"
import { adapterFailureLogged } from "./core/adapter-calls.js"
import { emitEvent } from "./core/events.js"
import { rateLimitedAnswer, rateLimitedMessage } from "./core/rate-limit/refusal.js"
import { checkRequest, isValidHttpUrl } from "./core/assert.js"
import { errorAnswer, isErrorAnswer, type Answer, type ErrorAnswer } from "./core/answer.js"
import { asError } from "./core/as-error.js"
import { serializeCookie } from "./core/cookies/serialize.js"
import { resolveLogger } from "./core/logger.js"
import { configFor, initOptions, type AuthOptions, type ResolvedConfig } from "./core/options.js"
import { servedOrigin } from "./core/origin.js"
import { toAuthRequest, type AuthRequest } from "./core/request.js"
import { toResponse } from "./core/response.js"
import { onFirstUse } from "./core/on-first-use.js"
import { raw } from "./core/symbols.js"
import type { AccessToken } from "./actions/access-token.js"
import type { AuthConfig, Cookie, LoggerInstance, ResponseInternal, WarningCode } from "./types.js"

const configurationErrorMessage = "There was a problem with the server configuration. Check the server logs for more information."
const pageActions: ReadonlySet<string> = new Set(["signin", "signout", "error", "verify-request"])
const warned = new WeakMap<AuthConfig, Set<WarningCode>>()

// Each flow's action module is loaded when its route is first hit.
const actions = {
  backchannelLogout: /* @__PURE__ */ onFirstUse(() => import("./actions/backchannel-logout.js")),
  callback: /* @__PURE__ */ onFirstUse(() => import("./actions/callback.js")),
  csrf: /* @__PURE__ */ onFirstUse(() => import("./actions/csrf.js")),
  email: /* @__PURE__ */ onFirstUse(() => import("./actions/email.js")),
  oauth: /* @__PURE__ */ onFirstUse(() => import("./actions/oauth.js")),
  pages: /* @__PURE__ */ onFirstUse(() => import("./actions/pages.js")),
  // The Password provider's pages (sign-up, password and change-email forms): not the sign-in page's.
  passwordPages: /* @__PURE__ */ onFirstUse(() => import("./actions/password/pages.js")),
  providers: /* @__PURE__ */ onFirstUse(() => import("./actions/providers.js")),
  secondFactor: /* @__PURE__ */ onFirstUse(() => import("./actions/second-factor/flow.js")),
  factors: /* @__PURE__ */ onFirstUse(() => import("./actions/second-factor/factors.js")),
  stepUp: /* @__PURE__ */ onFirstUse(() => import("./actions/second-factor/step-up.js")),
  session: /* @__PURE__ */ onFirstUse(() => import("./actions/session.js")),
  signOut: /* @__PURE__ */ onFirstUse(() => import("./actions/signout.js")),
  webAuthn: /* @__PURE__ */ onFirstUse(() => import("./actions/webauthn.js")),
  accounts: /* @__PURE__ */ onFirstUse(() => import("./actions/multi-session/accounts.js")),
  accountSignOut: /* @__PURE__ */ onFirstUse(() => import("./actions/multi-session/sign-out.js")),
}
// Loaded on the first call of `getAccessToken`, with the refresh of provider tokens it may run.
const accessToken = /* @__PURE__ */ onFirstUse(() => import("./actions/access-token.js"))

/**
 * Handles one request under `basePath` and answers it: sign-in, callback, session, CSRF, sign-out
 * and the built-in pages, wire-compatible with Auth.js v5.
 *
 * With `config.raw` set to the exported `raw` symbol it returns the internal response instead of a
 * `Response`, and rethrows AuthErrors to the caller (for framework server actions).
 *
 * @example
 * ```ts
 * import { createServer } from "node:http"
 * import { Auth } from "authflow"
 * import Credentials from "authflow/providers/credentials"
 *
 * const config = { secret: process.env.AUTH_SECRET, trustHost: true, providers: [Credentials({ authorize })] }
 * export const handler = (request: Request) => Auth(request, config)
 * ```
 * @see https://fetch.spec.whatwg.org/#request-class
 */
export async function Auth(request: Request, config: AuthConfig & { raw: typeof raw }): Promise<ResponseInternal>
export async function Auth(request: Request, config: Omit<AuthConfig, "raw">): Promise<Response>
export async function Auth(request: Request, config: AuthConfig): Promise<Response | ResponseInternal> {
  const logger = resolveLogger(config)
  const isRaw = config.raw === raw
  let authRequest: AuthRequest
  try {
    authRequest = await toAuthRequest(request, config.basePath ?? "/auth")
  } catch (error) {
    // A stray path (`/favicon.ico` reaching a catch-all mount) is routine: debug, not an error.
    if (error instanceof UnknownAction && error.cause?.stray === true) logger.debug(error.message)
    else logger.error(error instanceof Error ? error : new UnknownAction(String(error)))
    logger.debug("request", { method: request.method, url: request.url })
    return answer(isRaw, request, { status: 400, headers: { "Content-Type": "application/json" }, body: "Bad request." })
  }

  // Every URL that leaves the server is built on the origin the configuration allows, not on Host.
  const served = servedOrigin(authRequest.url, config)
  if (served.error) {
    logger.error(served.error)
    return answer(isRaw, request, await configurationError(authRequest, config, logger))
  }
  if (served.origin !== authRequest.url.origin) authRequest.url = new URL(authRequest.url.pathname + authRequest.url.search, served.origin)

  // The configuration's own checks ran once for this config object; only the request's run here.
  let configured: ResolvedConfig
  try {
    configured = await configFor(config, authRequest.url)
  } catch (error) {
    // A provider kind's checks could not be loaded (a chunk missing from the deployment): the server's fault, answered as such; the next request loads them again.
    logger.error(asError(error))
    return answer(isRaw, request, await configurationError(authRequest, config, logger))
  }
  const resolved = checkRequest(authRequest, configured)
  warnOnce(config, logger, config.debug ? ["debug-enabled", ...resolved.warnings] : resolved.warnings)
  if (!resolved.ok) {
    logger.error(resolved.error)
    if (resolved.error instanceof InvalidCallbackUrl) return answer(isRaw, request, await invalidCallbackUrl(authRequest, config, resolved.cookies))
    return answer(isRaw, request, await configurationError(authRequest, config, logger))
  }

  let failed: ErrorAnswer
  try {
    const { options, cookies } = await initOptions(authRequest, config, logger, resolved.providers, resolved.cookies)
    const answered = await dispatch(options, cookies)
    if (!isErrorAnswer(answered)) return answer(isRaw, request, answered)
    failed = answered
  } catch (caught) {
    // Thrown, not answered: a failure below the flows (resolving the options, an adapter outside a flow), answered the same way.
    failed = errorAnswer(asError(caught))
  }
  return answerError(failed, isRaw, request, authRequest, config, logger)
}

/** The request's translator, loaded when an answer needs words (the pages load their own). */
const requestText = (config: AuthConfig, request: AuthRequest) => async () => (await import("./core/i18n/load.js")).requestTranslator(config.i18n, request)

/**
 * The wire response of an error answer: 429 for `RateLimited`; in raw mode its AuthError thrown to
 * the caller (the one place an outcome becomes a throw: Auth.js's contract with framework server
 * actions); `null` with 400 for a session update; else a redirect to the sign-in or error page with
 * `error=<type>` (as JSON `{ url }` for `X-Auth-Return-Redirect`), setting the answer's cookies.
 */
async function answerError(
  { error, cookies }: ErrorAnswer,
  isRaw: boolean,
  request: Request,
  authRequest: AuthRequest,
  config: AuthConfig,
  logger: LoggerInstance,
): Promise<Response | ResponseInternal> {
  // An adapter failure that ends the request as it is was logged, with its cause, where it happened.
  if (!adapterFailureLogged(error)) logger.error(error)
  const wantsUrl = request.headers.has("X-Auth-Return-Redirect")
  if (error instanceof RateLimited) {
    await emitEvent(config, logger, "rateLimited", rateLimitedMessage(error))
    if (!isRaw || wantsUrl) return answer(isRaw, request, await rateLimitedAnswer(error, authRequest, errorRedirectUrl(error, authRequest, config), wantsUrl, [...cookies], requestText(config, authRequest)))
  }
  if (isRaw && error instanceof AuthError && !wantsUrl) throw error
  if (authRequest.method === "POST" && authRequest.action === "session") return Response.json(null, { status: 400 })
  const url = errorRedirectUrl(error, authRequest, config)
  if (isRaw) return cookies.length ? { redirect: url, cookies: [...cookies] } : { redirect: url }
  const headers = cookies.map((cookie): [string, string] => ["Set-Cookie", serializeCookie(cookie.name, cookie.value, cookie.options)])
  if (wantsUrl) return Response.json({ url }, { headers })
  return new Response(null, { status: 302, headers: [...headers, ["Location", url]] })
}

/**
 * The access token of the signed-in user (the session in `request`'s cookies) for an OAuth/OIDC
 * provider, refreshed first when it expires within the skew (one refresh grant however many
 * requests ask at once). `null` when nobody is signed in or the user has no tokens for that
 * provider. Throws `RefreshTokenError` when the refresh failed (the provider refused the refresh
 * token, or could not be reached), and a `TypeError` for a provider that is not an OAuth/OIDC
 * provider with refresh on. The refresh code is loaded on the first call, not by the import.
 *
 * @param request - The incoming request; only its URL and `cookie` header are read.
 * @param config - The same configuration `Auth()` serves.
 * @param providerId - The provider's `id`.
 *
 * @example
 * ```ts
 * import { getAccessToken } from "authflow"
 *
 * export async function GET(request: Request) {
 *   const token = await getAccessToken(request, config, "github")
 *   if (!token) return new Response("Sign in first", { status: 401 })
 *   const repos = await fetch("https://api.github.com/user/repos", { headers: { Authorization: `Bearer ${token.accessToken}` } })
 *   const headers = new Headers({ "Content-Type": "application/json" })
 *   for (const cookie of token.setCookie) headers.append("Set-Cookie", cookie)
 *   return new Response(repos.body, { headers })
 * }
 * ```
 */
export async function getAccessToken(request: Request, config: AuthConfig, providerId: string): Promise<AccessToken | null> {
  const logger = resolveLogger(config)
  const basePath = config.basePath ?? "/auth"
  // The options of a /session request carrying the same cookies.
  const sessionRequest = new Request(new URL(`${basePath}/session`, request.url), { headers: { cookie: request.headers.get("cookie") ?? "" } })
  const authRequest = await toAuthRequest(sessionRequest, basePath)
  const resolved = checkRequest(authRequest, await configFor(config, authRequest.url))
  if (!resolved.ok) throw resolved.error
  const { options } = await initOptions(authRequest, config, logger, resolved.providers, resolved.cookies)
  const found = await (await accessToken()).accessTokenOf(options, config, logger, providerId)
  // The public boundary: a refusal, answered as a value below, is thrown to the caller here.
  if (found instanceof Error) throw found
  if (!found) return null
  const { cookies, ...token } = found
  return { ...token, setCookie: cookies.map((cookie) => serializeCookie(cookie.name, cookie.value, cookie.options)) }
}

async function dispatch(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  const { action, method, providerId } = options.request
  if (method === "GET") {
    switch (action) {
      case "providers":
        return (await actions.providers()).listProviders(options)
      case "session":
        return (await actions.session()).sessionAction(options, cookies)
      case "csrf":
        return (await actions.csrf()).csrfAction(options, cookies)
      case "signin":
        if (providerId !== undefined) return errorAnswer(new UnknownAction("Unsupported action"))
        return (await actions.pages()).signInPage(options, options.multiSession && options.request.query.addAccount === "1" ? [...cookies, addAccountMarker(options)] : cookies)
      case "signout":
        return (await actions.pages()).signOutPage(options, cookies)
      case "error":
        return (await actions.pages()).errorPage(options, cookies)
      case "verify-request":
        return (await actions.pages()).verifyRequestPage(options, cookies)
      case "signup": {
        const provider = options.provider
        if (provider?.type !== "credentials" || !provider.passwordAccounts) return errorAnswer(new InvalidProvider("Sign-up is served for the Password provider: GET /signup/<its id>"))
        return (await actions.passwordPages()).signUpPage(options, provider, cookies)
      }
      case "verify-email":
      case "confirm-email":
      case "change-email":
        return passwordLinks(options, cookies)
      case "callback":
        return (await actions.callback()).callbackAction(options, cookies)
      case "forgot-password":
      case "reset-password":
      case "change-password":
        return passwordRoutes(options, cookies)
      case "second-factor":
        return secondFactor(options, cookies)
      case "factors":
        return factors(options, cookies)
      case "step-up":
        if (!options.secondFactor) return errorAnswer(new UnknownAction("Second factors are off: set `secondFactor` in the configuration to step up at /step-up"))
        return (await actions.stepUp()).stepUpAction(options, cookies)
      case "sessions":
        if (!options.multiSession || options.request.step !== undefined) return errorAnswer(new UnknownAction(multiSessionOff("GET /sessions")))
        return (await actions.accounts()).listAccounts(options, cookies)
      case "webauthn-options": {
        const provider = options.provider
        if (provider?.type !== "webauthn") return errorAnswer(new InvalidProvider("Provider must be WebAuthn"))
        return (await actions.webAuthn()).webAuthnOptions(options, provider, cookies)
      }
    }
  } else {
    switch (action) {
      case "session":
        if (!options.csrfTokenVerified) return errorAnswer(new MissingCSRF("CSRF token was missing during an action session"))
        return (await actions.session()).sessionAction(options, cookies, { data: options.request.body?.data })
      case "signin": {
        // OAuth and email sign-ins check CSRF as the first step of their machines.
        const provider = options.provider
        if (provider?.type === "oauth" || provider?.type === "oidc") return (await actions.oauth()).oauthSignIn(options, provider, cookies)
        if (provider?.type === "email") return (await actions.email()).emailSignIn(options, provider, cookies)
        // No provider, or credentials (signed in through /callback): back to the sign-in page.
        if (!options.csrfTokenVerified) return errorAnswer(new MissingCSRF("CSRF token was missing during an action signin"))
        return { redirect: `${options.baseUrl}/signin`, cookies }
      }
      case "signout":
        if (options.multiSession) return (await actions.accountSignOut()).accountSignOut(options, cookies)
        return (await actions.signOut()).signOutAction(options, cookies)
      case "sessions":
        if (!options.multiSession || options.request.step !== "switch") return errorAnswer(new UnknownAction(multiSessionOff("POST /sessions/switch")))
        return (await actions.accounts()).switchAccount(options, cookies)
      case "callback":
        return (await actions.callback()).callbackAction(options, cookies)
      case "backchannel-logout":
        return (await actions.backchannelLogout()).backchannelLogout(options, cookies)
      case "change-email":
      case "verify-email":
        return passwordLinks(options, cookies)
      case "forgot-password":
      case "reset-password":
      case "change-password":
        return passwordRoutes(options, cookies)
      case "second-factor":
        return secondFactor(options, cookies)
      case "factors":
        return factors(options, cookies)
      case "signup": {
        const provider = options.provider
        if (provider?.type !== "credentials" || !provider.passwordAccounts) return errorAnswer(new InvalidProvider("Sign-up is served for the Password provider: POST /signup/<its id>"))
        return (await import("./actions/password/sign-up.js")).passwordSignUp(options, provider, cookies)
      }
    }
  }
  return errorAnswer(new UnknownAction(`Cannot handle action: ${action}`))
}

/** Why a `/sessions` route is not served: multi-session off, or a route it does not have. */
function multiSessionOff(route: string): string {
  return `Cannot handle action: ${route} is served with \`multiSession\` on in the configuration`
}

/** The `add-account` marker `GET /signin?addAccount=1` sets: the sign-in that follows keeps the signed-in account. */
function addAccountMarker(options: AuthOptions): Cookie {
  const { name, options: cookieOptions } = options.cookies.addAccount
  return { name, value: "1", options: cookieOptions }
}

/** `/second-factor`, where second factors are on. */
async function secondFactor(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  if (!options.secondFactor) return errorAnswer(new UnknownAction("Second factors are off: set `secondFactor` in the configuration to use /second-factor"))
  return (await actions.secondFactor()).secondFactorAction(options, cookies)
}

/** `/factors`, where second factors are on: without them there is nothing to manage. */
async function factors(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  if (!options.secondFactor) return errorAnswer(new UnknownAction("Second factors are off: set `secondFactor` in the configuration to manage them at /factors"))
  return (await actions.factors()).factorsAction(options, cookies)
}

/**
 * The Password provider's address routes: GET `/verify-email/<id>` and `/confirm-email/<id>` (the
 * mailed links), POST `/verify-email/<id>` (a mailed code), GET `/change-email/<id>` (the form) and
 * POST `/change-email/<id>`. They need the
 * provider's `sendMail`: without it no link was ever mailed.
 */
async function passwordLinks(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  const { action, method } = options.request
  const provider = options.provider
  if (provider?.type !== "credentials" || !provider.passwordAccounts?.sendMail) {
    return errorAnswer(new InvalidProvider(`/${action}/<id> is served for a Password provider with sendMail`))
  }
  // POST: the code a verification mail carried (`verifyBy: "code"` or `"both"`), typed on the code page.
  if (action === "verify-email" && method === "POST") return (await import("./actions/password/verify-code.js")).passwordVerifyCode(options, provider, cookies)
  if (action === "verify-email") return (await import("./actions/password/verify-email.js")).passwordVerifyEmail(options, provider, cookies)
  if (action === "confirm-email") return (await import("./actions/password/change-email.js")).passwordConfirmEmail(options, provider, cookies)
  if (method === "POST") return (await import("./actions/password/change-email.js")).passwordChangeEmail(options, provider, cookies)
  return (await actions.passwordPages()).changeEmailPage(options, provider, cookies)
}

/**
 * The Password provider's password routes: GET and POST `/forgot-password/<id>` and
 * `/reset-password/<id>` (with a mailed link's `token`, or a mailed `code`; they need the
 * provider's `sendMail`), and
 * `/change-password/<id>` (signed in).
 */
async function passwordRoutes(options: AuthOptions, cookies: Cookie[]): Promise<Answer> {
  const { action, method } = options.request
  const provider = options.provider
  if (provider?.type !== "credentials" || !provider.passwordAccounts || (action !== "change-password" && !provider.passwordAccounts.sendMail)) {
    return errorAnswer(new InvalidProvider(`/${action}/<id> is served for a Password provider${action === "change-password" ? "" : " with sendMail"}`))
  }
  if (method === "GET") return (await actions.passwordPages()).passwordPage(options, provider, cookies)
  if (action === "change-password") return (await import("./actions/password/change-password.js")).passwordChange(options, provider, cookies)
  // POST `/reset-password/<id>` with a `code`: the code a reset mail carried (`resetBy: "code"` or `"both"`), typed with the new password.
  if (action === "reset-password" && options.request.body?.code !== undefined) return (await import("./actions/password/reset-code.js")).passwordResetByCode(options, provider, cookies)
  const reset = await import("./actions/password/reset.js")
  return action === "forgot-password" ? reset.passwordForgot(options, provider, cookies) : reset.passwordReset(options, provider, cookies)
}

/** The answer as the caller asked for it: the internal response (`raw`), or a web `Response`. */
function answer(isRaw: boolean, request: Request, internal: ResponseInternal): Response | ResponseInternal {
  return isRaw ? internal : toResponse(internal, request)
}

function absolutePage(page: string, origin: string): string {
  return /^https?:\/\//i.test(page) ? page : `${origin}${page}`
}

function errorRedirectUrl(error: Error, request: AuthRequest, config: AuthConfig): string {
  const params = new URLSearchParams({ error: isClientSafeError(error) ? error.type : "Configuration" })
  if (error instanceof CredentialsSignin) params.set("code", error.code)
  const toSignIn = error instanceof AuthError && error.kind === "signIn"
  const basePath = config.basePath ?? "/auth"
  const page = (toSignIn ? config.pages?.signIn : config.pages?.error) ?? `${basePath}/${toSignIn ? "signin" : "error"}`
  const url = absolutePage(page, request.url.origin)
  return `${url}${url.includes("?") ? "&" : "?"}${params}`
}

async function configurationError(request: AuthRequest, config: AuthConfig, logger: LoggerInstance): Promise<ResponseInternal> {
  if (request.method !== "GET" || !pageActions.has(request.action)) {
    return { status: 500, headers: { "Content-Type": "application/json" }, body: { message: configurationErrorMessage } }
  }
  const errorPagePath = config.pages?.error
  const loops = Boolean(errorPagePath && request.query.callbackUrl?.startsWith(errorPagePath))
  if (loops) logger.error(new ErrorPageLoop(`The error page ${errorPagePath} should not require authentication`))
  if (errorPagePath && !loops) {
    const url = absolutePage(errorPagePath, request.url.origin)
    return { redirect: `${url}${url.includes("?") ? "&" : "?"}error=Configuration` }
  }
  const theme = { colorScheme: "auto" as const, logo: "", brandColor: "", buttonText: "", ...config.theme }
  const origin = request.url.origin
  const pages = await actions.pages()
  const page = await pages.builtInErrorPage(origin, origin + (config.basePath ?? "/auth"), theme, "Configuration", await pages.pageText(config, request))
  return { status: page.status, headers: { "Content-Type": "text/html; charset=utf-8" }, body: page.html }
}

const invalidCallbackUrlMessage = "Invalid callback URL: use a path on this site (such as /dashboard) or an http(s) URL."

/**
 * A `callbackUrl` that is not a URL is the request's mistake, not the server's: 400, as JSON for API
 * routes and as the error page for pages (Auth.js answers 500 "server configuration"). A callback-url
 * cookie that is not a URL is cleared, so the browser that holds it is not refused on every request.
 */
async function invalidCallbackUrl(request: AuthRequest, config: AuthConfig, cookies: ResolvedConfig["cookies"]): Promise<ResponseInternal> {
  const stored = request.cookies[cookies.callbackUrl.name]
  const cleared: Cookie[] =
    stored !== undefined && !isValidHttpUrl(stored, request.url.origin) ? [{ name: cookies.callbackUrl.name, value: "", options: { ...cookies.callbackUrl.options, maxAge: 0 } }] : []
  if (request.method === "GET" && pageActions.has(request.action)) {
    const errorPagePath = config.pages?.error
    if (errorPagePath) {
      const url = absolutePage(errorPagePath, request.url.origin)
      return { redirect: `${url}${url.includes("?") ? "&" : "?"}error=Default`, cookies: cleared }
    }
    const theme = { colorScheme: "auto" as const, logo: "", brandColor: "", buttonText: "", ...config.theme }
    const origin = request.url.origin
    const pages = await actions.pages()
    const page = await pages.builtInErrorPage(origin, origin + (config.basePath ?? "/auth"), theme, "Default", await pages.pageText(config, request))
    return { status: 400, headers: { "Content-Type": "text/html; charset=utf-8" }, body: page.html, cookies: cleared }
  }
  return { status: 400, headers: { "Content-Type": "application/json" }, body: { message: invalidCallbackUrlMessage }, cookies: cleared }
}

function warnOnce(config: AuthConfig, logger: LoggerInstance, codes: readonly WarningCode[]): void {
  if (!codes.length) return
  let seen = warned.get(config)
  if (!seen) warned.set(config, (seen = new Set()))
  for (const code of codes) {
    if (seen.has(code)) continue
    seen.add(code)
    logger.warn(code)
  }
}
