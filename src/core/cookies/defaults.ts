import type { CookieOption, CookiesOptions, CookiesOverrides } from "../../types.js"

/**
 * The default cookies, as Auth.js v5 names them: `__Secure-` prefixed (and `__Host-` for CSRF) when
 * secure. The `flow` cookie is authflow's own: one sealed snapshot instead of pkce/state/nonce, bound
 * to the browser by the `flowBinding` cookie (`__Host-` when secure, like CSRF).
 *
 * @example
 * ```ts
 * defaultCookies(true).sessionToken.name // "__Secure-authjs.session-token"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc6265bis#section-4.1.3
 */
export function defaultCookies(useSecureCookies: boolean): CookiesOptions {
  const prefix = useSecureCookies ? "__Secure-" : ""
  const base = { httpOnly: true, sameSite: "lax" as const, path: "/", secure: useSecureCookies }
  const fifteenMinutes = 60 * 15
  return {
    sessionToken: { name: `${prefix}authjs.session-token`, options: { ...base } },
    callbackUrl: { name: `${prefix}authjs.callback-url`, options: { ...base } },
    csrfToken: { name: `${useSecureCookies ? "__Host-" : ""}authjs.csrf-token`, options: { ...base } },
    pkceCodeVerifier: { name: `${prefix}authjs.pkce.code_verifier`, options: { ...base, maxAge: fifteenMinutes } },
    state: { name: `${prefix}authjs.state`, options: { ...base, maxAge: fifteenMinutes } },
    nonce: { name: `${prefix}authjs.nonce`, options: { ...base } },
    webauthnChallenge: { name: `${prefix}authjs.challenge`, options: { ...base, maxAge: fifteenMinutes } },
    flow: { name: `${prefix}authflow.flow`, options: { ...base, maxAge: fifteenMinutes } },
    flowBinding: { name: `${useSecureCookies ? "__Host-" : ""}authflow.flow-binding`, options: { ...base, maxAge: fifteenMinutes } },
    secondFactor: { name: `${prefix}authflow.second-factor`, options: { ...base, maxAge: 5 * 60 } },
    trustedDevice: { name: `${useSecureCookies ? "__Host-" : ""}authflow.trusted-device`, options: { ...base, maxAge: 30 * 24 * 60 * 60 } },
    authContext: { name: `${useSecureCookies ? "__Host-" : ""}authflow.auth-context`, options: { ...base } },
    otherSessions: { name: `${prefix}authflow.other-sessions`, options: { ...base } },
    addAccount: { name: `${prefix}authflow.add-account`, options: { ...base, maxAge: fifteenMinutes } },
  }
}

/**
 * The defaults with the user's overrides laid over them, cookie by cookie and option by option.
 *
 * @example
 * ```ts
 * resolveCookies(false, { sessionToken: { options: { domain: "example.com" } } })
 * ```
 */
export function resolveCookies(useSecureCookies: boolean, overrides: CookiesOverrides | undefined): CookiesOptions {
  const cookies = defaultCookies(useSecureCookies)
  if (!overrides) return cookies
  for (const key of Object.keys(cookies) as (keyof CookiesOptions)[]) {
    const override = overrides[key]
    if (!override) continue
    const current: CookieOption = cookies[key]
    cookies[key] = { name: override.name ?? current.name, options: { ...current.options, ...override.options } }
  }
  return cookies
}
