/**
 * The built-in pages and emails in each shipped language, through the real `Auth()`: the locale
 * from Accept-Language, the cookie or the app's function; `<html lang>` and `dir`; the app's
 * messages over the shipped ones; English unchanged.
 */
import { describe, expect, it } from "vitest"
import { SHIPPED_LOCALES } from "../../src/core/i18n/locale.js"
import { en, type Catalog } from "../../src/core/i18n/messages.js"
import { createTranslator } from "../../src/core/i18n/translator.js"
import { renderSecondFactorPage } from "../../src/pages/second-factor.js"
import { renderBackupCodesPage, renderFactorsPage } from "../../src/pages/factors.js"
import { renderSignUpPage } from "../../src/pages/sign-up.js"
import { renderChangeEmailPage } from "../../src/pages/change-email.js"
import { renderSignInPage } from "../../src/pages/index.js"
import { translatorOf } from "../../src/core/i18n/load.js"
import { secondFactorCodeMessage, signInMessageOf } from "../../src/providers/email-message.js"
import type { EmailConfig, SendVerificationRequestParams } from "../../src/providers/email-config.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { AuthConfig } from "../../src/types.js"
import { CookieJar, ada, adaCredentials, csrfTokenFor, send } from "../helpers.js"
import { decode, textOf, titleOf } from "./html.js"

const catalogOf = async (locale: string): Promise<Catalog> => (locale === "en" ? en : (await import(`../../src/core/i18n/catalogs/${locale}.ts`)).messages)
const message = (catalog: Catalog, key: keyof typeof en) => catalog[key] ?? en[key]
const config = (i18n?: AuthConfig["i18n"]): AuthConfig => ({ secret: "i18n-test-secret", trustHost: true, providers: [adaCredentials()], rateLimit: false, ...(i18n && { i18n }) })

async function page(cfg: AuthConfig, path: string, headers: Record<string, string> = {}, cookie?: string): Promise<string> {
  const response = await send(cfg, new CookieJar(), path, { headers, ...(cookie && { cookie }) })
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
  return decode(await response.text())
}

const htmlTag = (html: string) => /^<!DOCTYPE html>(<html[^>]*>)/.exec(html)?.[1]

describe("each shipped locale, chosen by Accept-Language", () => {
  for (const locale of SHIPPED_LOCALES) {
    it(`${locale}: sign-in, sign-out, error and verify-request pages in ${locale}, with lang${["ar", "he"].includes(locale) ? ' and dir="rtl"' : ""}`, async () => {
      const catalog = await catalogOf(locale)
      const headers = { "accept-language": `${locale};q=0.9, it;q=0.5` }
      const expectedTag = ["ar", "he"].includes(locale) ? `<html lang="${locale}" dir="rtl">` : `<html lang="${locale}">`
      const signIn = await page(config(), "/signin?error=CredentialsSignin", headers)
      expect(htmlTag(signIn)).toBe(expectedTag)
      expect(titleOf(signIn)).toBe(message(catalog, "signInTitle"))
      expect(signIn).toContain(message(catalog, "signInWith").replace("{provider}", "Credentials"))
      expect(signIn).toContain(message(catalog, "signInErrorCredentialsSignin"))
      const signOut = await page(config(), "/signout", headers)
      expect(htmlTag(signOut)).toBe(expectedTag)
      expect(textOf(signOut)).toContain(message(catalog, "signOutQuestion").replace(/\s+/g, " "))
      const error = await page(config(), "/error?error=AccessDenied", headers)
      expect(htmlTag(error)).toBe(expectedTag)
      expect(error).toContain(message(catalog, "errorAccessDeniedHeading"))
      const verify = await page(config(), "/verify-request", headers)
      expect(verify).toContain(message(catalog, "verifyRequestSent"))
      if (locale !== "en") for (const html of [signIn, signOut, error, verify]) expect(html).not.toContain(en.signInButton + "<")
    })
  }

  it("writes real German, Japanese, Arabic and Hebrew (not a copy of English)", async () => {
    expect(textOf(await page(config(), "/signout", { "accept-language": "de-AT" }))).toContain("Möchten Sie sich wirklich abmelden?")
    expect(await page(config(), "/signin", { "accept-language": "ja-JP" })).toContain("Credentials でサインイン")
    expect(await page(config(), "/error?error=Verification", { "accept-language": "ar-EG" })).toContain("رابط تسجيل الدخول لم يعد صالحًا.")
    expect(await page(config(), "/error", { "accept-language": "he" })).toContain("משהו השתבש.")
    expect(await page(config(), "/signin", { "accept-language": "pt" })).toContain('<html lang="pt-BR">')
  })

  it("keeps English, byte for byte, when nothing asks for another language", async () => {
    const withoutToken = (html: string) => html.replace(/name="csrfToken" value="[^"]*"/, "")
    const html = await page(config(), "/signout")
    expect(html.startsWith('<!DOCTYPE html><html lang="en"><head>')).toBe(true)
    expect(textOf(html)).toContain("Are you sure you want to sign out?")
    expect(withoutToken(await page(config(), "/signout", { "accept-language": "it, nl;q=0.5" }))).toBe(withoutToken(html))
  })
})

