import {
  AuthError as PlainAuthError,
  DuplicateConditionalUI,
  ExperimentalFeatureNotEnabled,
  InvalidCallbackUrl,
  InvalidEndpoints,
  InvalidProvider,
  MissingAdapter,
  MissingAdapterMethods,
  MissingAuthorize,
  MissingSecret,
  MissingWebAuthnAutocomplete,
  UnsupportedStrategy,
  WeakSecret,
  type AuthError,
} from "./errors.js"
import { missingClientId, processEnv, readsEnvironment, runtimeMode } from "./env.js"
import { refreshEnabled } from "./refresh-options.js"
import { missingSecondFactorMethods } from "./second-factor-methods.js"
import type { AuthRequest } from "./request.js"
import type { AuthConfig, CookiesOptions, CredentialsConfig, InternalProvider, Provider, ProviderConfig, WarningCode } from "../types.js"
import type { OAuthConfig, OIDCConfig } from "../providers/oauth.js"
import type { EmailConfig } from "../providers/email-config.js"
import type { WebAuthnConfig } from "../providers/webauthn-config.js"
import type { Adapter } from "../adapters.js"

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

function hasEndpoint(value: unknown): boolean {
  return typeof value === "string" || (typeof value === "object" && value !== null && "url" in value && Boolean(value.url))
}

const databaseSessionMethods: (keyof Adapter)[] = [
  "createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "linkAccount",
  "createSession", "getSessionAndUser", "updateSession", "deleteSession",
]
// Token refresh with database sessions reads the user's accounts and swaps their tokens compare-and-set.
const refreshMethods = ["getAccount", "listAccountsByUserId", "updateAccountTokens"] as const satisfies readonly (keyof Adapter)[]
const emailMethods: (keyof Adapter)[] = ["createVerificationToken", "useVerificationToken", "getUserByEmail"]
// Auth.js's list, and getUserByEmail: the default getUserInfo looks the email up with it.
const webAuthnMethods: (keyof Adapter)[] = [
  "createUser", "getUser", "getUserByEmail", "linkAccount", "getAccount",
  "getAuthenticator", "createAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter",
]

/**
 * An OAuth or OIDC provider that passed the configuration checks: it has a client id. No client
 * secret is implied (public clients have none).
 *
 * @example
 * ```ts
 * const client: o.Client = { client_id: provider.clientId } // a string, no `?? ""`
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CheckedOAuthConfig = (OAuthConfig<any> | OIDCConfig<any>) & { clientId: string }

/**
 * A provider that passed the configuration checks: a credentials provider (with `authorize`), an
 * OAuth/OIDC provider with a `clientId`, an email provider, or a WebAuthn provider (with
 * `experimental.enableWebAuthn` and an adapter that stores authenticators). Narrow it on `type`.
 *
 * @example
 * ```ts
 * if (provider.type === "oauth" || provider.type === "oidc") provider.clientId // string
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CheckedProviderConfig = CredentialsConfig<any> | CheckedOAuthConfig | EmailConfig | WebAuthnConfig

/**
 * What checking a configuration found: its checked providers, or the first error; and warnings to
 * log once.
 *
 * @example
 * ```ts
 * const check = checkConfig(config, providerConfigs(config.providers))
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

function hasClientId<P extends { clientId?: string }>(provider: P): provider is P & { clientId: string } {
  return typeof provider.clientId === "string" && provider.clientId !== ""
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
 * configuration needs. The first problem wins. It is run once per configuration object (see
 * `configFor`); the request's own checks are {@link checkRequest}'s.
 *
 * @param providers - `config.providers` as configs (`providerConfigs`), index for index.
 *
 * @example
 * ```ts
 * const check = checkConfig(config, providerConfigs(config.providers))
 * if (!check.ok) logger.error(check.error)
 * ```
 */
