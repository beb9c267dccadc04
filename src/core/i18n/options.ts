/**
 * The `i18n` option: how the language of the built-in pages and emails is chosen, and the app's
 * own messages.
 *
 * @example
 * ```ts
 * import type { I18nOptions } from "./options.js"
 * const i18n: I18nOptions = { messages: { de: { signInWith: "Weiter mit {provider}" } } }
 * ```
 * @module
 */
import type { Catalog } from "./messages.js"

/** What the app's `locale` function sees of the request. */
export interface LocaleRequest {
  /** The request URL (a path prefix or a query parameter may name the language). */
  url: URL
  headers: Headers
  /** The request's cookies by name. */
  cookies: Readonly<Record<string, string>>
}

/**
 * Languages of the built-in pages (sign-in, sign-out, error, verify-request, sign-up, second factor)
 * and of the built-in emails. For each request the locale is chosen once, the first of:
 * `locale(request)`, the `cookie`, the `Accept-Language` header (weights, `*`, `de-AT` → `de`,
 * `pt` → `pt-BR`), else English. A choice is kept only when it is a locale on offer.
 *
 * @example
 * ```ts
 * Auth(request, {
 *   ...config,
 *   i18n: {
 *     locale: (request) => request.url.pathname.startsWith("/de/") ? "de" : undefined,
 *     messages: { de: { signInWith: "Weiter mit {provider}" }, en: { signInHeading: "Welcome back" } },
 *   },
 * })
 * ```
 */
export interface I18nOptions {
  /**
   * The app's choice of locale for a request (from its own URL scheme, a user setting, …),
   * tried first. `undefined`, a locale not on offer, or a throw moves on to the cookie.
   * @default none
   */
  locale?: (request: LocaleRequest) => string | undefined | Promise<string | undefined>
  /**
   * The cookie holding a locale the user chose (a language switcher sets it), tried second;
   * `false` reads none.
   * @default "authflow.locale"
   */
  cookie?: string | false
  /**
   * Your messages per locale tag, over the shipped ones (a message you leave out keeps the shipped
   * text, then English). A tag that authflow does not ship (`"it"`) adds that locale.
   * @default none
   */
  messages?: Readonly<Record<string, Catalog>>
  /**
   * The locales on offer, English always among them.
   * @default every shipped locale (`SHIPPED_LOCALES`) and every tag of `messages`
   */
  locales?: readonly string[]
}
