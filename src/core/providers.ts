import { merge } from "./merge.js"
import type { InternalProvider, Provider, ProviderConfig } from "../types.js"

/**
 * The configured providers as configs: each factory called with no options, and the user's
 * `options` merged over each provider's defaults (the `options` field itself is dropped). Index `i`
 * of the result is `providers[i]`.
 *
 * @example
 * ```ts
 * const [github] = providerConfigs([GitHub({ clientId: "id" })])
 * github.clientId // "id"
 * ```
 */
export function providerConfigs(providers: readonly Provider[]): ProviderConfig[] {
  return providers.map((provider) => {
    const { options, ...defaults } = typeof provider === "function" ? provider() : provider
    return merge(defaults, options) as ProviderConfig
  })
}

/**
 * Providers with their sign-in and callback URLs under `baseUrl` (`origin + basePath`). The kind of
 * each provider is kept: `InternalProvider<P>` of a `P`.
 *
 * @example
 * ```ts
 * const [credentials] = withProviderUrls([Credentials({ authorize })], "https://app.test/auth")
 * credentials.callbackUrl // "https://app.test/auth/callback/credentials"
 * ```
 */
export function withProviderUrls<P extends ProviderConfig>(providers: readonly P[], baseUrl: string): InternalProvider<P>[] {
  return providers.map((provider) => ({
    ...provider,
    signinUrl: `${baseUrl}/signin/${provider.id}`,
    callbackUrl: `${baseUrl}/callback/${provider.id}`,
  }))
}

/**
 * The configured providers with the user's `options` merged over each provider's defaults, and
 * their sign-in and callback URLs for this deployment. Unchecked: `Auth()` uses the checked
 * providers of `configFor` instead.
 *
 * @example
 * ```ts
 * const [credentials] = resolveProviders([Credentials({ authorize })], "https://app.test/auth")
 * credentials.callbackUrl // "https://app.test/auth/callback/credentials"
 * ```
 */
export function resolveProviders(providers: readonly Provider[], baseUrl: string): InternalProvider[] {
  return withProviderUrls(providerConfigs(providers), baseUrl)
}
