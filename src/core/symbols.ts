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
 * Pass as `config.reissueWhenDue` for session reads that answer requests the browser sends on its
 * own (a framework's proxy or middleware: link prefetches, background navigations): a JWT session
 * whose claims did not change is then written again only once it is older than
 * `session.updateAge`. Such a request may have left before a sign-out and be answered after it; a
 * cookie it re-issued would set the session back. For framework authors.
 *
 * @example
 * ```ts
 * const response = await Auth(sessionRequest, { ...config, reissueWhenDue })
 * ```
 */
export const reissueWhenDue: unique symbol = Symbol("reissue-when-due")

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
