/**
 * Qwik City integration of authflow (`authflow/qwik`), API-compatible with `@auth/qwik`.
 *
 * @example
 * ```ts
 * // src/routes/plugin@auth.ts
 * import { QwikAuth$ } from "authflow/qwik"
 * import GitHub from "authflow/providers/github"
 *
 * export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => ({ providers: [GitHub] }))
 * ```
 *
 * The library is plain JavaScript that the Qwik optimizer does not rewrite: it builds its loader
 * and actions with the QRL forms (`routeLoaderQrl`, `globalActionQrl`, `validatorQrl`,
 * `inlinedQrl`), and `QwikAuth$` is `implicit$FirstArg(QwikAuthQrl)`, so the optimizer turns the
 * app's `QwikAuth$(() => config)` into a lazy QRL. In the client build `isServer` is `false` and the
 * server code (the core, the providers' handling) is left out. Vite must bundle `authflow` into the
 * server build (`ssr.noExternal: ["authflow"]`), so that it shares the app's copy of Qwik.
 *
 * @module
 */
import { implicit$FirstArg, inlinedQrl, type QRL } from "@builder.io/qwik"
import { isServer } from "@builder.io/qwik/build"
import {
  globalActionQrl,
  routeLoaderQrl,
  validatorQrl,
  type Action,
  type Loader,
  type RequestEvent,
  type RequestEventAction,
  type RequestEventCommon,
} from "@builder.io/qwik-city"
import { Auth } from "../../auth.js"
import { withClientAddress } from "../../core/rate-limit/peer.js"
import { isAuthAction } from "../../core/env.js"
import { AuthError } from "../../core/errors.js"
import { resolveProviders } from "../../core/providers.js"
import { raw } from "../../core/symbols.js"
import type { AuthConfig, Session } from "../../types.js"
import { moveCookies, parseSetCookie, writeCookies } from "./cookies.js"
import { factorActionsQrl, type QwikFactorActions } from "./factor-actions.js"
import { passwordActionsQrl, type QwikPasswordActions } from "./password-actions.js"
import { qwikRequireRecentAuth, type QwikRequireRecentAuth } from "./recent-auth.js"
import { qwikBasePath, setQwikEnvDefaults } from "./env.js"
import {
  validateSignIn,
  validateSignOut,
  type SignInInput,
  type SignInResult,
  type SignOutInput,
  type SignOutResult,
} from "./validate.js"

/** The configuration of {@link QwikAuth$}: the core's, without `raw` (`basePath` is always `/auth`). */
export interface QwikAuthConfig extends Omit<AuthConfig, "raw"> {}

/** The session read for a request (`null` without one), with the `Set-Cookie` headers refreshing it. */
export type GetSessionResult = Promise<{ data: Session | null; cookie: any }>

/**
 * What {@link QwikAuth$} returns; export the first four from `src/routes/plugin@auth.ts`, and the
 * second-factor loader and actions ({@link QwikFactorActions}) and the password actions
 * ({@link QwikPasswordActions}) where they are used.
 */
export interface QwikAuthResult extends QwikFactorActions, QwikPasswordActions {
  /**
   * The request handler: requests for authflow's routes under `/auth/` are answered by authflow;
   * for any other request the session is read and put in `event.sharedMap` as `"session"`.
   */
  onRequest: (event: RequestEventCommon) => Promise<void>
  /** Route loader of the session (or `null`). */
  useSession: Loader<Session | null>
  /** Form action signing in; it redirects (303) where authflow says, a validation failure is its value. */
  useSignIn: Action<SignInResult, SignInInput, false>
  /** Form action signing out; it redirects (303) to `redirectTo`, a validation failure is its value. */
  useSignOut: Action<SignOutResult, SignOutInput, false>
  /** Checks that the signed-in user authenticated recently enough, or redirects through the step-up (see {@link QwikRequireRecentAuth}). */
  requireRecentAuth: QwikRequireRecentAuth
}

type ConfigQrl = QRL<(event: RequestEventCommon) => QwikAuthConfig | Promise<QwikAuthConfig>>

/** The configuration for one request: a copy of what the app's function returns, completed. */
async function configFor(configQrl: ConfigQrl, event: RequestEventCommon): Promise<QwikAuthConfig> {
  const config: QwikAuthConfig = { ...(await configQrl(event)) }
  setQwikEnvDefaults(event.env, config)
  return config
}

/** Request headers to reuse for an internal request (whose body is not the incoming one). */
function forwardedHeaders(event: RequestEventCommon): Headers {
  const headers = new Headers(event.request.headers)
  headers.delete("content-length")
  headers.delete("content-type")
  return headers
}

/**
 * `GET /auth/session` through `Auth()` with the request's headers. Fails closed: an error answer
 * (logged by authflow) reads as no session. `cookie` lists the `Set-Cookie` headers refreshing it.
 */
