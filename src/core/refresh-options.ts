/**
 * Whether a provider's access tokens are refreshed: read by the configuration checks and the
 * refresh itself, kept apart so the checks need nothing of the refresh machinery.
 *
 * @module
 */
import type { AuthConfig } from "../types.js"

/**
 * True when access tokens of `provider` are refreshed: its own `refresh`, else the configuration's
 * (`refresh: true`, or an object whose `enabled` is not `false`).
 *
 * @example
 * ```ts
 * refreshEnabled({ refresh: true, providers: [] }, { id: "corp", type: "oidc" }) // true
 * ```
 */
export function refreshEnabled(config: Pick<AuthConfig, "refresh">, provider: { type: string; refresh?: boolean }): boolean {
  if (provider.type !== "oauth" && provider.type !== "oidc") return false
  if (provider.refresh !== undefined) return provider.refresh
  const global = config.refresh
  return global === true || (typeof global === "object" && global !== null && global.enabled !== false)
}
