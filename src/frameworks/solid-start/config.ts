/**
 * The configuration `Auth()` gets from the SolidStart integration: `prefix` as `basePath`, and the
 * environment defaults.
 *
 * @module
 */
import { setEnvDefaults, type EnvObject } from "../../core/env.js"
import type { AuthConfig } from "../../types.js"
import type { SolidAuthConfig } from "./types.js"

/** The default `prefix` (and so `basePath`) of the SolidStart integration. */
export const defaultPrefix = "/api/auth"

/** A derived configuration: what `Auth()` is given, and the prefix it answers under. */
export interface DerivedConfig {
  prefix: string
  config: Omit<AuthConfig, "raw">
}

/** `/api/auth/` → `/api/auth`; `/` → `` (the routes at the root). */
function normalisePrefix(prefix: string): string {
  const withSlash = prefix.startsWith("/") ? prefix : `/${prefix}`
  return withSlash.replace(/\/+$/, "")
}

/**
 * Derives the configuration given to `Auth()`, leaving `config` untouched:
 *
 * - `basePath` is the prefix (`prefix`, else `basePath`, else `/api/auth`). Deliberate difference:
 *   `@auth/solid-start` leaves `basePath` to core's `/auth` whatever the prefix, so its default
 *   setup answers 400 under `/api/auth`.
 * - `secret`, `trustHost`, `redirectProxyUrl` and the providers' `AUTH_<ID>_*` credentials come from
 *   the environment as the core's `setEnvDefaults` fills them: `secret` from `AUTH_SECRET` (plus
 *   `AUTH_SECRET_1`..`_3` for rotation), `trustHost` from `AUTH_URL`, `AUTH_TRUST_HOST`, `VERCEL`,
 *   `CF_PAGES`, else `NODE_ENV !== "production"`.
 * - `raw` is dropped: the handlers of an API route must answer a `Response`.
 *
 * `trustHost` is applied when given as `fallbackTrustHost` first (see `getSession`).
 *
 * @example
 * ```ts
 * deriveConfig({ providers: [] }, { AUTH_SECRET: "s" }).config.basePath // "/api/auth"
 * ```
 */
export function deriveConfig(config: SolidAuthConfig, env: EnvObject, fallbackTrustHost?: boolean): DerivedConfig {
  const { prefix: givenPrefix, raw: _raw, ...rest } = config
  const prefix = normalisePrefix(givenPrefix ?? config.basePath ?? defaultPrefix)
  const derived: AuthConfig = { ...rest, basePath: prefix, providers: [...(config.providers ?? [])] }
  if (fallbackTrustHost !== undefined) derived.trustHost ??= fallbackTrustHost
  // basePath is set, so an AUTH_URL path is not used for it; no warning about that.
  setEnvDefaults(env, derived, true)
  return { prefix, config: derived }
}

/** `process.env`, or nothing in a runtime without `process`. */
export function processEnv(): EnvObject {
  return typeof process === "undefined" ? {} : process.env
}

const cache = new WeakMap<SolidAuthConfig, Map<string, DerivedConfig>>()

/**
 * {@link deriveConfig}, once per configuration object (and trust fallback): providers given as
 * functions are called once, not on every request.
 */
export function derivedConfig(config: SolidAuthConfig, env: EnvObject, fallbackTrustHost?: boolean): DerivedConfig {
  let byFallback = cache.get(config)
  if (!byFallback) cache.set(config, (byFallback = new Map()))
  const key = String(fallbackTrustHost)
  let derived = byFallback.get(key)
  if (!derived) byFallback.set(key, (derived = deriveConfig(config, env, fallbackTrustHost)))
  return derived
}
