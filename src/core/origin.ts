/**
 * Which origin a request is served as. Every URL that leaves the server (the OAuth `redirect_uri`,
 * mail links, `/providers` URLs, redirects after sign-in) is built from that origin, so it must
 * come from configuration whenever the configuration names one, never from a `Host` header that
 * anyone can send.
 *
 * @module
 */
import { UntrustedHost } from "./errors.js"
import type { AuthConfig } from "../types.js"

/** The origin rules of one configuration, compiled once. */
interface OriginPolicy {
  /** `config.origin`: requests from any other untrusted origin are served as this one. */
  canonical?: string
  /** `config.trustedOrigins`, compiled: origins served as themselves. */
  trusted: ((origin: string) => boolean)[]
  /** A malformed `origin` or `trustedOrigins` entry: a configuration error. */
  error?: UntrustedHost
}

const policies = new WeakMap<AuthConfig, { origin: string | undefined; trustedOrigins: readonly string[] | undefined; policy: OriginPolicy }>()

/** `scheme://*.rest` matches one DNS label in place of `*`; anything else must be an exact origin. */
function compile(entry: string): ((origin: string) => boolean) | undefined {
  const wildcard = /^(https?):\/\/\*\.([a-z0-9.-]+(?::\d{1,5})?)$/i.exec(entry)
  if (wildcard) {
    // The pattern has two groups, and neither is optional.
    const [, scheme, rest] = wildcard as RegExpExecArray & [string, string, string]
    let suffix: string
    try {
      suffix = new URL(`${scheme}://x.${rest}`).origin.slice(`${scheme}://x`.length).toLowerCase()
    } catch {
      return undefined
    }
    const prefix = `${scheme.toLowerCase()}://`
    return (origin) => {
      if (!origin.startsWith(prefix) || !origin.endsWith(suffix)) return false
      const label = origin.slice(prefix.length, origin.length - suffix.length)
      return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)
    }
  }
  if (entry.includes("*")) return undefined
  const exact = exactOrigin(entry)
  return exact === undefined ? undefined : (origin) => origin === exact
}

/** The origin of an http(s) URL given as an origin (a trailing slash allowed), else undefined. */
function exactOrigin(value: string): string | undefined {
  try {
    const url = new URL(value)
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
    if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) return undefined
    return url.origin
  } catch {
    return undefined
  }
}

function policyOf(config: AuthConfig): OriginPolicy {
  const cached = policies.get(config)
  if (cached && cached.origin === config.origin && cached.trustedOrigins === config.trustedOrigins) return cached.policy
  const policy: OriginPolicy = { trusted: [] }
  if (config.origin !== undefined) {
    const canonical = exactOrigin(config.origin)
    if (canonical === undefined) {
      policy.error = new UntrustedHost(`\`origin\` must be an http(s) origin such as "https://app.example", not "${config.origin}": fix it (or AUTH_URL)`)
    } else {
      policy.canonical = canonical
    }
  }
  for (const entry of config.trustedOrigins ?? []) {
    const matcher = typeof entry === "string" ? compile(entry) : undefined
    if (!matcher) {
      policy.error ??= new UntrustedHost(
        `\`trustedOrigins\` entries are origins ("https://app.example") or one-label wildcards ("https://*.preview.example"), not ${JSON.stringify(entry)}: fix that entry`,
      )
      continue
    }
    policy.trusted.push(matcher)
  }
  policies.set(config, { origin: config.origin, trustedOrigins: config.trustedOrigins, policy })
  return policy
}

/**
 * Tells whether an origin is one the configuration names: `origin` itself, or a match of one of
 * `trustedOrigins`. A redirect proxy forwards only to such origins.
 *
 * @example
 * ```ts
 * isConfiguredOrigin("https://pr-42.preview.example", { providers: [], trustedOrigins: ["https://*.preview.example"] }) // true
 * isConfiguredOrigin("https://evil.example", { providers: [], origin: "https://app.example" }) // false
 * ```
 */
export function isConfiguredOrigin(origin: string, config: AuthConfig): boolean {
  const policy = policyOf(config)
  return origin === policy.canonical || policy.trusted.some((matches) => matches(origin))
}

/**
 * The origin a request is served as:
 * 1. its own origin when it is `origin` or matches `trustedOrigins`;
 * 2. else `origin`, when configured (the request's `Host` is ignored);
 * 3. else, with `trustedOrigins` but no `origin`, nothing: the request is refused;
 * 4. else, with nothing configured, its own origin when `trustHost` is set, and a refusal otherwise.
 *
 * A refusal is an `UntrustedHost` configuration error whose message says how to fix it.
 *
 * @example
 * ```ts
 * servedOrigin(new URL("http://evil.example/auth/signin"), { providers: [], origin: "https://app.example" })
 * // { origin: "https://app.example" }
 * ```
 */
export function servedOrigin(url: URL, config: AuthConfig): { origin: string; error?: undefined } | { origin?: undefined; error: UntrustedHost } {
  const policy = policyOf(config)
  if (policy.error) return { error: policy.error }
  const own = url.origin
  if (own === policy.canonical || policy.trusted.some((matches) => matches(own))) return { origin: own }
  if (policy.canonical) return { origin: policy.canonical }
  if (policy.trusted.length) {
    return {
      error: new UntrustedHost(`The origin ${own} is not in \`trustedOrigins\`: add it there, or set \`origin\` (or AUTH_URL) to serve every request as the app's public origin`),
    }
  }
  if (config.trustHost) return { origin: own }
  return {
    error: new UntrustedHost(
      "The request's Host cannot be trusted: set AUTH_URL (or `origin`) to the app's public origin, or list `trustedOrigins`, or set AUTH_TRUST_HOST=true (`trustHost: true`) only behind a proxy that sets Host itself",
    ),
  }
}

