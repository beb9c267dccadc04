import { merge } from "./merge.js"
import type { InternalProvider, Provider, ProviderConfig } from "../types.js"

/**
 * The configured providers with the user's `options` merged over each provider's defaults, and
 * their sign-in and callback URLs for this deployment.
 *
 * @example
 * ```ts
 * const [credentials] = resolveProviders([Credentials({ authorize })], "https://app.test/auth")
 * credentials.callbackUrl // "https://app.test/auth/callback/credentials"
 * ```
 */
export function resolveProviders(providers: readonly Provider[], baseUrl: string): InternalProvider[] {
  return providers.map((provider) => {
    const config: ProviderConfig = typeof provider === "function" ? provider() : provider
    const { options, ...defaults } = config
    const merged = merge(defaults, options) as ProviderConfig
    return {
      ...merged,
      signinUrl: `${baseUrl}/signin/${merged.id}`,
      callbackUrl: `${baseUrl}/callback/${merged.id}`,
    } as InternalProvider
  })
}
