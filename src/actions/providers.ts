import type { AuthOptions } from "../core/options.js"
import type { ResponseInternal } from "../types.js"

/** A provider as GET `/providers` lists it. */
export interface PublicProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/**
 * GET `/providers`: each provider's id, name, type and URLs, keyed by id. Sets no cookies.
 *
 * @example
 * ```ts
 * // { "credentials": { id: "credentials", name: "Credentials", type: "credentials", signinUrl: "…", callbackUrl: "…" } }
 * ```
 */
export function listProviders(options: AuthOptions): ResponseInternal<Record<string, PublicProvider>> {
  const body: Record<string, PublicProvider> = {}
  for (const { id, name, type, signinUrl, callbackUrl } of options.providers) {
    body[id] = { id, name, type, signinUrl, callbackUrl }
  }
  return { status: 200, headers: { "Content-Type": "application/json" }, body }
}
