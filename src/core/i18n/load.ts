/**
 * The locale of a request and its translator: the app's choice, the locale cookie, then
 * `Accept-Language`, chosen once per request; the catalog of a language other than English is
 * loaded when that language is first asked for, and the English of an area (the Password pages,
 * the second factor, the emails) when a page or email of it is first written (a bundler puts each in
 * a chunk of its own).
 *
 * @example
 * ```ts
 * import { requestTranslator } from "./load.js"
 * const text = await requestTranslator(config.i18n, options.request)
 * text.locale // "de" for Accept-Language: de-AT
 * const signUp = await requestTranslator(config.i18n, options.request, ["password"]) // writes the sign-up page too
 * ```
 * @module
 */
import { onFirstUse } from "../on-first-use.js"
import { MESSAGE_AREAS, english, englishOf } from "./english.js"
import { DEFAULT_LOCALE, SHIPPED_LOCALES, matchLocale, negotiateLocale, type ShippedLocale } from "./locale.js"
import type { Catalog, KeysOf, MessageArea } from "./messages.js"
import type { I18nOptions, LocaleRequest } from "./options.js"
import { translatorOver, type Translator } from "./translate.js"

/** The name of the cookie a language switcher sets, read unless `i18n.cookie` says otherwise. */
export const LOCALE_COOKIE = "authflow.locale"

const catalogs: Record<Exclude<ShippedLocale, "en">, () => Promise<{ messages: Catalog }>> = {
  de: /* @__PURE__ */ onFirstUse(() => import("./catalogs/de.js")),
  fr: /* @__PURE__ */ onFirstUse(() => import("./catalogs/fr.js")),
  es: /* @__PURE__ */ onFirstUse(() => import("./catalogs/es.js")),
  "pt-BR": /* @__PURE__ */ onFirstUse(() => import("./catalogs/pt-BR.js")),
  ja: /* @__PURE__ */ onFirstUse(() => import("./catalogs/ja.js")),
  "zh-CN": /* @__PURE__ */ onFirstUse(() => import("./catalogs/zh-CN.js")),
  ar: /* @__PURE__ */ onFirstUse(() => import("./catalogs/ar.js")),
  he: /* @__PURE__ */ onFirstUse(() => import("./catalogs/he.js")),
}

const isShipped = (locale: string): locale is Exclude<ShippedLocale, "en"> => Object.hasOwn(catalogs, locale)

/** The locales on offer per `i18n` object. */
const offered = new WeakMap<I18nOptions, readonly string[]>()

/**
 * The locales an `i18n` option offers: `locales`, or every shipped locale and every tag of
 * `messages`; English always.
 *
 * @example
 * ```ts
 * localesOf({ messages: { it: { signInHeading: "Accedi" } } }) // ["en", "de", …, "he", "it"]
 * ```
 */
export function localesOf(i18n: I18nOptions | undefined): readonly string[] {
  if (!i18n) return SHIPPED_LOCALES
  let locales = offered.get(i18n)
  if (!locales) {
    const given = i18n.locales ?? [...SHIPPED_LOCALES, ...Object.keys(i18n.messages ?? {})]
    locales = Object.freeze([...new Set([DEFAULT_LOCALE, ...given])])
    offered.set(i18n, locales)
  }
  return locales
}

/**
 * The locale for a request: `i18n.locale(request)`, then the locale cookie, then
 * `Accept-Language`, each kept only when it matches a locale on offer; else English. A `locale`
 * function that throws counts as no choice.
 *
 * @example
 * ```ts
 * await resolveLocale(undefined, { url, headers: new Headers({ "Accept-Language": "pt" }), cookies: {} }) // "pt-BR"
 * ```
 */
