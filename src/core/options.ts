import { resolveCookies } from "./cookies/defaults.js"
import { readCsrf } from "./csrf.js"
import { mergeCallbacks } from "./callbacks.js"
import { providerConfigs, withProviderUrls } from "./providers.js"
import { checkConfig, type CheckedProvider, type CheckedProviderConfig, type ConfigCheck, type ResolvedConfig } from "./assert.js"
export type { CheckedConfig, CheckedProvider, RefusedConfig, ResolvedConfig } from "./assert.js"
import { onFirstUse } from "./on-first-use.js"
import { randomUUID } from "./crypto.js"
import { encode } from "./jwt/encode.js"
import { decode } from "./jwt/decode.js"
import { skipCSRFCheck } from "./symbols.js"
import type { AuthRequest } from "./request.js"
import type { AuthError } from "./errors.js"
import type {
  AuthConfig,
  CallbacksOptions,
  Cookie,
  CookiesOptions,
  InternalProvider,
  JWT,
  JWTDecodeParams,
  JWTEncodeParams,
  LoggerInstance,
  PagesOptions,
  Theme,
  WarningCode,
} from "../types.js"
import type { Adapter } from "../adapters.js"
import type { ResolvedSecondFactor } from "./second-factor-options.js"

/** Everything an action needs about this request and this configuration, with defaults applied. */
export interface AuthOptions {
  config: AuthConfig
  request: AuthRequest
  /** The request's origin: the `baseUrl` of the redirect callback. */
  origin: string
  basePath: string
  /** `origin + basePath`. */
  baseUrl: string
  /** The providers, checked: narrow one on `type`. */
  providers: CheckedProvider[]
  /** The provider named in the path (`/signin/<id>`, `/callback/<id>`). */
  provider?: CheckedProvider
  secret: string | string[]
  cookies: CookiesOptions
  session: {
    strategy: "jwt" | "database"
    maxAge: number
    updateAge: number
    generateSessionToken: () => string
    absoluteMaxAge?: number
    /** Whether sessions record their sign-in: a cap, a back-channel logout or a provider logout needs it. */
    recordsSignIn: boolean
    /** Whether session reads consult the revocation store (a provider accepts back-channel logouts). */
    revocable: boolean
  }
  jwt: {
    secret: string | string[]
    maxAge: number
    encode: (params: JWTEncodeParams) => string | PromiseLike<string>
    decode: (params: JWTDecodeParams) => JWT | null | PromiseLike<JWT | null>
  }
  callbacks: CallbacksOptions
  logger: LoggerInstance
  pages: PagesOptions
  theme: Required<Theme>
  /** The configured adapter, its calls debug-logged and its failures logged as `AdapterError`. */
  adapter?: Adapter
  /** The CSRF token for forms; undefined when CSRF checks are skipped. */
  csrfToken?: string
  csrfTokenVerified: boolean
  /** The validated URL to return to after the flow. */
  callbackUrl: string
  /** `secondFactor` with its defaults, when second factors are on. */
  secondFactor?: ResolvedSecondFactor
  /** `multiSession` with its defaults, when several accounts may be signed in at once. */
  multiSession?: { maxAccounts: number }
}

const thirtyDays = 30 * 24 * 60 * 60

/** The adapter wrapper, loaded by the first configuration with an adapter. */
const adapterLogging = /* @__PURE__ */ onFirstUse(() => import("./adapter-logging.js"))
/** The `secondFactor` option's defaults, loaded by the first configuration that turns second factors on. */
const secondFactorOptions = /* @__PURE__ */ onFirstUse(() => import("./second-factor-options.js"))

/** Merged callbacks per configured callbacks object, reused while its four callbacks stay the same. */
const mergedCallbacks = new WeakMap<object, { given: readonly unknown[]; merged: CallbacksOptions }>()
const noCallbacks = {}

function callbacksOf(user: Partial<CallbacksOptions> | undefined): CallbacksOptions {
  const key = user ?? noCallbacks
  const cached = mergedCallbacks.get(key)
  if (cached && cached.given[0] === user?.signIn && cached.given[1] === user?.redirect && cached.given[2] === user?.session && cached.given[3] === user?.jwt) {
    return cached.merged
  }
  const merged = Object.freeze(mergeCallbacks(user))
  mergedCallbacks.set(key, { given: [user?.signIn, user?.redirect, user?.session, user?.jwt], merged })
  return merged
}
const defaultTheme: Required<Theme> = { colorScheme: "auto", logo: "", brandColor: "", buttonText: "" }

/** The cookies that applying init to a request asks to set (a new CSRF token, a new callback URL). */
export interface InitResult {
  options: AuthOptions
  cookies: Cookie[]
}