export function checkConfig(config: AuthConfig, providers: readonly ProviderConfig[]): ConfigCheck {
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
  const checked: CheckedProviderConfig[] = []
  let hasEmail = false
  let webAuthn: string | undefined
  let conditionalUI = 0
  for (const [index, provider] of providers.entries()) {
    switch (provider.type) {
      case "oauth":
      case "oidc":
        if (!provider.issuer) {
          for (const key of ["authorization", "token", "userinfo"] as const) {
            if (!hasEndpoint(provider[key])) {
              return refuse(
                new InvalidEndpoints(`Provider "${provider.id}" is missing both \`issuer\` and \`${key}\` endpoint config. At least one of them is required`),
              )
            }
          }
        }
        // Only the id: public clients (PKCE, token_endpoint_auth_method "none") have no secret.
        if (!hasClientId(provider)) return refuse(missingClientId(provider.id, config.providers[index], readsEnvironment(config)))
        checked.push(provider)
        break
      case "credentials":
        if (typeof provider.authorize !== "function") return refuse(new MissingAuthorize("Must define an authorize() handler to use the credentials provider"))
        checked.push(provider)
        break
      case "email":
        hasEmail = true
        checked.push(provider)
        break
      case "webauthn": {
        webAuthn ??= provider.id
        const version = provider.simpleWebAuthnBrowserVersion
        if (version !== undefined && version !== false && !/^v\d+(?:\.\d+){0,2}$/.test(version)) {
          return refuse(new PlainAuthError(`Invalid provider config for "${provider.id}": simpleWebAuthnBrowserVersion "${version}" must be like v1, v1.2 or v1.2.3`))
        }
        if (provider.enableConditionalUI) {
          if (++conditionalUI > 1) return refuse(new DuplicateConditionalUI("Multiple webauthn providers have 'enableConditionalUI' set to True. Only one provider can have this option enabled at a time"))
          const autocompletes = Object.values(provider.formFields ?? {}).map((field) => field.autocomplete)
          if (!autocompletes.some((value) => typeof value === "string" && value.includes("webauthn"))) {
            return refuse(new MissingWebAuthnAutocomplete(`Provider "${provider.id}" has 'enableConditionalUI' set to True, but none of its formFields have 'webauthn' in their autocomplete param`))
          }
        }
        checked.push(provider)
        break
      }
    }
  }

  const adapter = config.adapter
  const required = new Set<keyof Adapter>()
  if (hasEmail) {
    if (!adapter) return refuse(new MissingAdapter("Email login requires an adapter"))
    for (const method of emailMethods) required.add(method)
  }
  if (strategy === "database" || (strategy === undefined && adapter)) {
    if (!adapter) return refuse(new MissingAdapter("Database session requires an adapter"))
    for (const method of databaseSessionMethods) required.add(method)
    if (checked.some((provider) => refreshEnabled(config, provider))) {
      const missing = refreshMethods.filter((method) => typeof adapter[method] !== "function")
      if (missing.length) {
        return refuse(new MissingAdapterMethods(`Token refresh with database sessions needs the adapter methods ${missing.join(", ")}: add them to your adapter, use authflow's, or turn \`refresh\` off`))
      }
    }
  }
  if (webAuthn !== undefined) {
    if (!config.experimental?.enableWebAuthn) {
      return refuse(new ExperimentalFeatureNotEnabled("WebAuthn is an experimental feature: enable it with experimental.enableWebAuthn"))
    }
    if (!adapter) return refuse(new MissingAdapter("WebAuthn requires an adapter"))
    for (const method of webAuthnMethods) required.add(method)
  }
  if (config.secondFactor !== undefined && config.secondFactor !== false) {
    if (!adapter) return refuse(new MissingAdapter("Second factors need an adapter that stores them: add `adapter`, or turn `secondFactor` off"))
    const missing = missingSecondFactorMethods(adapter)
    if (missing.length) return refuse(new MissingAdapterMethods(`Second factors need the adapter methods ${missing.join(", ")}: add them to your adapter, use authflow's, or turn \`secondFactor\` off`))
  }
  if (checked.some((provider) => provider.type === "credentials" && provider.passwordAccounts)) {
    if (!adapter) return refuse(new MissingAdapter("The Password provider keeps accounts in a database: add `adapter`"))
    // getUser: a signed-in password change reads the account's user.
    for (const method of ["getUserByEmail", "getAccount", "linkAccount", "updateAccountTokens", "getUser"] as const) required.add(method)
    const unmailed = checked.find((provider) => provider.type === "credentials" && provider.passwordAccounts?.verification === "required" && !provider.passwordAccounts.sendMail)
    if (unmailed) return refuse(new InvalidProvider(`The Password provider "${unmailed.id}" requires verified addresses but cannot mail the link: pass Password({ verification: "required", sendMail })`))
    const verifyByOf = (provider: CheckedProviderConfig) => (provider.type === "credentials" ? provider.passwordAccounts?.verifyBy : undefined)
    const unknownVerifyBy = checked.find((provider) => verifyByOf(provider) !== undefined && !["link", "code", "both"].includes(verifyByOf(provider)!))
    if (unknownVerifyBy) return refuse(new InvalidProvider(`The Password provider "${unknownVerifyBy.id}" has verifyBy ${JSON.stringify(verifyByOf(unknownVerifyBy))}: use "link", "code" or "both"`))
    const resetByOf = (provider: CheckedProviderConfig) => (provider.type === "credentials" ? provider.passwordAccounts?.resetBy : undefined)
    const unknownResetBy = checked.find((provider) => resetByOf(provider) !== undefined && !["link", "code", "both"].includes(resetByOf(provider)!))
    if (unknownResetBy) return refuse(new InvalidProvider(`The Password provider "${unknownResetBy.id}" has resetBy ${JSON.stringify(resetByOf(unknownResetBy))}: use "link", "code" or "both"`))
    // The mailed links (verify an address, confirm a new one) read the user by id and write it.
    if (checked.some((provider) => provider.type === "credentials" && provider.passwordAccounts?.sendMail)) for (const method of ["getUser", "updateUser"] as const) required.add(method)
    // A password reset or change ends the user's other database sessions: at once, by deleting their rows.
    const ending = checked.find((provider) => provider.type === "credentials" && provider.passwordAccounts && provider.passwordAccounts.endOtherSessions !== false)
    if (ending && (config.session?.strategy ?? "database") === "database" && typeof adapter.deleteUserSessions !== "function") {
      return refuse(new MissingAdapterMethods(`The Password provider "${ending.id}" ends a user's other sessions when their password changes, which with database sessions needs the adapter method deleteUserSessions: add it, use authflow's adapter, or pass Password({ endOtherSessions: false })`))
    }
  }
  if (adapter) {
    const missing = [...required].filter((method) => typeof adapter[method] !== "function")
    if (missing.length) return refuse(new MissingAdapterMethods(`Required adapter methods were missing: ${missing.join(", ")}`))
  }
  return { ok: true, providers: checked, warnings }
}

/**
 * Adds the request's own checks to a resolved configuration: the callback URL in the query and in
 * its cookie must be http(s) URLs or paths. Problems are reported in Auth.js's order: a missing
 * secret first, then the callback URLs, then the rest of the configuration's problems. Allocates
 * only when it refuses.
 *
 * @example
 * ```ts
 * const resolved = checkRequest(request, configFor(config, request.url))
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
 * const resolved: ResolvedConfig = checkRequest(request, configFor(config, request.url))
 * ```
 */
export type ResolvedConfig = CheckedConfig | RefusedConfig
