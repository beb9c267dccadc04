import { resolveCookies } from "./cookies/defaults.js"
import { readCsrf } from "./csrf.js"
import { mergeCallbacks } from "./callbacks.js"
import { resolveProviders } from "./providers.js"
import { withAdapterLogging } from "./adapter-calls.js"
import { randomUUID } from "./crypto.js"
import { encode, decode } from "../jwt.js"
import { skipCSRFCheck } from "./symbols.js"
import type { AuthRequest } from "./request.js"
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
} from "../types.js"
import type { Adapter } from "../adapters.js"

/** Everything an action needs about this request and this configuration, with defaults applied. */
export interface AuthOptions {
  config: AuthConfig
  request: AuthRequest
  /** The request's origin: the `baseUrl` of the redirect callback. */
  origin: string
  basePath: string
  /** `origin + basePath`. */
  baseUrl: string
  providers: InternalProvider[]
  provider?: InternalProvider
  secret: string | string[]
  cookies: CookiesOptions
  session: { strategy: "jwt" | "database"; maxAge: number; updateAge: number; generateSessionToken: () => string }
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
}

const thirtyDays = 30 * 24 * 60 * 60
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
 * const { options, cookies } = await initOptions(authRequest, config, logger, providers)
 * ```
 */
export async function initOptions(
  request: AuthRequest,
  config: AuthConfig,
  logger: LoggerInstance,
  providers: InternalProvider[],
  cookies: CookiesOptions,
): Promise<InitResult> {
  const origin = request.url.origin
  const basePath = config.basePath ?? "/auth"
  const secret = config.secret ?? []
  const maxAge = config.session?.maxAge ?? thirtyDays
  const callbacks = mergeCallbacks(config.callbacks)
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
    session: {
      strategy: config.session?.strategy ?? (config.adapter ? "database" : "jwt"),
      maxAge,
      updateAge: config.session?.updateAge ?? 24 * 60 * 60,
      generateSessionToken: config.session?.generateSessionToken ?? randomUUID,
    },
    jwt: {
      secret,
      maxAge: config.jwt?.maxAge ?? maxAge,
      encode: config.jwt?.encode ?? encode,
      decode: config.jwt?.decode ?? decode,
    },
    callbacks,
    logger,
    pages: config.pages ?? {},
    theme: { ...defaultTheme, ...config.theme },
    csrfTokenVerified: false,
    callbackUrl: origin,
  }
  if (provider) options.provider = provider
  if (config.adapter) options.adapter = withAdapterLogging(config.adapter, logger)

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
 * The providers and cookies of a configuration for one origin and scheme, computed once and kept
 * for later requests to the same configuration object.
 *
 * @example
 * ```ts
 * const { providers, cookies } = configFor(config, request.url)
 * ```
 */
export function configFor(config: AuthConfig, url: URL): { providers: InternalProvider[]; cookies: CookiesOptions } {
  const secure = config.useSecureCookies ?? url.protocol === "https:"
  const key = `${secure ? "s" : "p"}${url.origin}${config.basePath ?? "/auth"}`
  let byOrigin = derived.get(config)
  if (!byOrigin || byOrigin.providers !== config.providers || byOrigin.cookieOverrides !== config.cookies) {
    byOrigin = { providers: config.providers, cookieOverrides: config.cookies, entries: new Map() }
    derived.set(config, byOrigin)
  }
  let entry = byOrigin.entries.get(key)
  if (!entry) {
    if (byOrigin.entries.size > 32) byOrigin.entries.clear()
    entry = {
      providers: resolveProviders(config.providers, url.origin + (config.basePath ?? "/auth")),
      cookies: resolveCookies(secure, config.cookies),
    }
    byOrigin.entries.set(key, entry)
  }
  return entry
}

interface Derived {
  providers: AuthConfig["providers"]
  cookieOverrides: AuthConfig["cookies"]
  entries: Map<string, { providers: InternalProvider[]; cookies: CookiesOptions }>
}
const derived = new WeakMap<AuthConfig, Derived>()