/**
 * Applies defaults to a configuration for one request: cookies for its scheme, session and JWT
 * settings, callbacks, the CSRF token, and the validated callback URL.
 *
 * @example
 * ```ts
 * const resolved = checkRequest(authRequest, await configFor(config, authRequest.url))
 * if (resolved.ok) {
 *   const { options, cookies } = await initOptions(authRequest, config, logger, resolved.providers, resolved.cookies)
 * }
 * ```
 */
export async function initOptions(
  request: AuthRequest,
  config: AuthConfig,
  logger: LoggerInstance,
  providers: CheckedProvider[],
  cookies: CookiesOptions,
): Promise<InitResult> {
  const origin = request.url.origin
  const basePath = config.basePath ?? "/auth"
  const secret = config.secret ?? []
  const maxAge = config.session?.maxAge ?? thirtyDays
  const callbacks = callbacksOf(config.callbacks)
  const provider = request.providerId === undefined ? undefined : providers.find((p) => p.id === request.providerId)
  if (request.providerId !== undefined && !provider) {
    throw new Error(`Provider with id "${request.providerId}" not found. Available providers: [${providers.map((p) => `"${p.id}"`).join(", ")}].`)
  }
  const options: AuthOptions = {
    config,
    request,
    origin,
    basePath,
    baseUrl: origin + basePath,
    providers,
    secret,
    cookies,
    session: sessionSettings(config, maxAge, providers),
    jwt: {
      secret,
      maxAge: config.jwt?.maxAge ?? maxAge,
      encode: config.jwt?.encode ?? encode,
      decode: config.jwt?.decode ?? decode,
    },
    callbacks,
    logger,
    pages: config.pages ?? {},
    theme: themeOf(config.theme),
    csrfTokenVerified: false,
    callbackUrl: origin,
  }
  if (provider) options.provider = provider
  const secondFactor = config.secondFactor === undefined || config.secondFactor === false ? undefined : (await secondFactorOptions()).resolveSecondFactor(config.secondFactor)
  if (secondFactor) options.secondFactor = secondFactor
  if (config.multiSession) options.multiSession = { maxAccounts: (config.multiSession === true ? undefined : config.multiSession.maxAccounts) ?? 5 }
  if (config.adapter) options.adapter = (await adapterLogging()).withAdapterLogging(config.adapter, logger, config.adapterTimeout)

  const initCookies: Cookie[] = []
  if (request.action !== "providers") {
    if (config.skipCSRFCheck === skipCSRFCheck) {
      options.csrfTokenVerified = true
    } else {
      const csrf = readCsrf(request.cookies[cookies.csrfToken.name], request.body?.csrfToken, request.method === "POST", secret)
      options.csrfToken = csrf.token
      options.csrfTokenVerified = csrf.verified
      if (csrf.newCookie) initCookies.push({ name: cookies.csrfToken.name, value: csrf.newCookie, options: cookies.csrfToken.options })
    }
    const requested = request.body?.callbackUrl ?? request.query.callbackUrl
    const stored = request.cookies[cookies.callbackUrl.name]
    const candidate = typeof requested === "string" && requested ? requested : stored
    if (candidate) options.callbackUrl = await callbacks.redirect({ url: candidate, baseUrl: origin })
    if (options.callbackUrl !== stored) {
      initCookies.push({ name: cookies.callbackUrl.name, value: options.callbackUrl, options: cookies.callbackUrl.options })
    }
  }
  return { options, cookies: initCookies }
}


/**
 * A configuration resolved for one origin and scheme: its cookies, and either its checked providers
 * with their URLs or the first configuration error. The configuration checks (`checkConfig`, which
 * loads the checks of the provider kinds the configuration has) run once per configuration object;
 * the result is kept until `providers`, `cookies`, `adapter`, `secret`, `session.strategy` or
 * `experimental.enableWebAuthn` is replaced, and per origin the providers' URLs and the cookies are
 * computed once. The request's own checks are `checkRequest`'s.
 *
 * @example
 * ```ts
 * const resolved = await configFor(config, request.url)
 * if (resolved.ok) resolved.providers // CheckedProvider[]
 * else logger.error(resolved.error)
 * ```
 */