export async function resolveLocale(i18n: I18nOptions | undefined, request: LocaleRequest): Promise<string> {
  const locales = localesOf(i18n)
  if (i18n?.locale) {
    let chosen: string | undefined
    try {
      // Only what LocaleRequest names: the request object an action holds carries the parsed body too.
      chosen = await i18n.locale({ url: request.url, headers: request.headers, cookies: request.cookies })
    } catch {
      chosen = undefined
    }
    const match = typeof chosen === "string" ? matchLocale(chosen, locales) : undefined
    if (match) return match
  }
  const cookieName = i18n?.cookie === undefined ? LOCALE_COOKIE : i18n.cookie
  const fromCookie = cookieName === false ? undefined : request.cookies[cookieName]
  const match = fromCookie ? matchLocale(fromCookie, locales) : undefined
  if (match) return match
  return negotiateLocale(request.headers.get("accept-language"), locales, DEFAULT_LOCALE)
}

/** Translators per overrides object, areas and locale (a configuration's overrides are one object). */
const translators = new WeakMap<object, Map<string, Promise<Translator<never>>>>()
const noOverrides = {}

/**
 * English alone for `areas`: the core translator, the translator of every message (kept by
 * `translator.ts`, and loaded with every area), or one made over the areas' English.
 */
function englishTranslator<A extends MessageArea>(areas: readonly A[]): Promise<Translator<KeysOf<A>>> {
  if (areas.length === 0) return Promise.resolve(english as Translator<KeysOf<A>>)
  if (MESSAGE_AREAS.every((area) => (areas as readonly MessageArea[]).includes(area))) return import("./translator.js").then((module) => module.english)
  return englishOf(areas).then((text) => translatorOver(DEFAULT_LOCALE, [], text))
}

/**
 * The translator of `locale` for the messages of `areas` (and the core): the app's messages for it,
 * then the shipped catalog, then English (each loaded now if it is not yet). Kept per `i18n`
 * option, areas and locale.
 *
 * @example
 * ```ts
 * (await translatorOf(undefined, "ja")).t("signOutButton") // "サインアウト"
 * (await translatorOf(undefined, "de", ["password"])).t("signUpTitle") // "Konto erstellen"
 * ```
 */
export function translatorOf<A extends MessageArea = MessageArea>(i18n: I18nOptions | undefined, locale: string, areas: readonly A[] = MESSAGE_AREAS as readonly A[]): Promise<Translator<KeysOf<NoInfer<A>>>> {
  const overrides = i18n?.messages
  const key = overrides ?? noOverrides
  let kept = translators.get(key)
  if (!kept) translators.set(key, (kept = new Map()))
  const which = `${[...new Set(areas)].sort().join()}:${locale}`
  let translator = kept.get(which) as Promise<Translator<KeysOf<A>>> | undefined
  if (!translator) {
    const own = overrides && Object.hasOwn(overrides, locale) ? overrides[locale] : undefined
    if (locale === DEFAULT_LOCALE && !own) translator = englishTranslator(areas)
    else {
      const shipped = isShipped(locale) ? catalogs[locale]().then((module) => module.messages) : Promise.resolve(undefined)
      translator = Promise.all([shipped, englishOf(areas)]).then(([catalog, text]) => translatorOver(locale, [own, catalog], text))
    }
    // A failed load is not kept: the next request tries again.
    translator.catch(() => kept!.delete(which))
    kept.set(which, translator)
  }
  return translator
}

/** The locale of each request object: chosen once however many pages or emails ask. */
const perRequest = new WeakMap<object, Promise<string>>()

/**
 * The translator for a request (see {@link resolveLocale}, chosen once per request object) of the
 * core messages and those of `areas`, whose English is loaded now if it is not yet.
 *
 * @example
 * ```ts
 * const text = await requestTranslator(options.config.i18n, options.request)
 * renderSignOutPage({ url, csrfToken, theme, text })
 * renderSignUpPage({ ...props, text: await requestTranslator(options.config.i18n, options.request, ["password"]) })
 * ```
 */
export function requestTranslator<A extends MessageArea = never>(i18n: I18nOptions | undefined, request: LocaleRequest, areas: readonly A[] = []): Promise<Translator<KeysOf<NoInfer<A>>>> {
  let locale = perRequest.get(request)
  if (!locale) perRequest.set(request, (locale = resolveLocale(i18n, request)))
  return locale.then((chosen) => translatorOf(i18n, chosen, areas))
}
