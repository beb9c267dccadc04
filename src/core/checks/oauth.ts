/**
 * The configuration checks of OAuth and OIDC providers: their endpoints (or issuer), their client
 * id, and the adapter methods token refresh needs with database sessions. Loaded by the first
 * configuration with such a provider (`checkConfig`), so an app without one carries none of it.
 *
 * @module
 */
import { InvalidEndpoints, MissingAdapterMethods, type AuthError } from "../errors.js"
import { missingClientId, readsEnvironment } from "../env.js"
import { refreshEnabled } from "../refresh-options.js"
import type { AuthConfig } from "../../types.js"
import type { Adapter } from "../../adapters.js"
import type { OAuthConfig, OIDCConfig } from "../../providers/oauth.js"
import type { CheckedOAuthConfig, CheckedProviderConfig } from "./checked.js"

function hasEndpoint(value: unknown): boolean {
  return typeof value === "string" || (typeof value === "object" && value !== null && "url" in value && Boolean(value.url))
}

function hasClientId<P extends { clientId?: string }>(provider: P): provider is P & { clientId: string } {
  return typeof provider.clientId === "string" && provider.clientId !== ""
}

// Token refresh with database sessions reads the user's accounts and swaps their tokens compare-and-set.
const refreshMethods = ["getAccount", "listAccountsByUserId", "updateAccountTokens"] as const satisfies readonly (keyof Adapter)[]

/**
 * An OAuth/OIDC provider checked: without an `issuer` it needs its authorization, token and
 * userinfo endpoints, and it needs a client id (only the id: public clients have no secret).
 *
 * @param index - Its place in `config.providers`: the missing client id's message names its factory.
 *
 * @example
 * ```ts
 * const result = checkOAuthProvider(provider, config, index)
 * if (result instanceof Error) return refuse(result) // InvalidEndpoints or MissingClientId
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function checkOAuthProvider(provider: OAuthConfig<any> | OIDCConfig<any>, config: AuthConfig, index: number): CheckedOAuthConfig | AuthError {
  if (!provider.issuer) {
    for (const key of ["authorization", "token", "userinfo"] as const) {
      if (!hasEndpoint(provider[key])) {
        return new InvalidEndpoints(`Provider "${provider.id}" is missing both \`issuer\` and \`${key}\` endpoint config. At least one of them is required`)
      }
    }
  }
  if (!hasClientId(provider)) return missingClientId(provider.id, config.providers[index], readsEnvironment(config))
  return provider
}

/**
 * With database sessions: the adapter methods token refresh calls, when a provider refreshes its
 * tokens; undefined when none does or the adapter has them.
 *
 * @example
 * ```ts
 * checkRefreshMethods(config, checked, adapter)?.message // "Token refresh with database sessions needs the adapter methods …"
 * ```
 */
export function checkRefreshMethods(config: AuthConfig, checked: readonly CheckedProviderConfig[], adapter: Adapter): AuthError | undefined {
  if (!checked.some((provider) => refreshEnabled(config, provider))) return undefined
  const missing = refreshMethods.filter((method) => typeof adapter[method] !== "function")
  if (!missing.length) return undefined
  return new MissingAdapterMethods(`Token refresh with database sessions needs the adapter methods ${missing.join(", ")}: add them to your adapter, use authflow's, or turn \`refresh\` off`)
}
