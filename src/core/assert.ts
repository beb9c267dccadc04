import {
  ExperimentalFeatureNotEnabled,
  InvalidCallbackUrl,
  InvalidEndpoints,
  MissingAdapter,
  MissingAdapterMethods,
  MissingAuthorize,
  MissingSecret,
  UnsupportedStrategy,
  type AuthError,
} from "./errors.js"
import type { AuthRequest } from "./request.js"
import type { AuthConfig, InternalProvider, WarningCode } from "../types.js"
import type { Adapter } from "../adapters.js"

/** An absolute http(s) URL, or a path starting with "/" (resolved against the origin). */
function isValidHttpUrl(value: string, origin: string): boolean {
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
const emailMethods: (keyof Adapter)[] = ["createVerificationToken", "useVerificationToken", "getUserByEmail"]
const webAuthnMethods: (keyof Adapter)[] = [
  "createUser", "getUser", "linkAccount", "getAccount", "getAuthenticator", "createAuthenticator",
  "listAuthenticatorsByUserId", "updateAuthenticatorCounter",
]

/** What checking a configuration found: the first error, and warnings to log once. */
export interface ConfigCheck {
  error?: AuthError
  warnings: WarningCode[]
}

/**
 * Checks a configuration against the request before anything runs (after the request's origin
 * was settled by `servedOrigin`). The first problem wins; the
 * request is then answered with a Configuration error that reveals nothing, and the problem is
 * logged in full.
 *
 * @example
 * ```ts
 * const { error } = checkConfig(request, config, providers, callbackUrlCookieName)
 * if (error) logger.error(error)
 * ```
 */
export function checkConfig(
  request: AuthRequest,
  config: AuthConfig,
  providers: readonly InternalProvider[],
  callbackUrlCookieName: string,
): ConfigCheck {
  const warnings: WarningCode[] = []
  if (!config.secret?.length) return { error: new MissingSecret("Please define a `secret`"), warnings }

  const origin = request.url.origin
  const queryCallbackUrl = request.query.callbackUrl
  if (queryCallbackUrl && !isValidHttpUrl(queryCallbackUrl, origin)) {
    return { error: new InvalidCallbackUrl(`Invalid callback URL. Received: ${queryCallbackUrl}`), warnings }
  }
  const cookieCallbackUrl = request.cookies[callbackUrlCookieName]
  if (cookieCallbackUrl && !isValidHttpUrl(cookieCallbackUrl, origin)) {
    return { error: new InvalidCallbackUrl(`Invalid callback URL. Received: ${cookieCallbackUrl}`), warnings }
  }

  const strategy = config.session?.strategy
  if (strategy !== undefined && strategy !== "jwt" && strategy !== "database") {
    return { error: new UnsupportedStrategy(`Unknown session strategy "${String(strategy)}": use "jwt" or "database"`), warnings }
  }

  // Experimental features may change or disappear: say so whenever one is switched on.
  if (config.experimental?.enableWebAuthn) warnings.push("experimental-webauthn")
  let hasEmail = false
  let hasWebAuthn = false
  for (const provider of providers) {
    if (provider.type === "oauth" || provider.type === "oidc") {
      const options = (provider.options ?? {}) as Record<string, unknown>
      if (!provider.issuer && !options.issuer) {
        for (const key of ["authorization", "token", "userinfo"] as const) {
          if (!hasEndpoint(provider[key])) {
            return {
              error: new InvalidEndpoints(
                `Provider "${provider.id}" is missing both \`issuer\` and \`${key}\` endpoint config. At least one of them is required`,
              ),
              warnings,
            }
          }
        }
      }
    } else if (provider.type === "credentials") {
      if (typeof provider.authorize !== "function") {
        return { error: new MissingAuthorize("Must define an authorize() handler to use the credentials provider"), warnings }
      }
    } else if (provider.type === "email") {
      hasEmail = true
    } else if (provider.type === "webauthn") {
      hasWebAuthn = true
    }
  }

  const adapter = config.adapter
  const required = new Set<keyof Adapter>()
  if (hasEmail) {
    if (!adapter) return { error: new MissingAdapter("Email login requires an adapter"), warnings }
    for (const method of emailMethods) required.add(method)
  }
  if (strategy === "database" || (strategy === undefined && adapter)) {
    if (!adapter) return { error: new MissingAdapter("Database session requires an adapter"), warnings }
    for (const method of databaseSessionMethods) required.add(method)
  }
  if (hasWebAuthn) {
    if (!config.experimental?.enableWebAuthn) {
      return { error: new ExperimentalFeatureNotEnabled("WebAuthn is an experimental feature: enable it with experimental.enableWebAuthn"), warnings }
    }
    if (!adapter) return { error: new MissingAdapter("WebAuthn requires an adapter"), warnings }
    for (const method of webAuthnMethods) required.add(method)
  }
  if (adapter) {
    const missing = [...required].filter((method) => typeof adapter[method] !== "function")
    if (missing.length) {
      return { error: new MissingAdapterMethods(`Required adapter methods were missing: ${missing.join(", ")}`), warnings }
    }
  }
  return { warnings }
}
