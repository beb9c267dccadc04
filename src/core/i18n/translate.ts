/**
 * A locale's messages with the English of some areas under them, and Intl formatting in that
 * locale: what the pages and emails are given to write their text. A translator's type names the
 * keys it can write (`Translator<CoreKey>`), so a page cannot ask for a message whose English was
 * not loaded; `Translator` alone writes every key.
 *
 * @example
 * ```ts
 * import { translatorOver } from "./translate.js"
 * import { messages as core } from "./english/core.js"
 * translatorOver("de", [{ signInWith: "Anmelden mit {provider}" }], core).t("signInWith", { provider: "GitHub" }) // "Anmelden mit GitHub"
 * ```
 * @module
 */
import { directionOf } from "./locale.js"
import type { Catalog, MessageKey } from "./messages.js"

/** A message's parameters: text is inserted as is, numbers formatted for the locale. */
export type MessageParams = Readonly<Record<string, string | number>>

/** The units of {@link Translator.duration} and {@link Translator.relativeTime}. */
export type DurationUnit = "second" | "minute" | "hour" | "day"

/**
 * The messages of one locale and Intl formatting in it: every message, or (`Translator<K>`) those
 * of the keys `K`. A translator of more keys stands in for one of fewer, never the reverse.
 *
 * @example
 * ```ts
 * const text: Translator = english
 * text.t("returnTo", { host: "app.example" }) // "Return to app.example"
 * text.duration(10, "minute") // "10 minutes"
 * const signOut: Translator<CoreKey> = text // what the sign-out page takes: fine
 * const signUp: Translator<KeysOf<"password">> = signOut // a type error: the Password pages' English may not be loaded
 * ```
 */
export interface Translator<in K extends MessageKey = MessageKey> {
  /** The BCP 47 tag written into `<html lang>`. */
  readonly locale: string
  /** The writing direction written into `<html dir>` when it is `"rtl"`. */
  readonly dir: "ltr" | "rtl"
  // `t` and `html` are properties, not methods: TypeScript checks a method's parameters both ways,
  // so a hand-written translator of fewer keys would pass for one of more.
  /** The message for `key` with `{name}` parameters filled in; a parameter not given stays as `{name}`. */
  readonly t: (key: K, params?: MessageParams) => string
  /**
   * The message as HTML: its text escaped, each `{name}` replaced by the given HTML as is (the
   * caller escapes what it passes).
   */
  readonly html: (key: K, params?: Readonly<Record<string, string>>) => string
  /** A number in the locale's digits and separators. */
  number(value: number): string
  /** A length of time: `10 minutes`, `10 Minuten`, `10 分`. */
  duration(value: number, unit: DurationUnit): string
  /** A time from now: `in 5 minutes`, `dans 5 minutes`. */
  relativeTime(value: number, unit: DurationUnit): string
  /** A date and time (medium date, short time) in `timeZone`, its name shown. @default timeZone "UTC" */
  dateTime(value: Date, timeZone?: string): string
}

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g
const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => entities[c]!)

/**
 * A translator for `locale` reading `catalogs` in order, then `english` (the English of the keys it
 * writes). The Intl formatters are made on first use and kept.
 *
 * @example
 * ```ts
 * const text = translatorOver("fr", [appOverrides, frenchCatalog], await englishOf(["password"]))
 * text.t("signUpTitle") // "Créer un compte"
 * ```
 */
export function translatorOver<K extends MessageKey>(locale: string, catalogs: readonly (Catalog | undefined)[], english: Readonly<Record<K, string>>): Translator<K> {
  const layers = catalogs.filter((catalog): catalog is Catalog => catalog !== undefined)
  const lookup = (key: K): string => {
    for (const layer of layers) {
      const message = Object.hasOwn(layer, key) ? layer[key] : undefined
      if (typeof message === "string") return message
    }
    return english[key]
  }
  const numbers = new Map<string, Intl.NumberFormat>()
  const formatter = (key: string, make: () => Intl.NumberFormat) => {
    let found = numbers.get(key)
    if (!found) numbers.set(key, (found = make()))
    return found
  }
  let relative: Intl.RelativeTimeFormat | undefined
  const dates = new Map<string, Intl.DateTimeFormat>()
  const number = (value: number) => formatter("", () => new Intl.NumberFormat(locale)).format(value)
  return {
    locale,
    dir: directionOf(locale),
    t: (key, params) => {
      const message = lookup(key)
      if (!params) return message
      return message.replace(PLACEHOLDER, (whole, name: string) => {
        if (!Object.hasOwn(params, name)) return whole
        const value = params[name]!
        return typeof value === "number" ? number(value) : value
      })
    },
    html: (key, params = {}) => {
      const message = lookup(key)
      let out = ""
      let last = 0
      for (const match of message.matchAll(PLACEHOLDER)) {
        const name = match[1]!
        if (!Object.hasOwn(params, name)) continue
        out += escapeHtml(message.slice(last, match.index)) + params[name]
        last = match.index + match[0].length
      }
      return out + escapeHtml(message.slice(last))
    },
    number,
    duration: (value, unit) => formatter(unit, () => new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" })).format(value),
    relativeTime: (value, unit) => (relative ??= new Intl.RelativeTimeFormat(locale, { numeric: "always" })).format(value, unit),
    dateTime: (value, timeZone = "UTC") => {
      let format = dates.get(timeZone)
      if (!format) dates.set(timeZone, (format = new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone, timeZoneName: "short" })))
      return format.format(value)
    },
  }
}
