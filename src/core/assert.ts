import {
  InvalidCallbackUrl,
  MissingAdapter,
  MissingAdapterMethods,
  MissingAuthorize,
  MissingSecret,
  UnsupportedStrategy,
  WeakSecret,
  type AuthError,
} from "./errors.js"
import { processEnv, runtimeMode } from "./env.js"
import { onFirstUse } from "./on-first-use.js"
import type { AuthRequest } from "./request.js"
import type { AuthConfig, CookiesOptions, InternalProvider, ProviderConfig, WarningCode } from "../types.js"
import type { Adapter } from "../adapters.js"
import type { CheckedProviderConfig } from "./checks/checked.js"
export type { CheckedOAuthConfig, CheckedProviderConfig } from "./checks/checked.js"

/**
 * An absolute http(s) URL, or a path starting with "/" (resolved against the origin): what a
 * `callbackUrl` query parameter or callback-url cookie must be.
 *
 * @example
 * ```ts
 * isValidHttpUrl("/dashboard", "https://app.test") // true
 * isValidHttpUrl("javascript:alert(1)", "https://app.test") // false
 * ```
 */
export function isValidHttpUrl(value: string, origin: string): boolean {
  // The request's own origin (the usual callback-url cookie) is an http(s) URL: no need to parse it.
  if (value === origin && (origin.startsWith("https://") || origin.startsWith("http://"))) return true
  try {
    const url = new URL(value, value.startsWith("/") ? origin : undefined)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

const databaseSessionMethods: (keyof Adapter)[] = [
  "createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "linkAccount",
  "createSession", "getSessionAndUser", "updateSession", "deleteSession",
]

// Each provider kind's (and second factors') checks, loaded by the first configuration that has one.
const oauthChecks = /* @__PURE__ */ onFirstUse(() => import("./checks/oauth.js"))
const emailChecks = /* @__PURE__ */ onFirstUse(() => import("./checks/email.js"))
const webAuthnChecks = /* @__PURE__ */ onFirstUse(() => import("./checks/webauthn.js"))
const passwordChecks = /* @__PURE__ */ onFirstUse(() => import("./checks/password.js"))
const secondFactorChecks = /* @__PURE__ */ onFirstUse(() => import("./checks/second-factor.js"))

/**
 * What checking a configuration found: its checked providers, or the first error; and warnings to
 * log once.
 *
 * @example
 * ```ts
 * const check = await checkConfig(config, providerConfigs(config.providers))
 * const providers = check.ok ? check.providers : []
 * ```
 */
export type ConfigCheck =
  | { ok: true; providers: CheckedProviderConfig[]; warnings: WarningCode[] }
  | {
      ok: false
      error: AuthError
      /** True for `MissingSecret`, which Auth.js reports before the request's callback URL checks. */
      beforeRequestChecks: boolean
      warnings: WarningCode[]
    }

/**
 * The fewest characters a secret may have outside development and test. `npx authflow secret`
 * prints 44 (33 random bytes in base64), as `openssl rand -base64 33` does.
 *
 * @example
 * ```ts
 * if (secret.length < minSecretLength) console.warn("generate one with `npx authflow secret`")
 * ```
 */
export const minSecretLength = 32

/**
 * The `WeakSecret` error for the first secret shorter than {@link minSecretLength} (each one of a
 * rotation array counts: an old secret that can be guessed forges sessions as well as the current
 * one), or undefined when every secret is long enough. The message names the secret by its place
 * and length, never by its value.
 *
 * @example
 * ```ts
 * weakSecret(["a-secret-of-44-characters…", "old"], "production")?.message
 * // 'Secret too short: secret[1] has 3 characters, and outside development every secret needs at least 32 (NODE_ENV is "production"): …'
 * ```
 */
export function weakSecret(secret: string | readonly string[], nodeEnv: string | undefined): WeakSecret | undefined {
  const list: readonly unknown[] = typeof secret === "string" ? [secret] : secret
  const index = list.findIndex((item) => typeof item === "string" && item.length < minSecretLength)
  if (index === -1) return undefined
  const { length } = list[index] as string
  const which = typeof secret === "string" ? "the secret has" : `secret[${index}] has`
  const mode = nodeEnv === undefined ? "NODE_ENV is unset" : `NODE_ENV is ${JSON.stringify(nodeEnv)}`
  return new WeakSecret(
    `Secret too short: ${which} ${length} character${length === 1 ? "" : "s"}, and outside development every secret needs at least ${minSecretLength} (${mode}): generate one with \`npx authflow secret\``,
  )
}

/**
 * Checks what a configuration alone decides (everything but the request): the secret, the session
 * strategy, each provider (endpoints, `clientId`, `authorize`) and the adapter methods the
 * configuration needs. The first problem wins. The checks of a provider kind (OAuth/OIDC, email,
 * WebAuthn, the Password provider) and of second factors are loaded when the configuration has
 * one, so an app carries only its own. It is run once per configuration object (see `configFor`);
 * the request's own checks are {@link checkRequest}'s.
 *
 * @param providers - `config.providers` as configs (`providerConfigs`), index for index.
 *
 * @example
 * ```ts
 * const check = await checkConfig(config, providerConfigs(config.providers))
 * if (!check.ok) logger.error(check.error)
 * ```
 */
export async function checkConfig(config: AuthConfig, providers: readonly ProviderConfig[]): Promise<ConfigCheck> {
  const warnings: WarningCode[] = []
  const refuse = (error: AuthError): ConfigCheck => ({ ok: false, error, beforeRequestChecks: false, warnings })
  if (!config.secret?.length) return { ok: false, error: new MissingSecret("No secret: set AUTH_SECRET (generate one with `npx authflow secret`), or pass `secret`"), beforeRequestChecks: true, warnings }
  // Short secrets: refused in production, warned about in development, accepted in tests.
  const env = processEnv()
  const mode = runtimeMode(env)
  if (mode !== "test") {
    const weak = weakSecret(config.secret, env.NODE_ENV)
    if (weak && mode === "production") return { ok: false, error: weak, beforeRequestChecks: true, warnings }
    if (weak) warnings.push("weak-secret")
  }

  const strategy = config.session?.strategy
  if (strategy !== undefined && strategy !== "jwt" && strategy !== "database") {
    return refuse(new UnsupportedStrategy(`Unknown session strategy "${String(strategy)}": use "jwt" or "database"`))
  }

  // Experimental features may change or disappear: say so whenever one is switched on.
  if (config.experimental?.enableWebAuthn) warnings.push("experimental-webauthn")
  const has = (type: string) => providers.some((provider) => provider.type === type)
  const [oauth, email, webAuthn, password, secondFactor] = await Promise.all([
    has("oauth") || has("oidc") ? oauthChecks() : undefined,
    has("email") ? emailChecks() : undefined,
    has("webauthn") ? webAuthnChecks() : undefined,
    providers.some((provider) => provider.type === "credentials" && provider.passwordAccounts) ? passwordChecks() : undefined,
    config.secondFactor !== undefined && config.secondFactor !== false ? secondFactorChecks() : undefined,
  ])
  const checked: CheckedProviderConfig[] = []
  // A kind's checks (`oauth!`, `webAuthn!`) were loaded above when the kind has a provider here.
  for (const [index, provider] of providers.entries()) {
    switch (provider.type) {
      case "oauth":
      case "oidc": {
        const result = oauth!.checkOAuthProvider(provider, config, index)
        if (result instanceof Error) return refuse(result)
        checked.push(result)
        break
      }
      case "credentials":
        if (typeof provider.authorize !== "function") return refuse(new MissingAuthorize("Must define an authorize() handler to use the credentials provider"))
        checked.push(provider)
        break
      case "email":
        checked.push(provider)
        break
      case "webauthn": {
        const error = webAuthn!.checkWebAuthnProvider(provider, checked)
        if (error) return refuse(error)
        checked.push(provider)
        break
      }
    }
  }

  const adapter = config.adapter
  const required = new Set<keyof Adapter>()
  const problem =
    email?.checkEmailAdapter(adapter, required) ??
    databaseSessionAdapter(config, checked, required, oauth) ??
    webAuthn?.checkWebAuthnConfig(config, required) ??
    secondFactor?.checkSecondFactorAdapter(adapter) ??
    password?.checkPasswordAccounts(config, checked, required)
  if (problem) return refuse(problem)
  if (adapter) {
    const missing = [...required].filter((method) => typeof adapter[method] !== "function")
    if (missing.length) return refuse(new MissingAdapterMethods(`Required adapter methods were missing: ${missing.join(", ")}`))
  }
  return { ok: true, providers: checked, warnings }
}

/**
 * Database sessions' adapter (`session.strategy: "database"`, or an adapter and no strategy):
 * refused without one, else the methods they call are added to `required`, and token refresh's are
 * checked when there are OAuth/OIDC providers (`oauth`, their checks).
 */
function databaseSessionAdapter(
  config: AuthConfig,
  checked: readonly CheckedProviderConfig[],
  required: Set<keyof Adapter>,
  oauth: Awaited<ReturnType<typeof oauthChecks>> | undefined,
): AuthError | undefined {
  const { adapter } = config
  const strategy = config.session?.strategy
  if (strategy !== "database" && (strategy !== undefined || !adapter)) return undefined
  if (!adapter) return new MissingAdapter("Database session requires an adapter")
  for (const method of databaseSessionMethods) required.add(method)
  return oauth?.checkRefreshMethods(config, checked, adapter)
}

/**
 * Adds the request's own checks to a resolved configuration: the callback URL in the query and in
 * its cookie must be http(s) URLs or paths. Problems are reported in Auth.js's order: a missing
 * secret first, then the callback URLs, then the rest of the configuration's problems. Allocates
 * only when it refuses.
 *
 * @example
 * ```ts
 * const resolved = checkRequest(request, await configFor(config, request.url))
 * if (!resolved.ok) logger.error(resolved.error)
 * ```
 */
export function checkRequest(request: AuthRequest, resolved: ResolvedConfig): ResolvedConfig {
  if (!resolved.ok && resolved.beforeRequestChecks) return resolved
  const origin = request.url.origin
  const queryCallbackUrl = request.query.callbackUrl
  const cookieCallbackUrl = request.cookies[resolved.cookies.callbackUrl.name]
  const invalid =
    queryCallbackUrl && !isValidHttpUrl(queryCallbackUrl, origin)
      ? queryCallbackUrl
      : cookieCallbackUrl && !isValidHttpUrl(cookieCallbackUrl, origin)
        ? cookieCallbackUrl
        : undefined
  if (invalid === undefined) return resolved
  const { cookies, warnings } = resolved
  return { ok: false, error: new InvalidCallbackUrl(`Invalid callback URL. Received: ${invalid}`), beforeRequestChecks: false, cookies, warnings }
}

/**
 * A provider that passed the configuration checks, with its URLs on this deployment. Narrow it on
 * `type`: no cast is needed to hand it to the OAuth, email or credentials action.
 *
 * @example
 * ```ts
 * if (provider.type === "oauth" || provider.type === "oidc") return oauthSignIn(options, provider, cookies)
 * ```
 */
export type CheckedProvider = InternalProvider<CheckedProviderConfig>

/** What `configFor` gives whether the configuration passed its checks or not. */
interface ResolvedBase {
  /** The cookies' names and options for this scheme. */
  cookies: CookiesOptions
  /** Warnings the checks found, to log once per configuration. */
  warnings: readonly WarningCode[]
}

/**
 * A configuration that passed its checks: its providers are checked (`CheckedProvider`).
 *
 * @example
 * ```ts
 * if (resolved.ok) await initOptions(request, config, logger, resolved.providers, resolved.cookies)
 * ```
 */
export interface CheckedConfig extends ResolvedBase {
  ok: true
  providers: CheckedProvider[]
}

/**
 * A configuration refused by a check: the request is answered with a Configuration error.
 *
 * @example
 * ```ts
 * if (!resolved.ok) logger.error(resolved.error) // e.g. MissingClientId
 * ```
 */
export interface RefusedConfig extends ResolvedBase {
  ok: false
  /** The first problem found, to log in full. */
  error: AuthError
  /** True for `MissingSecret`, which Auth.js reports before the request's callback URL checks. */
  beforeRequestChecks: boolean
}

/**
 * A configuration resolved for one origin and checked: narrow it on `ok`.
 *
 * @example
 * ```ts
 * const resolved: ResolvedConfig = checkRequest(request, await configFor(config, request.url))
 * ```
 */
export type ResolvedConfig = CheckedConfig | RefusedConfig