export async function configFor(config: AuthConfig, url: URL): Promise<ResolvedConfig> {
  const secure = config.useSecureCookies ?? url.protocol === "https:"
  const basePath = config.basePath ?? "/auth"
  const key = `${secure ? "s" : "p"}${url.origin}${basePath}`
  let state = derived.get(config)
  if (!state || !isCurrent(state, config)) {
    state = {
      providers: config.providers,
      cookieOverrides: config.cookies,
      adapter: config.adapter,
      secret: config.secret,
      strategy: config.session?.strategy,
      enableWebAuthn: config.experimental?.enableWebAuthn,
      check: checkConfig(config, providerConfigs(config.providers)),
      entries: new Map(),
    }
    derived.set(config, state)
    // A check that could not load its module (a chunk missing) is not kept: the next request tries again.
    const checking = state
    checking.check.catch(() => {
      if (derived.get(config) === checking) derived.delete(config)
    })
  }
  let entry = state.entries.get(key)
  if (!entry) {
    const { entries } = state
    const check = await state.check
    if (entries.size > 32) entries.clear()
    const cookies = resolveCookies(secure, config.cookies)
    entry = check.ok
      ? { ok: true, providers: withProviderUrls(check.providers, url.origin + basePath), cookies, warnings: check.warnings }
      : { ok: false, error: check.error, beforeRequestChecks: check.beforeRequestChecks, cookies, warnings: check.warnings }
    entries.set(key, entry)
  }
  return entry
}

function isCurrent(state: Derived, config: AuthConfig): boolean {
  return (
    state.providers === config.providers &&
    state.cookieOverrides === config.cookies &&
    state.adapter === config.adapter &&
    state.secret === config.secret &&
    state.strategy === config.session?.strategy &&
    state.enableWebAuthn === config.experimental?.enableWebAuthn
  )
}

/** A configuration's checked state: valid while the inputs it was computed from stay the same objects. */
interface Derived {
  providers: AuthConfig["providers"]
  cookieOverrides: AuthConfig["cookies"]
  adapter: AuthConfig["adapter"]
  secret: AuthConfig["secret"]
  strategy: unknown
  enableWebAuthn: boolean | undefined
  /** The configuration checks, once per configuration object (a promise: they load the checks of its provider kinds). */
  check: Promise<ConfigCheck>
  /** Per scheme, origin and basePath. */
  entries: Map<string, ResolvedConfig>
}
const derived = new WeakMap<AuthConfig, Derived>()

/** What the providers ask of sessions, per checked provider list (resolved once per configuration, not per request). */
const providerLogouts = new WeakMap<CheckedProvider[], { revocable: boolean; providerLogout: boolean; passwordEndsSessions: boolean }>()

/** The session settings, defaults applied (built field by field: V8 makes a spread of a small object several times slower). */
function sessionSettings(config: AuthConfig, maxAge: number, providers: CheckedProvider[]): AuthOptions["session"] {
  const given = config.session
  const strategy = given?.strategy ?? (config.adapter ? "database" : "jwt")
  const { recordsSignIn, revocable } = sessionRecording(given?.absoluteMaxAge, providers, strategy)
  const session: AuthOptions["session"] = {
    strategy,
    maxAge,
    updateAge: given?.updateAge ?? 24 * 60 * 60,
    generateSessionToken: given?.generateSessionToken ?? randomUUID,
    recordsSignIn,
    revocable,
  }
  if (given?.absoluteMaxAge !== undefined) session.absoluteMaxAge = given.absoluteMaxAge
  return session
}

/** The theme with its defaults, once per theme object. */
const themes = new WeakMap<Theme, Required<Theme>>()
const plainTheme: Required<Theme> = Object.freeze({ ...defaultTheme })

function themeOf(theme: Theme | undefined): Required<Theme> {
  if (!theme) return plainTheme
  let resolved = themes.get(theme)
  if (!resolved) themes.set(theme, (resolved = Object.freeze({ ...defaultTheme, ...theme })))
  return resolved
}

/**
 * Whether sessions must record their sign-in, and whether reads consult the revocation store: a
 * back-channel logout needs both; so does a Password provider that ends other sessions on a
 * password change (`endOtherSessions`), with JWT sessions (database sessions are deleted instead).
 */
function sessionRecording(absoluteMaxAge: number | undefined, providers: CheckedProvider[], strategy: "jwt" | "database"): { recordsSignIn: boolean; revocable: boolean } {
  let logouts = providerLogouts.get(providers)
  if (!logouts) {
    logouts = { revocable: false, providerLogout: false, passwordEndsSessions: false }
    for (const provider of providers) {
      if (provider.type === "credentials" && provider.passwordAccounts && provider.passwordAccounts.endOtherSessions !== false) logouts.passwordEndsSessions = true
      if (provider.type !== "oidc" && provider.type !== "oauth") continue
      if (provider.backchannelLogout) logouts.revocable = true
      if (provider.endSessionAtProvider) logouts.providerLogout = true
    }
    providerLogouts.set(providers, logouts)
  }
  const passwordRevokes = logouts.passwordEndsSessions && strategy === "jwt"
  return { recordsSignIn: absoluteMaxAge !== undefined || logouts.revocable || logouts.providerLogout || passwordRevokes, revocable: logouts.revocable || passwordRevokes }
}
