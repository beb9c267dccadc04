/**
 * Each built-in page ships the rules it draws with, and the sign-in, sign-out, error and
 * verify-request pages ship none of the second-factor pages' own (`factor-styles.ts`). For every
 * page: each class it uses has a rule in the stylesheet the page inlines (or is a hook with no rule,
 * named below), and each rule of the full stylesheet (shared and second-factor) whose classes and
 * elements the page all uses (so it may match there) is in the page's own stylesheet. A rule moved
 * out of a page's stylesheet while the page still uses it fails here, naming page and selector.
 */
import { describe, expect, it } from "vitest"
import { renderChangeEmailPage } from "../../src/pages/change-email.js"
import { renderEmailCodePage } from "../../src/pages/email-code.js"
import { factorStyles } from "../../src/pages/factor-styles.js"
import { renderBackupCodesPage, renderEnrolPage, renderFactorsPage } from "../../src/pages/factors.js"
import { renderErrorPage, renderSignInPage, renderSignOutPage, renderVerifyRequestPage, type PageProvider, type RenderedPage } from "../../src/pages/index.js"
import { renderPasswordPage } from "../../src/pages/password.js"
import { renderSecondFactorPage } from "../../src/pages/second-factor.js"
import { renderSignUpPage } from "../../src/pages/sign-up.js"
import { baseStyles } from "../../src/pages/styles.js"
import { english } from "../../src/core/i18n/translator.js"
import { translatorOf } from "../../src/core/i18n/load.js"
import { BASE, CSRF, ORIGIN, allProviders } from "./fixtures.js"
import { styleOf } from "./html.js"

// Classes that name a part for tests and apps to find, with no rule of their own.
const HOOKS = new Set(["email-code", "second-factor", "second-factor-email", "factors", "rename", "remove", "backup-codes"])

const passkey: PageProvider = {
  id: "passkey",
  name: "Passkey",
  type: "webauthn",
  signinUrl: `${BASE}/signin/passkey`,
  callbackUrl: `${BASE}/callback/passkey`,
  formFields: { email: { label: "Email", required: true, autocomplete: "username webauthn" } },
}
const theme = { colorScheme: "auto" as const, logo: "https://app.example/logo.png", brandColor: "#336699" }
const arabic = await translatorOf(undefined, "ar")

/** The selectors of every rule in `css` (inside `@media` too, one per comma), and the classes and elements each names. */
function selected(css: string): { selectors: string[]; classes: Set<string>; names: Map<string, string[]> } {
  const selectors = [...css.matchAll(/([^{}]+)\{[^{}]*\}/g)].flatMap(([, list]) => list!.split(",").map((selector) => selector.trim()))
  const names = new Map(selectors.map((selector) => [selector, namesIn(selector)]))
  return { selectors, classes: new Set([...names.values()].flat().filter((name) => name.startsWith(".")).map((name) => name.slice(1))), names }
}

/** The classes (`.name`) and elements a selector names; a page can match it only if it uses them all. */
function namesIn(selector: string): string[] {
  const classes = [...selector.matchAll(/\.([_a-zA-Z][\w-]*)/g)].map(([, name]) => `.${name}`)
  const bare = selector.replace(/\[[^\]]*\]/g, " ").replace(/::?[\w-]+(\([^)]*\))?/g, " ").replace(/\.[\w-]+/g, " ")
  return [...classes, ...[...bare.matchAll(/(?:^|[\s>+~])([a-z][a-z0-9]*)(?![\w-])/g)].map(([, name]) => name!)]
}

/** The classes and elements of a page's markup (its scripts and stylesheet left out). */
function used(html: string): { classes: Set<string>; elements: Set<string> } {
  const markup = html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<style[\s\S]*?<\/style>/g, "")
  const classes = new Set([...markup.matchAll(/\sclass="([^"]*)"/g)].flatMap(([, names]) => names!.split(/\s+/).filter(Boolean)))
  const elements = new Set([...markup.matchAll(/<([a-z][a-z0-9]*)/g)].map(([, name]) => name!))
  return { classes, elements }
}

const signInPages: Record<string, RenderedPage> = {
  "sign-in, every kind of provider": renderSignInPage({ providers: [...allProviders, passkey], csrfToken: CSRF, callbackUrl: `${ORIGIN}/dashboard`, theme, addAccountUrl: `${BASE}/signin?addAccount=1` }),
  "sign-in after a refused sign-in": renderSignInPage({ providers: allProviders, csrfToken: CSRF, error: "CredentialsSignin", theme }),
  "sign-in with a notice, in Arabic": renderSignInPage({ providers: allProviders, csrfToken: CSRF, notice: "reset-sent", theme, text: arabic }),
  "sign-out": renderSignOutPage({ url: `${BASE}/signout`, csrfToken: CSRF, theme }),
  ...Object.fromEntries(["Configuration", "AccessDenied", "Verification", undefined].map((error) => [`error ${error ?? "(none)"}`, renderErrorPage({ error, url: `${BASE}/error`, signinUrl: `${BASE}/signin`, host: ORIGIN, theme })])),
  "verify-request": renderVerifyRequestPage({ url: ORIGIN, theme }),
  "verify-request in Arabic": renderVerifyRequestPage({ url: ORIGIN, theme, text: arabic }),
}

