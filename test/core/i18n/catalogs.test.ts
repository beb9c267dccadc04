/**
 * The shipped catalogs against the English one: no key English lacks, the same parameters in each
 * message, nothing empty; a translator falls back to English and never shows a key.
 */
import { describe, expect, it } from "vitest"
import { SHIPPED_LOCALES } from "../../../src/core/i18n/locale.js"
import { en, type Catalog, type MessageKey } from "../../../src/core/i18n/messages.js"
import { translatorOf } from "../../../src/core/i18n/load.js"
import { createTranslator, english } from "../../../src/core/i18n/translator.js"

const others = SHIPPED_LOCALES.filter((locale) => locale !== "en")
const catalogOf = async (locale: string): Promise<Catalog> => (await import(`../../../src/core/i18n/catalogs/${locale}.ts`)).messages
const parameters = (message: string) => [...message.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1]).sort()
const keys = Object.keys(en) as MessageKey[]

describe("the shipped catalogs", () => {
  for (const locale of others) {
    it(`${locale}: only English's keys, the same parameters, no empty message, and nearly every message translated`, async () => {
      const catalog = await catalogOf(locale)
      for (const [key, message] of Object.entries(catalog)) {
        expect(keys, `${locale}.${key}`).toContain(key)
        expect(message!.trim(), `${locale}.${key}`).not.toBe("")
        expect(parameters(message!), `${locale}.${key}`).toEqual(parameters(en[key as MessageKey]))
      }
      // Left out where English serves: "Logo" and the email placeholder in some languages.
      const missing = keys.filter((key) => !Object.hasOwn(catalog, key))
      expect(missing.length, `${locale} lacks ${missing.join(", ")}`).toBeLessThanOrEqual(2)
    })
  }

  it("each loads on first use, and its translator writes its own language", async () => {
    const signOut = await Promise.all(others.map(async (locale) => (await translatorOf(undefined, locale)).t("signOutQuestion")))
    expect(new Set(signOut).size).toBe(others.length)
    for (const text of signOut) expect(text).not.toBe(en.signOutQuestion)
    expect(await translatorOf(undefined, "en")).toBe(english)
  })
})

describe("a translator", () => {
  it("reads the app's messages, then the catalog, then English: a key is never shown", () => {
    const text = createTranslator("de", [{ signInWith: "Weiter mit {provider}" }, { signInWith: "Mit {provider} anmelden", signOutButton: "Abmelden" }])
    expect(text.t("signInWith", { provider: "GitHub" })).toBe("Weiter mit GitHub")
    expect(text.t("signOutButton")).toBe("Abmelden")
    expect(text.t("emailIgnore")).toBe(en.emailIgnore)
    for (const key of keys) expect(createTranslator("xx").t(key)).toBe(en[key])
  })

  it("formats numbers, durations and waits through Intl in its locale", () => {
    expect(english.duration(10, "minute")).toBe("10 minutes")
    expect(english.relativeTime(5, "minute")).toBe("in 5 minutes")
    expect(createTranslator("de").duration(1, "minute")).toBe("1 Minute")
    expect(createTranslator("de").number(1234.5)).toBe("1.234,5")
    expect(createTranslator("fr").relativeTime(5, "minute")).toBe("dans 5 minutes")
    expect(createTranslator("he").relativeTime(5, "minute")).toBe("בעוד 5 דקות")
    expect(createTranslator("en").dateTime(new Date("2026-11-27T10:05:00Z"))).toMatch(/^Nov 27, 2026, 10:05\sAM UTC$/u)
  })

  it("escapes the message in html() and inserts the parameters as given", () => {
    const text = createTranslator("en", [{ emailSignInTo: "<Sign in> to {host} & more" }])
    expect(text.html("emailSignInTo", { host: "<strong>app</strong>" })).toBe("&lt;Sign in&gt; to <strong>app</strong> &amp; more")
  })

  it("leaves a parameter it is not given as it is", () => {
    expect(english.t("returnTo")).toBe("Return to {host}")
    expect(english.t("returnTo", {})).toBe("Return to {host}")
  })
})