describe("the cookie, the app's choice and the app's messages", () => {
  it("the authflow.locale cookie wins over Accept-Language; the app's function wins over both", async () => {
    expect(htmlTag(await page(config(), "/signin", { "accept-language": "fr" }, "authflow.locale=he"))).toBe('<html lang="he" dir="rtl">')
    const byQuery = config({ locale: ({ url }) => url.searchParams.get("hl") ?? undefined })
    expect(htmlTag(await page(byQuery, "/signin?hl=es-MX", { "accept-language": "fr" }, "authflow.locale=he"))).toBe('<html lang="es">')
  })

  it("an app override wins over the shipped text, in its locale only; a new tag adds a locale", async () => {
    const cfg = config({ messages: { de: { signInWith: "Weiter mit {provider}" }, it: { signInHeading: "Accedi" } } })
    const german = await page(cfg, "/signin", { "accept-language": "de" })
    expect(german).toContain("Weiter mit Credentials")
    expect(german).not.toContain("Mit Credentials anmelden")
    expect(german).toContain(">Anmelden</h1>")
    expect(await page(cfg, "/signin", { "accept-language": "fr" })).toContain("Se connecter avec Credentials")
    const italian = await page(cfg, "/signin", { "accept-language": "it-IT" })
    expect(htmlTag(italian)).toBe('<html lang="it">')
    expect(italian).toContain(">Accedi</h1>")
    expect(italian).toContain("Sign in with Credentials")
  })

  it("the configuration error page speaks the request's language too", async () => {
    const broken: AuthConfig = { trustHost: true, providers: [adaCredentials()] }
    const response = await send(broken, new CookieJar(), "/signin", { headers: { "accept-language": "fr" } })
    expect(response.status).toBe(500)
    const html = await response.text()
    expect(html).toContain('<html lang="fr">')
    expect(html).toContain("Erreur du serveur")
  })
})

describe("rate-limit, second-factor and sign-up text", () => {
  it("a rate-limited sign-in states the wait through Intl when the URL carries it, else the generic message", async () => {
    expect(await page(config(), "/signin?error=RateLimited&retryAfter=240", { "accept-language": "de" })).toContain("Zu viele Versuche. Versuchen Sie es in 4 Minuten erneut.")
    expect(await page(config(), "/signin?error=RateLimited&retryAfter=61")).toContain("Too many attempts. Try again in 2 minutes.")
    expect(await page(config(), "/signin?error=RateLimited&retryAfter=junk")).toContain("Too many attempts. Wait a few minutes, then try again.")
  })

  it("the /factors page and its notice, through Auth(), in the request's language", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ ...ada, emailVerified: null })
    const cfg: AuthConfig = { secret: "factors-i18n-secret-at-least-32-characters", trustHost: true, adapter, providers: [adaCredentials()], secondFactor: { issuer: "Example" }, rateLimit: false }
    const jar = new CookieJar()
    const csrfToken = await csrfTokenFor(cfg, jar)
    await send(cfg, jar, "/callback/credentials", { form: { csrfToken, username: "ada", password: "lovelace", callbackUrl: "https://app.test/" } })
    const html = await (await send(cfg, jar, "/factors?notice=saved", { headers: { "accept-language": "ja,en;q=0.5" } })).text()
    expect(html).toContain('<html lang="ja">')
    expect(html).toContain('<p class="lead" role="status">保存しました。</p>')
    expect(html).toContain("<p>認証アプリはまだありません。</p>")
    expect(html).toContain("残りのバックアップコード: 0")
  })

  it("the change-email page, its notice and its refusals, in the shipped German", async () => {
    const de = await translatorOf(undefined, "de")
    const page = (props: { notice?: string; error?: string }) => textOf(renderChangeEmailPage({ action: "/auth/change-email/password", email: "ada@example.test", theme: {}, text: de, ...props }).html)
    expect(page({})).toContain("Ihre Adresse ist ada@example.test.")
    expect(page({})).toContain("Aktuelles Passwort")
    expect(page({ notice: "change-requested" })).toContain("Sehen Sie im Posteingang der neuen Adresse nach")
    expect(page({ error: "SameEmail" })).toContain("Das ist bereits Ihre E-Mail-Adresse.")
    expect(page({ error: "Unheard-of" })).toContain("Die Änderung konnte nicht vorgenommen werden.")
  })

  it("the second-factor, factors, backup-code and sign-up pages take the translator", () => {
    const ar = createTranslator("ar", [{ secondFactorTitle: "التحقق بخطوتين", rememberDevice: "لا تسألني مجددًا على هذا الجهاز لمدة {duration}" }])
    const second = renderSecondFactorPage({ action: "/auth/second-factor", methods: ["totp", "email"], refusal: "wrong-code", trustedDeviceDays: 30, theme: {}, text: ar }).html
    expect(second).toContain('<html lang="ar" dir="rtl">')
    expect(second).toContain("<h1>التحقق بخطوتين</h1>")
    expect(second).toContain("لا تسألني مجددًا على هذا الجهاز لمدة 30 يومًا")
    const ja = createTranslator("ja", [{ backupCodesLeft: "残りのバックアップコード: {count}" }])
    expect(renderFactorsPage({ action: "/auth/factors", factors: [], backupCodes: 1234, theme: {}, text: ja }).html).toContain("残りのバックアップコード: 1,234")
    expect(renderBackupCodesPage({ codes: ["abcde"], continueUrl: "/", theme: {}, text: createTranslator("es", [{ doneButton: "Listo" }]) }).html).toContain(">Listo</a>")
    expect(renderSignUpPage({ action: "/a", callbackUrl: "/", minLength: 12, signInUrl: "/s", theme: {}, text: createTranslator("fr", [{ passwordMinLength: "Au moins {count} caractères." }]) }).html).toContain("Au moins 12 caractères.")
  })
})

