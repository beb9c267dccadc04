import { merge } from "./merge.js"
import type { InternalProvider, Provider, ProviderConfig } from "../types.js"

/**
 * The configured providers as configs: each factory called with no options, and the user's
 * `options` merged over each provider's defaults (the `options` field itself is dropped). An
 * endpoint may be a URL string or `{ url, params }` on either side (see `withEndpointUrls`). Index
 * `i` of the result is `providers[i]`.
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
    return withEndpointUrls(merge(defaults, options) as ProviderConfig, defaults)
  })
}

const endpointKeys = ["authorization", "token", "userinfo"] as const

/**
 * Endpoints can be given as a URL string or as `{ url, params }`, by the provider and by the user,
 * as in Auth.js. A string replaces whatever the provider had (its query holds the parameters); an
 * object without `url` over a provider's string keeps that URL, where a plain merge would lose it
 * (`token: { conform }` over `token: "https://…"`).
 */
function withEndpointUrls(merged: ProviderConfig, defaults: object): ProviderConfig {
  let result = merged
  for (const key of endpointKeys) {
    const byDefault = Reflect.get(defaults, key) as unknown
    const current = Reflect.get(result, key) as unknown
    if (typeof byDefault !== "string" || current === null || typeof current !== "object" || "url" in current) continue
    result = { ...result, [key]: { ...current, url: byDefault } }
  }
  return result
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