const otherPages: Record<string, RenderedPage> = {
  "email code, waiting, wrong code": renderEmailCodePage({ url: ORIGIN, action: `${BASE}/callback/nodemailer`, csrfToken: CSRF, waiting: true, wrongCode: true, triesLeft: 2, theme }),
  "email code, another browser": renderEmailCodePage({ url: ORIGIN, action: `${BASE}/callback/nodemailer`, waiting: false, theme }),
  "sign-up": renderSignUpPage({ action: `${BASE}/signup/password`, csrfToken: CSRF, callbackUrl: ORIGIN, minLength: 8, signInUrl: `${BASE}/signin`, theme }),
  ...Object.fromEntries(
    (["forgot", "reset", "reset-code", "change"] as const).map((form) => [
      `password: ${form}`,
      renderPasswordPage({ form, action: `${BASE}/${form}-password/password`, csrfToken: CSRF, token: "t", minLength: 8, maxLength: 128, signInUrl: `${BASE}/signin`, error: "Verification", reason: "wrong-code", triesLeft: 2, theme }),
    ]),
  ),
  "password changed": renderPasswordPage({ form: "change", action: `${BASE}/change-password/password`, minLength: 8, maxLength: 128, signInUrl: `${BASE}/signin`, notice: "password-changed", theme }),
  "change email": renderChangeEmailPage({ action: `${BASE}/change-email/password`, csrfToken: CSRF, email: "ada@example.test", error: "Verification", theme }),
  "second factor, every method": renderSecondFactorPage({ action: `${BASE}/second-factor`, csrfToken: CSRF, methods: ["totp", "backup", "email"], refusal: "wrong-code", emailSent: true, trustedDeviceDays: 30, theme }),
  "second factor in Arabic": renderSecondFactorPage({ action: `${BASE}/second-factor`, methods: ["email", "totp"], theme, text: arabic }),
  factors: renderFactorsPage({ action: `${BASE}/factors`, csrfToken: CSRF, factors: [{ id: "f1", name: "Phone", createdAt: "2026-01-01T00:00:00.000Z" }], backupCodes: 8, notice: "Saved", theme }),
  "enrol, code refused, in Arabic": renderEnrolPage({ action: `${BASE}/factors`, csrfToken: CSRF, qrSvg: '<svg viewBox="0 0 1 1"><path d="M0 0h1v1H0z"/></svg>', secret: "JBSWY3DPEHPK3PXP", codeRefused: true, theme, text: arabic }),
  "backup codes": renderBackupCodesPage({ codes: ["aaaa-bbbb", "cccc-dddd"], continueUrl: `${BASE}/factors`, theme, text: english }),
}

const sheet = selected(baseStyles + factorStyles)

describe("the stylesheet each page ships", () => {
  for (const [name, page] of Object.entries({ ...signInPages, ...otherPages })) {
    it(`${name}: every class it uses has a rule, and every rule it needs is in its stylesheet`, () => {
      const own = selected(styleOf(page.html))
      const { classes, elements } = used(page.html)
      const uses = (name: string) => (name.startsWith(".") ? classes.has(name.slice(1)) : elements.has(name))
      expect(classes.size).toBeGreaterThan(3)
      expect([...classes].filter((name) => !own.classes.has(name) && !HOOKS.has(name)), "classes without a rule").toEqual([])
      const couldApply = sheet.selectors.filter((selector) => sheet.names.get(selector)!.every(uses))
      expect(couldApply.filter((selector) => !own.names.has(selector)), "rules the page could match, left out of its stylesheet").toEqual([])
    })
  }

  it("names as hooks only classes that have no rule and that some page uses", () => {
    const everyClass = new Set(Object.values({ ...signInPages, ...otherPages }).flatMap((page) => [...used(page.html).classes]))
    for (const hook of HOOKS) {
      expect(sheet.classes.has(hook), hook).toBe(false)
      expect(everyClass.has(hook), hook).toBe(true)
    }
  })

  it("leaves the second-factor pages' rules out of the sign-in, sign-out, error and verify-request pages, and ships them with the second-factor pages", () => {
    const factorSelectors = selected(factorStyles).selectors
    expect(factorSelectors.length).toBeGreaterThan(5)
    for (const [name, page] of Object.entries(signInPages)) {
      expect(styleOf(page.html), name).toContain(baseStyles)
      expect(selected(styleOf(page.html)).selectors.filter((selector) => factorSelectors.includes(selector)), name).toEqual([])
    }
    for (const name of ["second factor, every method", "factors", "enrol, code refused, in Arabic", "backup codes"]) expect(styleOf(otherPages[name]!.html), name).toContain(baseStyles + factorStyles)
  })
})
