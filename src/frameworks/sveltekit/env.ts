/**
 * Environment inference for SvelteKit.
 *
 * @module
 */
import { setEnvDefaults, type EnvObject } from "../../core/env.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import type { SvelteKitAuthConfig } from "./types.js"

/** `process.env` where there is one (Node), else an empty environment. */
export function processEnv(): EnvObject {
  const process = (globalThis as { process?: { env?: EnvObject } }).process
  return process?.env ?? {}
}

/**
 * Fills `config` for SvelteKit, in place:
 *
 * - `basePath` is always `<base>/auth` (`base` of `$app/paths`), as in `@auth/sveltekit`.
 * - `skipCSRFCheck` is always set: SvelteKit refuses cross-origin form posts itself (its
 *   `csrf` check runs before any hook), and the `signIn`/`signOut` form actions post no token.
 * - `trustHost`: as given, else `true` in development, else the core's rule (`AUTH_URL`,
 *   `AUTH_TRUST_HOST`, `VERCEL`, `CF_PAGES`, then `NODE_ENV !== "production"`).
 * - `secret`, `redirectProxyUrl`, `AUTH_<PROVIDER>_ID`/`_SECRET`/`_ISSUER`/`_KEY`: as the core's
 *   `setEnvDefaults`.
 *
 * Fixed quirk: `@auth/sveltekit` sets `trustHost ??= dev` before reading the environment, so in
 * production `AUTH_TRUST_HOST=true` had no effect; here it counts.
 *
 * @example
 * ```ts
 * const config: SvelteKitAuthConfig = { providers: [GitHub] }
 * setSvelteKitEnvDefaults({ AUTH_SECRET: "s3cret" }, config, { base: "/app" })
 * config.basePath // "/app/auth"
 * ```
 */
export function setSvelteKitEnvDefaults(env: EnvObject, config: SvelteKitAuthConfig, { base = "", dev = false }: { base?: string; dev?: boolean } = {}): void {
  config.basePath = `${base.replace(/\/+$/, "")}/auth`
  config.skipCSRFCheck = skipCSRFCheck
  if (dev) config.trustHost ??= true
  // basePath is set above on purpose: an AUTH_URL path is not a reason to warn.
  setEnvDefaults(env, config, true)
}