async function sessionData(event: RequestEventCommon, config: QwikAuthConfig): GetSessionResult {
  const url = new URL(`${qwikBasePath}/session`, event.url)
  const response = await Auth(new Request(url, { headers: forwardedHeaders(event) }), config)
  const cookie = response.headers.getSetCookie()
  if (!response.ok) return { data: null, cookie }
  let body: unknown
  try {
    body = await response.json()
  } catch {
    return { data: null, cookie }
  }
  if (!body || typeof body !== "object" || Array.isArray(body) || Object.keys(body).length === 0) return { data: null, cookie }
  return { data: body as Session, cookie }
}

/** Qwik City's own check for form posts (checkOrigin), for the routes it does not guard: `/auth/*`. */
function crossSiteFormPost(event: RequestEventCommon): boolean {
  if (event.method !== "POST") return false
  const type = (event.request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
  const simple = type === "" || type === "application/x-www-form-urlencoded" || type === "multipart/form-data" || type === "text/plain"
  const origin = event.request.headers.get("origin")
  return simple && origin !== null && origin !== event.url.origin
}

function serverOnRequest(configQrl: ConfigQrl) {
  return async (event: RequestEventCommon): Promise<void> => {
    const { pathname } = event.url
    const action = pathname.slice(qwikBasePath.length + 1).split("/")[0] ?? ""
    const config = await configFor(configQrl, event)
    if (pathname.startsWith(`${qwikBasePath}/`) && isAuthAction(action)) {
      // skipCSRFCheck is on, so a cross-site form must not reach authflow (Auth.js's Qwik
      // integration lets it through).
      if (crossSiteFormPost(event)) throw event.error(403, "Cross-site form submissions to /auth are forbidden.")
      throw event.send(moveCookies(await Auth(withClientAddress(event.request, event.clientConn?.ip), config), event.cookie))
    }
    const { data, cookie } = await sessionData(event, config)
    writeCookies(event.cookie, (cookie as string[]).map(parseSetCookie).filter((found) => found !== undefined))
    event.sharedMap.set("session", data)
  }
}

/** Where an action goes back to by default: the page it was posted from. */
function currentPage(event: RequestEventCommon): string {
  const url = new URL(event.url.href)
  url.searchParams.delete("qaction")
  url.searchParams.delete("qfunc")
  url.searchParams.delete("qdata")
  if (url.pathname.endsWith("/q-data.json")) url.pathname = url.pathname.slice(0, -"q-data.json".length)
  return `${url.pathname}${url.search}`
}

/**
 * A same-origin URL as a path: Qwik City follows a redirect of an action submitted by `<Form>` only
 * when it is a path.
 */
function redirectTarget(target: string, event: RequestEventCommon): string {
  try {
    const url = new URL(target, event.url)
    if (url.origin === event.url.origin) return `${url.pathname}${url.search}${url.hash}`
    return url.href
  } catch {
    return "/"
  }
}

/**
 * POSTs a form to one of authflow's routes in raw mode, writes the cookies it sets, and returns
 * where to go. `X-Auth-Return-Redirect` makes authflow answer an error (a wrong password…) with a
 * redirect to its error or sign-in page instead of throwing.
 */
async function postRaw(event: RequestEventCommon, url: URL, body: URLSearchParams, config: QwikAuthConfig): Promise<string | undefined> {
  const headers = forwardedHeaders(event)
  headers.set("content-type", "application/x-www-form-urlencoded")
  headers.set("x-auth-return-redirect", "1")
  const result = await Auth(withClientAddress(new Request(url, { method: "POST", headers, body }), event.clientConn?.ip), { ...config, raw })
  writeCookies(event.cookie, result.cookies)
  if (result.redirect) return result.redirect
  if ((result.status ?? 200) >= 400) {
    throw new AuthError(`${url.pathname} failed: authflow answered HTTP ${result.status} (see the server logs)`)
  }
  return undefined
}

function stringFields(fields: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) result[key] = String(value)
  return result
}

function serverSignIn(configQrl: ConfigQrl) {
  return async (input: SignInInput, event: RequestEventAction): Promise<SignInResult> => {
    const { providerId, redirectTo, options, authorizationParams } = input
    const { redirectTo: optionsRedirectTo, ...fields } = options ?? {}
    const callbackUrl = optionsRedirectTo ?? redirectTo ?? currentPage(event)
    const config = await configFor(configQrl, event)
    const provider =
      providerId === undefined ? undefined : resolveProviders(config.providers, "").find((candidate) => candidate.id === providerId)
    if (!provider) {
      const url = new URL(`${qwikBasePath}/signin`, event.url)
      url.searchParams.set("callbackUrl", callbackUrl)
      throw event.redirect(303, redirectTarget(url.href, event))
    }
    const action = provider.type === "credentials" ? "callback" : "signin"
    const url = new URL(`${qwikBasePath}/${action}/${encodeURIComponent(provider.id)}`, event.url)
    url.search = new URLSearchParams(authorizationParams).toString()
    const body = new URLSearchParams({ ...stringFields(fields), callbackUrl })
    const target = (await postRaw(event, url, body, config)) ?? callbackUrl
    throw event.redirect(303, redirectTarget(target, event))
  }
}

