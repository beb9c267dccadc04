/**
 * Environment inference: the defaults authflow reads from `AUTH_*` variables, and the absolute URL of
 * an action. Wire-compatible with the `setEnvDefaults`, `createActionURL` and `isAuthAction` exports of
 * Auth.js v5, with the deviations listed on each function. Also the error that says which variable a
 * provider's missing client id is read from.
 *
 * @example
 * ```ts
 * import { setEnvDefaults, createActionURL } from "authflow"
 *
 * setEnvDefaults(process.env, config)
 * const signInUrl = createActionURL("signin", "https:", request.headers, process.env, config)
 * ```
 * @module
 */
import { MissingClientId } from "./errors.js"
import type { AuthAction, AuthConfig, LoggerInstance, Provider, ProviderConfig } from "../types.js"

/**
 * An environment: `process.env`, `import.meta.env`, a platform's bindings.
 *
 * @example
 * ```ts
 * const env: EnvObject = { AUTH_SECRET: "s3cret", AUTH_URL: "https://app.example/api/auth" }
 * ```
 */
export type EnvObject = Record<string, string | undefined>

const authActions: ReadonlySet<string> = new Set<AuthAction>([
  "providers",
  "session",
  "csrf",
  "signin",
  "signout",
  "callback",
  "verify-request",
  "error",
  "webauthn-options",
  "backchannel-logout",
  "second-factor",
  "factors",
  "step-up",
  "verify-email",
  "change-email",
  "confirm-email",
  "signup",
  "forgot-password",
  "reset-password",
  "change-password",
  "sessions",
])

/**
 * Tells whether a string names one of the actions served under `basePath`: Auth.js's nine, and
 * authflow's `backchannel-logout`, `second-factor`, `factors`, `step-up`, `signup`, `verify-email`,
 * `change-email`, `confirm-email`, `forgot-password`, `reset-password`, `change-password` and `sessions`.
 *
 * @example
 * ```ts
 * isAuthAction("signin") // true
 * isAuthAction("signup") // false
 * ```
 */
export function isAuthAction(action: string): action is AuthAction {
  return authActions.has(action)
}

/**
 * What the environment says this process is, for the rules that are relaxed outside production:
 * `"development"` or `"test"` when `NODE_ENV` names one of them (case and surrounding spaces
 * ignored), `"production"` for anything else: unset, `"production"`, `"prod"`, `"staging"`. A
 * process that nobody marked as development gets production's rules.
 *
 * @param envObject - The environment to read.
 *   @default `process.env` (an empty environment where there is no `process`)
 *
 * @example
 * ```ts
 * runtimeMode({ NODE_ENV: "development" }) // "development"
 * runtimeMode({ NODE_ENV: "staging" })     // "production"
 * runtimeMode({})                          // "production"
 * ```
 */
export function runtimeMode(envObject: EnvObject = processEnv()): "development" | "test" | "production" {
  const mode = envObject.NODE_ENV?.trim().toLowerCase()
  return mode === "development" || mode === "test" ? mode : "production"
}

/**
 * `process.env`, or an empty environment where there is no `process` (an edge runtime without it).
 *
 * @example
 * ```ts
 * processEnv().NODE_ENV // "production", or undefined on an edge runtime
 * ```
 */
export function processEnv(): EnvObject {
  return (globalThis as { process?: { env?: EnvObject } }).process?.env ?? {}
}

/** `AUTH_TRUST_HOST` values that mean "do not trust", compared case-insensitively after trimming. */
const falseLike: ReadonlySet<string> = new Set(["", "false", "0", "no", "off"])

/**
 * Fills the configuration from environment variables. It changes `config` in place.
 *
 * - `AUTH_URL` gives `basePath` (its pathname) unless `basePath` is already set; then the warning
 *   `env-url-basepath-redundant` goes to `config.logger.warn`, unless `suppressBasePathWarning`.
 *   An unparsable `AUTH_URL` is ignored. Finally `basePath` defaults to `"/auth"`.
 * - `origin` (the public origin every outgoing URL is built on) defaults to the origin of `AUTH_URL`.
 * - An empty `secret` (missing, `""` or `[]`) becomes
 *   `[AUTH_SECRET_3, AUTH_SECRET_2, AUTH_SECRET_1, AUTH_SECRET]`, keeping the non-empty ones: always
 *   an array, newest secret first.
 * - `redirectProxyUrl` defaults to `AUTH_REDIRECT_PROXY_URL`.
 * - `trustHost` defaults to the first defined of `AUTH_URL`, `AUTH_TRUST_HOST`, `VERCEL`, `CF_PAGES`
 *   (a non-empty value means true), else to `NODE_ENV !== "production"`.
 * - Each provider reads `AUTH_<ID>_ID`, `_SECRET`, `_ISSUER` and `_KEY`, where `<ID>` is its id in
 *   upper case with `-` turned into `_`. A provider given as a function is called with those that are
 *   defined (`clientId`, `clientSecret`, `issuer`, `apiKey`) and replaced by its result. Then an
 *   oauth/oidc provider gets `clientId`, `clientSecret` and `issuer`, and an email provider `apiKey`,
 *   wherever it has none. Provider objects are never changed: a shallow copy replaces them in
 *   `config.providers` when a value is added.
 *
 * Fixed quirk: Auth.js turns any non-empty `AUTH_TRUST_HOST` into `true`, so `AUTH_TRUST_HOST=false`
 * trusted the host. Here `"false"`, `"0"`, `"no"`, `"off"` (in any case) and `""` mean `false`.
 * Unlike Auth.js, no default console logger is installed: warnings only reach `config.logger.warn`.
 *
 * @param envObject - The environment to read, e.g. `process.env`.
 * @param config - The configuration to complete; changed in place.
 * @param suppressBasePathWarning - For framework wrappers that set `basePath` from `AUTH_URL` themselves.
 *
 * @example
 * ```ts
 * const config: AuthConfig = { providers: [GitHub] }
 * setEnvDefaults({ AUTH_SECRET: "s3cret", AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "shh" }, config)
 * // config.secret: ["s3cret"], config.basePath: "/auth",
 * // config.providers[0]: GitHub({ clientId: "id", clientSecret: "shh" }) with clientId/clientSecret set
 * ```
 */
