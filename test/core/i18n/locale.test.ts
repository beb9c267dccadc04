/**
 * Choosing the locale: Accept-Language parsed with its weights, tags matched to the locales on
 * offer, and the order of the app's choice, the cookie and the header.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { SHIPPED_LOCALES, directionOf, matchLocale, negotiateLocale, parseAcceptLanguage } from "../../../src/core/i18n/locale.js"
import { localesOf, requestTranslator, resolveLocale } from "../../../src/core/i18n/load.js"

const shipped: string[] = [...SHIPPED_LOCALES]
const request = (headers: Record<string, string> = {}, cookies: Record<string, string> = {}, url = "https://app.test/auth/signin") => ({
  url: new URL(url),
  headers: new Headers(headers),
  cookies,
})

describe("parseAcceptLanguage", () => {
  it("orders ranges by weight, keeping the order sent for equal weights", () => {
    expect(parseAcceptLanguage("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).toEqual([
      { range: "fr-ch", q: 1 },
      { range: "fr", q: 0.9 },
      { range: "en", q: 0.8 },
      { range: "de", q: 0.7 },
      { range: "*", q: 0.5 },
    ])
    expect(parseAcceptLanguage("de;q=0.5, ja, es;q=0.5").map((r) => r.range)).toEqual(["ja", "de", "es"])
  })

  it("skips malformed entries and weights, and keeps q=0 (refusals)", () => {
    expect(parseAcceptLanguage("de;q=2, fr;q=abc, 123, en-US;q=0, ja ;  q = 0.3")).toEqual([
      { range: "ja", q: 0.3 },
      { range: "en-us", q: 0 },
    ])
    expect(parseAcceptLanguage("")).toEqual([])
    expect(parseAcceptLanguage(null)).toEqual([])
  })
})

describe("matchLocale", () => {
  it("finds the exact tag in any case, then the same language in the same script", () => {
    expect(matchLocale("PT-br", shipped)).toBe("pt-BR")
    expect(matchLocale("de-AT", shipped)).toBe("de")
    expect(matchLocale("de_CH", shipped)).toBe("de")
    expect(matchLocale("pt", shipped)).toBe("pt-BR")
    expect(matchLocale("pt-PT", shipped)).toBe("pt-BR")
    expect(matchLocale("zh", shipped)).toBe("zh-CN")
    expect(matchLocale("zh-Hans-SG", shipped)).toBe("zh-CN")
    expect(matchLocale("en-GB", shipped)).toBe("en")
    expect(matchLocale("he-IL", shipped)).toBe("he")
  })

  it("does not serve traditional Chinese with simplified, nor an unknown or malformed tag", () => {
    expect(matchLocale("zh-TW", shipped)).toBeUndefined()
    expect(matchLocale("zh-Hant", shipped)).toBeUndefined()
    expect(matchLocale("it", shipped)).toBeUndefined()
    expect(matchLocale("not a tag", shipped)).toBeUndefined()
    expect(matchLocale("", shipped)).toBeUndefined()
  })

  it("prefers the bare language to a regional one", () => {
    expect(matchLocale("pt-AO", ["en", "pt-BR", "pt"])).toBe("pt")
  })
})

describe("negotiateLocale", () => {
  it("picks the most wanted locale on offer", () => {
    expect(negotiateLocale("de-AT,de;q=0.9,en;q=0.5", shipped)).toBe("de")
    expect(negotiateLocale("it, ja;q=0.8, en;q=0.5", shipped)).toBe("ja")
    expect(negotiateLocale("ar-EG", shipped)).toBe("ar")
    expect(negotiateLocale("zh-TW, zh-CN;q=0.5", shipped)).toBe("zh-CN")
  })

  it("falls back to English, honours *, and never picks what q=0 refuses", () => {
    expect(negotiateLocale(undefined, shipped)).toBe("en")
    expect(negotiateLocale("it, nl", shipped)).toBe("en")
    expect(negotiateLocale("it, *;q=0.1", shipped)).toBe("en")
    expect(negotiateLocale("de;q=0, de-AT", shipped)).toBe("en")
    expect(negotiateLocale("en;q=0, *", ["en", "fr"])).toBe("fr")
  })

  it("property: never throws and always returns a locale on offer", () => {
    const tag = fc.oneof(
      fc.constantFrom("de", "de-AT", "pt", "pt-BR", "zh-TW", "zh-Hans", "ar", "he-IL", "*", "en-US", "x-klingon", "i-default"),
      fc.stringMatching(/^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8}){0,2}$/),
    )
    const entry = fc.tuple(tag, fc.option(fc.oneof(fc.double({ min: -1, max: 2, noNaN: true }).map(String), fc.string()), { nil: undefined }))
    const header = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.array(entry, { maxLength: 12 }).map((entries) => entries.map(([t, q]) => (q === undefined ? t : `${t};q=${q}`)).join(", ")),
    )
    const offered = fc.subarray(shipped, { minLength: 1 })
    fc.assert(
      fc.property(header, offered, (value, locales) => {
        const chosen = negotiateLocale(value, locales)
        expect(chosen === "en" || locales.includes(chosen)).toBe(true)
      }),
      { numRuns: 2000, seed: 25 },
    )
  })

  it("property: a shipped locale asked for first is chosen", () => {
    fc.assert(
      fc.property(fc.constantFrom(...shipped), fc.string({ maxLength: 80 }), (locale, rest) => {
        expect(negotiateLocale(`${locale}, ${rest}`, shipped)).toBe(locale)
      }),
      { numRuns: 500, seed: 25 },
    )
  })
})

describe("directionOf", () => {
  it("is rtl for Arabic and Hebrew, ltr for the others shipped", () => {
    expect(shipped.filter((locale) => directionOf(locale) === "rtl")).toEqual(["ar", "he"])
  })
})

describe("resolveLocale: the app's choice, then the cookie, then Accept-Language", () => {
  it("uses Accept-Language without an i18n option", async () => {
    expect(await resolveLocale(undefined, request({ "accept-language": "fr-CA,fr;q=0.8" }))).toBe("fr")
    expect(await resolveLocale(undefined, request())).toBe("en")
  })

  it("prefers the authflow.locale cookie to the header, and ignores one that names no locale on offer", async () => {
    expect(await resolveLocale(undefined, request({ "accept-language": "fr" }, { "authflow.locale": "ja" }))).toBe("ja")
    expect(await resolveLocale(undefined, request({ "accept-language": "fr" }, { "authflow.locale": "xx" }))).toBe("fr")
    expect(await resolveLocale({ cookie: "lang" }, request({}, { lang: "he", "authflow.locale": "ja" }))).toBe("he")
    expect(await resolveLocale({ cookie: false }, request({ "accept-language": "es" }, { "authflow.locale": "ja" }))).toBe("es")
  })

  it("prefers the app's locale function to both; undefined, an unknown tag or a throw moves on", async () => {
    const byPath = { locale: ({ url }: { url: URL }) => (url.searchParams.get("lang") ?? undefined) }
    expect(await resolveLocale(byPath, request({ "accept-language": "fr" }, { "authflow.locale": "ja" }, "https://app.test/auth/signin?lang=de-CH"))).toBe("de")
    expect(await resolveLocale(byPath, request({ "accept-language": "fr" }, { "authflow.locale": "ja" }))).toBe("ja")
    expect(await resolveLocale({ locale: async () => "tlh" }, request({ "accept-language": "fr" }))).toBe("fr")
    expect(await resolveLocale({ locale: () => { throw new Error("no") } }, request({ "accept-language": "ar" }))).toBe("ar")
  })

  it("offers the tags of messages and only the given locales", async () => {
    const italian = { messages: { it: { signInHeading: "Accedi" } } }
    expect(localesOf(italian)).toContain("it")
    expect(await resolveLocale(italian, request({ "accept-language": "it-IT" }))).toBe("it")
    const few = { locales: ["de"] }
    expect(localesOf(few)).toEqual(["en", "de"])
    expect(await resolveLocale(few, request({ "accept-language": "fr, de;q=0.5" }))).toBe("de")
    expect(await resolveLocale(few, request({ "accept-language": "fr" }))).toBe("en")
  })

  it("is chosen once per request object", async () => {
    let calls = 0
    const i18n = { locale: () => (calls++, "es") }
    const one = request()
    const [a, b] = await Promise.all([requestTranslator(i18n, one), requestTranslator(i18n, one)])
    expect(a).toBe(b)
    expect(a.locale).toBe("es")
    expect(calls).toBe(1)
  })
})
