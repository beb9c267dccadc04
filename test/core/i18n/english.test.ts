/**
 * English by area: every key in exactly one area, the areas together the complete catalog; a
 * translator of some areas loads their English when first asked for and writes their keys (the type
 * refuses the others), with the app's messages and the locale's catalog over them as before.
 */
import { describe, expect, it } from "vitest"
import { MESSAGE_AREAS, english, englishOf, englishWith } from "../../../src/core/i18n/english.js"
import { messages as core } from "../../../src/core/i18n/english/core.js"
import { messages as emails } from "../../../src/core/i18n/english/emails.js"
import { messages as password } from "../../../src/core/i18n/english/password.js"
import { messages as secondFactor } from "../../../src/core/i18n/english/second-factor.js"
import { requestTranslator, translatorOf } from "../../../src/core/i18n/load.js"
import { en, type CoreKey, type KeysOf } from "../../../src/core/i18n/messages.js"
import type { Translator } from "../../../src/core/i18n/translate.js"
import { english as everyMessage } from "../../../src/core/i18n/translator.js"

const request = (headers: Record<string, string> = {}) => ({ url: new URL("https://app.test/auth/signin"), headers: new Headers(headers), cookies: {} })

describe("the English areas", () => {
  it("hold each key once, and together every key of the catalog", () => {
    const areas = [core, password, secondFactor, emails].map((area) => Object.keys(area))
    const keys = areas.flat()
    expect(new Set(keys).size).toBe(keys.length)
    expect(new Set(keys)).toEqual(new Set(Object.keys(en)))
    expect(MESSAGE_AREAS).toEqual(["password", "secondFactor", "emails"])
  })

  it("loads an area's English when asked for, over the core", async () => {
    const text = await englishOf(["emails"])
    expect(text.emailIgnore).toBe(en.emailIgnore)
    expect(text.signInButton).toBe(en.signInButton)
    expect(Object.hasOwn(text, "signUpTitle")).toBe(false)
    expect(englishWith(password).t("signUpTitle")).toBe("Create an account")
  })
})

describe("a translator of some areas", () => {
  it("is the core English for a request that asks for none, the English of every message for every area", async () => {
    expect(await requestTranslator(undefined, request())).toBe(english)
    expect(await translatorOf(undefined, "en", [...MESSAGE_AREAS].reverse())).toBe(everyMessage)
    const signUp = await requestTranslator(undefined, request(), ["password"])
    expect(signUp.t("signUpTitle")).toBe("Create an account")
    expect(await requestTranslator(undefined, request(), ["password", "password"])).toBe(signUp)
  })

  it("reads the app's messages, then the locale's catalog, then the areas' English", async () => {
    const i18n = { messages: { de: { signUpTitle: "Neues Konto" }, it: { signUpTitle: "Crea un account" } } }
    const german = await requestTranslator(i18n, request({ "accept-language": "de" }), ["password"])
    expect(german.t("signUpTitle")).toBe("Neues Konto")
    expect(german.t("passwordLabel")).toBe("Passwort")
    const italian = await requestTranslator(i18n, request({ "accept-language": "it" }), ["secondFactor"])
    expect(italian.t("secondFactorTitle")).toBe(en.secondFactorTitle)
    expect(italian.t("signOutButton")).toBe(en.signOutButton)
  })

  it("writes only the keys of its areas, by type", async () => {
    const signIn: Translator<CoreKey> = await requestTranslator(undefined, request())
    // @ts-expect-error The Password pages' English is not loaded for a core translator.
    const signUp: Translator<KeysOf<"password">> = signIn
    const full: Translator = everyMessage
    const narrowed: Translator<KeysOf<"emails">> = full
    // A translator written by hand is held to its keys too (no method bivariance).
    const handWritten = { ...signIn, t: (key: CoreKey) => signIn.t(key), html: (key: CoreKey) => signIn.html(key) }
    // @ts-expect-error A hand-written translator of the core keys cannot stand in for the Password pages'.
    const handWrittenSignUp: Translator<KeysOf<"password">> = handWritten
    const handWrittenCore: Translator<CoreKey> = handWritten
    expect([signUp, narrowed, handWrittenSignUp, handWrittenCore]).toHaveLength(4)
    // @ts-expect-error A core translator has no second-factor key.
    expect(signIn.t("secondFactorTitle")).toBeUndefined()
    // The areas are what the call names, never inferred from where the translator goes: a page given too few does not compile.
    // @ts-expect-error No area named, so no Password English.
    const guessed: Translator<KeysOf<"password">> = await requestTranslator(undefined, request())
    expect(guessed.t("signUpTitle" as CoreKey)).toBeUndefined()
  })
})
