/**
 * Pass as `config.skipCSRFCheck` to turn off authflow's CSRF check, for frameworks that already
 * protect their form actions. Anything else leaves the check on.
 *
 * **Dangerous**: without another CSRF defence, any site can sign your users in or out.
 *
 * @example
 * ```ts
 * Auth(request, { ...config, skipCSRFCheck })
 * ```
 */
export const skipCSRFCheck: unique symbol = Symbol("skip-csrf-check")

/**
 * Pass as `config.raw` to get the internal response (`{ status, headers, body, redirect, cookies }`)
 * instead of a web `Response`. For framework authors.
 *
 * @example
 * ```ts
 * const { redirect, cookies } = await Auth(request, { ...config, raw })
 * ```
 */
export const raw: unique symbol = Symbol("return-type-raw")

/**
 * Key of a provider option that replaces the `fetch` used for that provider's OAuth endpoints
 * (proxies, caching, tests).
 *
 * **Dangerous**: whatever it returns is trusted as the provider's answer.
 *
 * @example
 * ```ts
 * GitHub({ [customFetch]: (url, init) => fetch(url, { ...init, dispatcher: proxyAgent }) })
 * ```
 */
export const customFetch: unique symbol = Symbol("custom-fetch")
