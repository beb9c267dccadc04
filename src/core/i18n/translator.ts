/**
 * The translator of every message: a locale's messages with all of English under them, and Intl
 * formatting in that locale. It loads every area of English (`messages.ts`); the pages and emails
 * are given a translator of the areas they write (`english.ts`, `load.ts`) instead.
 *
 * @example
 * ```ts
 * import { createTranslator, english } from "./translator.js"
 * english.t("signInWith", { provider: "GitHub" }) // "Sign in with GitHub"
 * createTranslator("de", [{ signInWith: "Anmelden mit {provider}" }]).t("signInWith", { provider: "GitHub" }) // "Anmelden mit GitHub"
 * ```
 * @module
 */
import { en, type Catalog } from "./messages.js"
import { translatorOver, type Translator } from "./translate.js"

export type { DurationUnit, MessageParams, Translator } from "./translate.js"

/**
 * A translator for `locale` reading `catalogs` in order, then English. The Intl formatters are made
 * on first use and kept.
 *
 * @example
 * ```ts
 * const text = createTranslator("fr", [appOverrides, frenchCatalog])
 * text.t("signOutButton") // "Se déconnecter"
 * ```
 */
export function createTranslator(locale: string, catalogs: readonly (Catalog | undefined)[] = []): Translator {
  return translatorOver(locale, catalogs, en)
}

/**
 * The English translator of every message.
 *
 * @example
 * ```ts
 * english.t("signOutQuestion") // "Are you sure you want to sign out?"
 * ```
 */
export const english: Translator = createTranslator("en")