function serverSignOut(configQrl: ConfigQrl) {
  return async (input: SignOutInput, event: RequestEventAction): Promise<SignOutResult> => {
    const callbackUrl = input.redirectTo ?? currentPage(event)
    const config = await configFor(configQrl, event)
    const url = new URL(`${qwikBasePath}/signout`, event.url)
    const target = (await postRaw(event, url, new URLSearchParams({ callbackUrl }), config)) ?? callbackUrl
    event.sharedMap.set("session", null)
    throw event.redirect(303, redirectTarget(target, event))
  }
}

function notOnTheClient(): never {
  throw new Error("authflow/qwik: server code called in the browser")
}

/** A symbol-safe form of the configuration QRL's hash, the same in the server and client builds. */
function idOf(configQrl: ConfigQrl): string {
  return configQrl.getHash().replace(/[^A-Za-z0-9]/g, "") || "authflow"
}

/**
 * {@link QwikAuth$} for a configuration already given as a QRL (what the optimizer passes).
 *
 * @example
 * ```ts
 * export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuthQrl(inlinedQrl(() => config, "authConfig_app"))
 * ```
 */
export function QwikAuthQrl(configQrl: ConfigQrl): QwikAuthResult {
  const id = idOf(configQrl)
  const onRequest = isServer ? serverOnRequest(configQrl) : async () => {}
  const useSession = routeLoaderQrl(
    inlinedQrl((event: RequestEventCommon) => (event.sharedMap.get("session") as Session | null | undefined) ?? null, `authflow_useSession_${id}S`),
  )
  const signInValidator = validatorQrl(
    inlinedQrl((_event: RequestEvent, data: unknown) => validateSignIn(data), `authflow_validateSignIn_${id}VI`),
  )
  // Needed (here and for useSignOut): Qwik types an action's input only from a zod validator; with a plain validator it says `Record<string, unknown>`, optional.
  const useSignIn = globalActionQrl(
    inlinedQrl(isServer ? serverSignIn(configQrl) : notOnTheClient, `authflow_useSignIn_${id}I`),
    signInValidator,
  ) as unknown as Action<SignInResult, SignInInput, false>
  const signOutValidator = validatorQrl(
    inlinedQrl((_event: RequestEvent, data: unknown) => validateSignOut(data), `authflow_validateSignOut_${id}VO`),
  )
  const useSignOut = globalActionQrl(
    inlinedQrl(isServer ? serverSignOut(configQrl) : notOnTheClient, `authflow_useSignOut_${id}O`),
    signOutValidator,
  ) as unknown as Action<SignOutResult, SignOutInput, false>
  return { onRequest, useSession, useSignIn, useSignOut, ...factorActionsQrl((event) => configFor(configQrl, event), id), ...passwordActionsQrl((event) => configFor(configQrl, event), id), requireRecentAuth: qwikRequireRecentAuth((event) => configFor(configQrl, event)) }
}

/**
 * Sets authflow up for a Qwik City app. `configOrFunction` is a function of the request event
 * returning the configuration (synchronously or not); the environment fills in the rest:
 * `AUTH_SECRET` (and `_1`..`_3`), `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`/`_SECRET`…
 *
 * @example
 * ```ts
 * // src/routes/plugin@auth.ts
 * import { QwikAuth$ } from "authflow/qwik"
 * import Credentials from "authflow/providers/credentials"
 *
 * export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => ({
 *   providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: checkPassword })],
 * }))
 *
 * // a component
 * const signIn = useSignIn()
 * <Form action={signIn}>
 *   <input type="hidden" name="providerId" value="credentials" />
 *   <input name="options.username" /> <input name="options.password" type="password" />
 *   <button>Sign in</button>
 * </Form>
 * ```
 */
export const QwikAuth$: (configOrFunction: (event: RequestEventCommon) => QwikAuthConfig | Promise<QwikAuthConfig>) => QwikAuthResult =
  /*#__PURE__*/ implicit$FirstArg(QwikAuthQrl)

export default QwikAuth$
export { setQwikEnvDefaults } from "./env.js"
export { validateSignIn, validateSignOut } from "./validate.js"
export type {
  ActionSuccess,
  SignInFieldErrors,
  SignInInput,
  SignInResult,
  SignOutFieldErrors,
  SignOutInput,
  SignOutResult,
  ValidationFailure,
} from "./validate.js"
export type { QwikFactorActions } from "./factor-actions.js"
export type { QwikPasswordActions } from "./password-actions.js"
export type { PasswordRefusal, PasswordResult } from "../shared/passwords.js"
export type { QwikRequireRecentAuth } from "./recent-auth.js"
export type { RecentAuthDemand } from "../shared/recent-auth.js"
export type { ConfirmFactorInput, FactorsResult, RemoveFactorInput, RenameFactorInput } from "../shared/factors.js"
export { listAccounts, switchAccount } from "./accounts.js"
export type { Accounts, OtherAccount, SwitchAccountResult } from "../shared/accounts.js"
export { AuthError, CredentialsSignin } from "../../core/errors.js"
export { customFetch } from "../../core/symbols.js"
export type { Account, DefaultSession, Profile, Session, User } from "../../types.js"
