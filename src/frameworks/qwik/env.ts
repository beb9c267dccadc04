/**
 * Environment inference for Qwik City, through the request event's `env` getter.
 *
 * @module
 */
import { setEnvDefaults, type EnvObject } from "../../core/env.js"
import { skipCSRFCheck } from "../../core/symbols.js"
import type { AuthConfig } from "../../types.js"

/** The `basePath` of the Qwik integration; it cannot be changed. */
export const qwikBasePath = "/auth"

/** Qwik City's `event.env`: `get(name)`. */
export interface EnvGetter {
  get(key: string): string | undefined
}

/** An `EnvObject` reading through a Qwik `EnvGetter`. */
function envObjectOf(env: EnvGetter): EnvObject {
  return new Proxy({} as EnvObject, {
    get: (_target, key) => (typeof key === "string" ? env.get(key) : undefined),
  })
}

/**
 * Completes a Qwik configuration, in place:
 *
 * - `basePath` is always `/auth` (`AUTH_URL` gives no base path here);
 * - `skipCSRFCheck` is always set: Qwik City checks the origin of form actions itself, and
 *   `onRequest` checks it for POSTs under `/auth/`;
 * - `secret` (`AUTH_SECRET`, `AUTH_SECRET_1`..`_3`), `redirectProxyUrl`, `trustHost` and the
 *   providers' `AUTH_<PROVIDER>_ID`/`_SECRET`/`_ISSUER`/`_KEY` as the core's `setEnvDefaults`.
 *
 * Deliberate difference: @auth/qwik applies `AUTH_<PROVIDER>_ISSUER` to oidc providers only; here
 * oauth providers get it too, as everywhere else in authflow.
 *
 * @example
 * ```ts
 * const config: QwikAuthConfig = { providers: [GitHub] }
 * setQwikEnvDefaults({ get: (name) => process.env[name] }, config)
 * config.basePath // "/auth"
 * ```
 */
export function setQwikEnvDefaults(env: EnvGetter, config: AuthConfig): void {
  config.basePath = qwikBasePath
  setEnvDefaults(envObjectOf(env), config, true)
  config.skipCSRFCheck = skipCSRFCheck
}