export function setEnvDefaults(envObject: EnvObject, config: AuthConfig, suppressBasePathWarning = false): void {
  completedFromEnvironment.add(config)
  const authUrl = envObject.AUTH_URL
  if (authUrl) {
    if (config.basePath) {
      if (!suppressBasePathWarning) config.logger?.warn?.("env-url-basepath-redundant")
    } else {
      try {
        config.basePath = new URL(authUrl).pathname
      } catch {
        // An unparsable AUTH_URL leaves basePath to the default below.
      }
    }
  }
  config.basePath ??= "/auth"
  if (authUrl && config.origin === undefined) {
    try {
      config.origin = new URL(authUrl).origin
    } catch {
      // An unparsable AUTH_URL gives no origin either.
    }
  }

  if (!config.secret?.length) {
    const names = ["AUTH_SECRET_3", "AUTH_SECRET_2", "AUTH_SECRET_1", "AUTH_SECRET"]
    config.secret = names.map((name) => envObject[name]).filter((secret): secret is string => !!secret)
  }

  if (envObject.AUTH_REDIRECT_PROXY_URL !== undefined) config.redirectProxyUrl ??= envObject.AUTH_REDIRECT_PROXY_URL

  config.trustHost ??= inferTrustHost(envObject)

  config.providers = config.providers.map((provider) => withEnvCredentials(provider, envObject))
}

const completedFromEnvironment = new WeakSet<object>()

/**
 * Whether {@link setEnvDefaults} completed this configuration object (the framework wrappers do;
 * plain `Auth()` reads no environment). Error messages use it to say where a missing value goes.
 *
 * @example
 * ```ts
 * readsEnvironment(config) ? "set AUTH_GITHUB_ID" : "pass clientId to GitHub()"
 * ```
 */
export function readsEnvironment(config: object): boolean {
  return completedFromEnvironment.has(config)
}

function inferTrustHost(env: EnvObject): boolean {
  if (env.AUTH_URL !== undefined) return !!env.AUTH_URL
  if (env.AUTH_TRUST_HOST !== undefined) return !falseLike.has(env.AUTH_TRUST_HOST.trim().toLowerCase())
  if (env.VERCEL !== undefined) return !!env.VERCEL
  if (env.CF_PAGES !== undefined) return !!env.CF_PAGES
  return env.NODE_ENV !== "production"
}

type EnvCredentials = { clientId?: string; clientSecret?: string; issuer?: string; apiKey?: string }

/** The suffix of each provider variable, by the provider field it fills. */
const credentialSuffixes = { clientId: "ID", clientSecret: "SECRET", issuer: "ISSUER", apiKey: "KEY" } as const

/**
 * The environment variable `setEnvDefaults` reads a provider's field from: `AUTH_<ID>_<FIELD>`,
 * where `<ID>` is the provider's id in upper case with `-` turned into `_`.
 *
 * @param id - The provider's id.
 * @param field - The field the variable fills: `clientId` (`_ID`), `clientSecret` (`_SECRET`),
 *   `issuer` (`_ISSUER`) or `apiKey` (`_KEY`).
 *
 * @example
 * ```ts
 * providerEnvVariable("github", "clientId") // "AUTH_GITHUB_ID"
 * providerEnvVariable("microsoft-entra-id", "clientSecret") // "AUTH_MICROSOFT_ENTRA_ID_SECRET"
 * ```
 */