describe("the passkey form", () => {
  it("labels its button and carries its failure message in the page's language (the script reads it from the alert)", async () => {
    const he = await translatorOf(undefined, "he")
    const passkey = { id: "passkey", name: "Passkey", type: "webauthn" as const, signinUrl: "https://app.test/auth/signin/passkey", callbackUrl: "https://app.test/auth/callback/passkey" }
    const html = renderSignInPage({ providers: [passkey], theme: {}, text: he }).html
    expect(html).toContain('data-webauthn-failed="ההתחברות עם מפתח הגישה לא הושלמה. נסו שוב."')
    expect(html).toContain("התחברות באמצעות Passkey")
    expect(html).toContain("status.dataset.webauthnFailed")
    expect(renderSignInPage({ providers: [passkey], theme: {} }).html).toContain('data-webauthn-failed="Passkey sign-in did not complete. Try again."')
  })
})

describe("emails", () => {
  it("the sign-in email is written in the language of the request that asked for it", async () => {
    const mails: SendVerificationRequestParams[] = []
    const provider: EmailConfig = { id: "email", type: "email", name: "Email", sendVerificationRequest: (params) => void mails.push(params) }
    const cfg: AuthConfig = { secret: "i18n-test-secret", trustHost: true, adapter: MemoryAdapter(), providers: [provider], rateLimit: false }
    const jar = new CookieJar()
    const csrfToken = await csrfTokenFor(cfg, jar)
    await send(cfg, jar, "/signin/email", { form: { csrfToken, email: "ada@example.test" }, headers: { "accept-language": "he-IL" } })
    expect(mails[0]!.locale).toBe("he")
    const mail = signInMessageOf(mails[0]!)
    expect(mail.subject).toBe("התחברות אל app.test")
    expect(mail.html).toContain('<html lang="he" dir="rtl">')
    expect(mail.html).toContain("התחברות אל <strong>app.&#8203;test</strong>")
    expect(mail.text.startsWith("התחברות אל app.test\n")).toBe(true)
  })

  it("the second-factor code email states the minutes left in the locale", () => {
    const expires = new Date("2026-11-27T10:10:00Z")
    const now = new Date("2026-11-27T10:00:00Z")
    const mail = secondFactorCodeMessage({ code: "123456", expires, now, url: "https://app.test/auth", translator: createTranslator("ja", [{ emailSecondFactorCode: "確認コード（{duration}間有効）:" }]) })
    expect(mail.text).toContain("確認コード（10 分間有効）: 123456")
    const english = secondFactorCodeMessage({ code: "123456", expires, now, url: "https://app.test/auth" })
    expect(english.subject).toBe("Your verification code for app.test")
    expect(english.text).toBe("Your verification code, valid 10 minutes: 123456\n\nIf you did not request this email you can safely ignore it.\n")
  })
})
