/**
 * Choosing a language: the `Accept-Language` header parsed with its weights, and a requested tag
 * matched against the locales on offer (exact tag, then the same language in the same script:
 * `de-AT` finds `de`, `pt` and `pt-PT` find `pt-BR`, `zh-TW` does not find `zh-CN`).
 *
 * @example
 * ```ts
 * import { negotiateLocale } from "./locale.js"
 * negotiateLocale("de-AT,de;q=0.9,en;q=0.5", ["en", "de", "fr"]) // "de"
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-12.5.4
 * @module
 */

/**
 * The locales authflow ships messages for. English is complete; the others fall back to English
 * for a message they lack.
 */
export const SHIPPED_LOCALES = ["en", "de", "fr", "es", "pt-BR", "ja", "zh-CN", "ar", "he"] as const

/** A locale authflow ships messages for. */
export type ShippedLocale = (typeof SHIPPED_LOCALES)[number]

/** The locale used when nothing else matches: English. */
export const DEFAULT_LOCALE = "en"

// Languages written right to left (the primary subtag).
const RTL_LANGUAGES = new Set(["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ku", "ps", "sd", "syr", "ug", "ur", "yi"])

/**
 * The writing direction of a locale: `"rtl"` for Arabic, Hebrew, Persian, Urdu and the other
 * right-to-left languages, `"ltr"` otherwise.
 *
 * @example
 * ```ts
 * directionOf("ar") // "rtl"
 * directionOf("pt-BR") // "ltr"
 * ```
 */
export function directionOf(locale: string): "ltr" | "rtl" {
  const language = locale.split(/[-_]/)[0]!.toLowerCase()
  return RTL_LANGUAGES.has(language) ? "rtl" : "ltr"
}

/** One entry of `Accept-Language`: a language range and its weight. */
export interface LanguageRange {
  /** The range as sent (`de-AT`, `*`), lower-cased. */
  range: string
  /** The weight, 0 to 1; 0 means "not acceptable". */
  q: number
}

// Bounds on what a client can make the server do: a longer header is cut, extra entries ignored.
const MAX_HEADER = 4096
const MAX_RANGES = 32
const RANGE = /^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/i
const WEIGHT = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i

/**
 * Parses `Accept-Language` into its ranges, highest weight first (equal weights keep the order
 * sent). Malformed entries and weights are skipped; it never throws.
 *
 * @example
 * ```ts
 * parseAcceptLanguage("fr-CH, fr;q=0.9, *;q=0.5")
 * // [{ range: "fr-ch", q: 1 }, { range: "fr", q: 0.9 }, { range: "*", q: 0.5 }]
 * ```
 */
export function parseAcceptLanguage(header: string | null | undefined): LanguageRange[] {
  if (typeof header !== "string" || header === "") return []
  const ranges: LanguageRange[] = []
  for (const entry of header.slice(0, MAX_HEADER).split(",")) {
    if (ranges.length >= MAX_RANGES) break
    const [tag = "", ...parameters] = entry.split(";").map((part) => part.trim())
    if (!RANGE.test(tag)) continue
    let q = 1
    let valid = true
    for (const parameter of parameters) {
      const weight = WEIGHT.exec(parameter.replace(/\s+/g, ""))
      if (weight) q = Number(weight[1])
      else if (/^q\s*=/i.test(parameter)) valid = false
    }
    if (valid) ranges.push({ range: tag.toLowerCase(), q })
  }
  // Array.prototype.sort is stable: equal weights keep the order the client sent.
  return ranges.sort((a, b) => b.q - a.q)
}

function canonical(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0]
  } catch {
    return undefined
  }
}

function scriptOf(tag: string): string | undefined {
  try {
    return new Intl.Locale(tag).maximize().script
  } catch {
    return undefined
  }
}

/**
 * The locale of `supported` that serves a requested tag: the same tag (any case), else the same
 * language in the same script, the bare language first (`de-AT` → `de`, `pt` → `pt-BR`,
 * `zh-Hans-SG` → `zh-CN`, but `zh-TW`, written in traditional characters, matches no `zh-CN`).
 * `undefined` when none does or the tag is malformed.
 *
 * @example
 * ```ts
 * matchLocale("de-AT", ["en", "de"]) // "de"
 * matchLocale("pt", ["en", "pt-BR"]) // "pt-BR"
 * matchLocale("zh-TW", ["en", "zh-CN"]) // undefined
 * ```
 */
export function matchLocale(requested: string, supported: readonly string[]): string | undefined {
  if (typeof requested !== "string" || requested.length > 64) return undefined
  const tag = canonical(requested.trim().replace(/_/g, "-"))
  if (!tag) return undefined
  const lower = tag.toLowerCase()
  const exact = supported.find((locale) => locale.toLowerCase() === lower)
  if (exact) return exact
  const language = lower.split("-")[0]!
  const sameLanguage = supported.filter((locale) => locale.toLowerCase().split("-")[0] === language)
  if (sameLanguage.length === 0) return undefined
  const script = scriptOf(tag)
  const sameScript = sameLanguage.filter((locale) => scriptOf(locale) === script)
  return sameScript.find((locale) => !locale.includes("-")) ?? sameScript[0]
}

/**
 * The best locale of `supported` for an `Accept-Language` header: the ranges in order of weight,
 * each matched with {@link matchLocale}; `*` accepts `fallback`; what a range with `q=0` covers
 * (`de;q=0` covers `de` and `de-AT`) is never chosen. `fallback` (English) when nothing matches. Never throws, and always returns one of
 * `supported` or `fallback`.
 *
 * @example
 * ```ts
 * negotiateLocale("ja,en;q=0.8", ["en", "ja"]) // "ja"
 * negotiateLocale("de;q=0, *", ["en", "de"]) // "en"
 * negotiateLocale(null, ["en", "de"]) // "en"
 * ```
 */
export function negotiateLocale(header: string | null | undefined, supported: readonly string[], fallback: string = DEFAULT_LOCALE): string {
  const ranges = parseAcceptLanguage(header)
  // A range with q=0 refuses what it covers by basic filtering (RFC 4647 §3.3.1): "de" covers "de" and "de-AT".
  const refused = new Set<string>()
  for (const { range, q } of ranges) {
    if (q !== 0 || range === "*") continue
    for (const locale of [...supported, fallback]) {
      const lower = locale.toLowerCase()
      if (lower === range || lower.startsWith(`${range}-`)) refused.add(locale)
    }
  }
  for (const { range, q } of ranges) {
    if (q === 0) continue
    if (range === "*") {
      if (!refused.has(fallback)) return fallback
      const other = supported.find((locale) => !refused.has(locale))
      if (other) return other
      continue
    }
    const match = matchLocale(range, supported)
    if (match && !refused.has(match)) return match
  }
  return fallback
}