export function providerEnvVariable(id: string, field: keyof EnvCredentials): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, "_")}_${credentialSuffixes[field]}`
}

function readCredentials(env: EnvObject, id: string): EnvCredentials {
  const found: EnvCredentials = {}
  for (const key of Object.keys(credentialSuffixes) as (keyof EnvCredentials)[]) {
    const value = env[providerEnvVariable(id, key)]
    if (value !== undefined) found[key] = value
  }
  return found
}

function withEnvCredentials(provider: Provider, env: EnvObject): ProviderConfig {
  let resolved: ProviderConfig
  let credentials: EnvCredentials
  if (typeof provider === "function") {
    // The id is only known once the factory has run.
    const probe = provider({})
    if (typeof probe?.id !== "string") return probe
    credentials = readCredentials(env, probe.id)
    resolved = Object.keys(credentials).length ? provider({ ...credentials }) : probe
  } else {
    if (typeof provider?.id !== "string") return provider
    resolved = provider
    credentials = readCredentials(env, provider.id)
  }

  const keys: readonly (keyof EnvCredentials)[] =
    resolved.type === "oauth" || resolved.type === "oidc"
      ? ["clientId", "clientSecret", "issuer"]
      : resolved.type === "email"
        ? ["apiKey"]
        : []
  let merged = resolved
  for (const key of keys) {
    const value = credentials[key]
    if (value === undefined || Reflect.get(merged, key) != null) continue
    merged = { ...merged, [key]: value }
  }
  return merged
}

/**
 * Builds the absolute URL of an action, for server-side redirects.
 *
 * With `AUTH_URL` (or else `NEXTAUTH_URL`) the URL starts from it. When `basePath` is set (and not `"/"`)
 * and that URL has a path, its path is dropped in favour of `basePath`, with the warning
 * `env-url-basepath-mismatch` when the two differ. Without an env URL the origin comes from the request:
 * host from `x-forwarded-host`, else `host`; scheme from `x-forwarded-proto`, else `protocol`, else
 * `"https"` (a missing `:` is added). The result is `<origin and path>/<basePath>/<action>`.
 *
 * Fixed quirks: Auth.js makes `//<action>` out of `basePath: "/"` and `https://null/...` out of a
 * request without a host; here `"/"` means no base path and a missing host throws. The query and
 * fragment of the env URL are dropped instead of ending up in the middle of the result.
 *
 * @param action - The action to link to.
 * @param protocol - The request's scheme, with or without `:`.
 * @param headers - The request headers.
 * @param envObject - The environment, e.g. `process.env`.
 * @param config - `basePath` and the `logger` that receives warnings.
 * @throws TypeError when the env URL is not a URL, or when there is no env URL and no host header.
 *
 * @example
 * ```ts
 * const headers = new Headers({ host: "app.example" })
 * createActionURL("signin", "https", headers, {}, { basePath: "/api/auth" }).href
 * // "https://app.example/api/auth/signin"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7239 (forwarded headers; the `x-forwarded-*` de facto forms are read)
 */
export function createActionURL(
  action: AuthAction,
  protocol: string | undefined,
  headers: Headers,
  envObject: EnvObject,
  config: { basePath?: string; logger?: Partial<LoggerInstance> } = {},
): URL {
  const { basePath } = config
  const envUrl = envObject.AUTH_URL ?? envObject.NEXTAUTH_URL
  let url: URL
  if (envUrl) {
    url = new URL(envUrl)
    url.search = ""
    url.hash = ""
    if (basePath && basePath !== "/" && url.pathname !== "/") {
      if (url.pathname !== basePath) config.logger?.warn?.("env-url-basepath-mismatch")
      url.pathname = "/"
    }
  } else {
    const host = headers.get("x-forwarded-host") ?? headers.get("host")
    if (!host) throw new TypeError("Cannot build an action URL: no AUTH_URL and no host header")
    const scheme = headers.get("x-forwarded-proto") ?? protocol ?? "https"
    url = new URL(`${scheme.endsWith(":") ? scheme : `${scheme}:`}//${host}`)
  }

  const origin = url.href.replace(/\/$/, "")
  const base = basePath?.replace(/^\/+|\/+$/g, "")
  return new URL(base ? `${origin}/${base}/${action}` : `${origin}/${action}`)
}

/**
 * The `MissingClientId` error of a provider, saying how to give it its client id on the path the app
 * took: the env variable when `setEnvDefaults` completed the configuration (the framework
 * wrappers call it), else the option (of the factory, when the provider was given as one) and how
 * to read the variable, since plain `Auth()` reads no environment.
 *
 * @param source - The provider as configured: a factory gives its name to the message.
 * @param readsEnv - Whether `setEnvDefaults` completed the configuration.
 *
 * @example
 * ```ts
 * missingClientId("github", GitHub, true).message
 * // 'Provider "github" has no clientId: set AUTH_GITHUB_ID (or pass clientId to GitHub())'
 * missingClientId("github", GitHub, false).message
 * // 'Provider "github" has no clientId: pass clientId to GitHub(), or call setEnvDefaults(process.env, config) before Auth() to read AUTH_GITHUB_ID'
 * ```
 */
export function missingClientId(id: string, source?: Provider, readsEnv = false): MissingClientId {
  const factory = typeof source === "function" && /^[A-Za-z_$][\w$]*$/.test(source.name) ? source.name : undefined
  const option = factory ? `pass clientId to ${factory}()` : "give the provider a clientId"
  const variable = providerEnvVariable(id, "clientId")
  const fix = readsEnv ? `set ${variable} (or ${option})` : `${option}, or call setEnvDefaults(process.env, config) before Auth() to read ${variable}`
  return new MissingClientId(`Provider "${id}" has no clientId: ${fix}`, { cause: { provider: id } })
}
