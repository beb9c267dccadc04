/**
 * The pages of the Password provider's address flows: the sign-in page's notices (an address to
 * verify, verified, changed), which give way to an error, and the change-email form with its
 * notice and refusals.
 */
import { describe, expect, it } from "vitest"
import { renderSignInPage } from "../../src/pages/signin.js"
import { renderChangeEmailPage, CHANGE_EMAIL_ERRORS } from "../../src/pages/change-email.js"
import { en } from "../../src/core/i18n/messages.js"
import { SIGNIN_NOTICES } from "../../src/pages/signin-errors.js"
import { renderPasswordPage } from "../../src/pages/password.js"
import { CSRF, credentials } from "./fixtures.js"
import { formsOf, titleOf } from "./html.js"

describe("the sign-in page's notices", () => {
  for (const [notice, message] of Object.entries(SIGNIN_NOTICES)) {
    it(`shows ${notice} as a status, not an alert`, () => {
      const { html } = renderSignInPage({ providers: [credentials], csrfToken: CSRF, notice, theme: {} })
      expect(html).toContain(`<p class="lead" role="status">${message.replace(/'/g, "&#39;")}</p>`)
      expect(html).not.toContain('role="alert"')
    })
  }

  it("shows nothing for an unknown notice, and the error instead of a notice", () => {
    const unknown = renderSignInPage({ providers: [credentials], csrfToken: CSRF, notice: "<script>", theme: {} }).html
    expect(unknown).not.toContain('role="status"')
    expect(unknown).not.toContain("&lt;script&gt;")
    const both = renderSignInPage({ providers: [credentials], csrfToken: CSRF, notice: "email-verified", error: "PasswordLinkExpired", theme: {} }).html
    expect(both).toContain("That link has expired. Ask for a new one.")
    expect(both).not.toContain(SIGNIN_NOTICES["email-verified"])
  })
})

describe("the change-email page", () => {
  const action = "https://app.test/auth/change-email/password"

  it("posts the new address and the current password with the CSRF token", () => {
    const page = renderChangeEmailPage({ action, csrfToken: CSRF, email: "ada@example.test", theme: {} })
    expect(page.status).toBe(200)
    expect(titleOf(page.html)).toBe("Change your email address")
    expect(page.html).toContain("Your address is ada@example.test.")
    const [form, ...others] = formsOf(page.html)
    expect(others).toEqual([])
    expect(form!.attributes).toMatchObject({ action, method: "post" })
    expect(form!.inputs.map((input) => [input.name, input.type, input.autocomplete ?? input.value])).toEqual([
      ["csrfToken", "hidden", CSRF],
      ["newEmail", "email", "email"],
      ["password", "password", "current-password"],
    ])
    // Every field has its label.
    expect(form!.labels.map((label) => label.text)).toEqual(["New email address", "Current password"])
  })

  it("says the link was sent, or why the request was refused", () => {
    expect(renderChangeEmailPage({ action, email: "ada@example.test", notice: "change-requested", theme: {} }).html).toContain('role="status"')
    for (const [error, message] of Object.entries(CHANGE_EMAIL_ERRORS)) {
      expect(renderChangeEmailPage({ action, email: "ada@example.test", error, theme: {} }).html).toContain(en[message])
    }
    expect(renderChangeEmailPage({ action, email: "ada@example.test", error: "Other", theme: {} }).html).toContain("The change could not be made.")
  })
})

describe("the password pages", () => {
  const base = { csrfToken: CSRF, minLength: 8, maxLength: 128, signInUrl: "https://app.test/auth/signin", theme: {} }

  it("the forgot form posts an email, the reset form the token and a new password, the change form both passwords", () => {
    const forgot = renderPasswordPage({ ...base, form: "forgot", action: "https://app.test/auth/forgot-password/password" })
    expect(titleOf(forgot.html)).toBe("Reset your password")
    expect(forgot.html).toContain('name="email"')
    const reset = renderPasswordPage({ ...base, form: "reset", action: "https://app.test/auth/reset-password/password", token: "sealed.token" })
    expect(titleOf(reset.html)).toBe("Choose a new password")
    expect(reset.html).toContain('name="token" value="sealed.token"')
    expect(reset.html).toContain('autocomplete="new-password"')
    const change = renderPasswordPage({ ...base, form: "change", action: "https://app.test/auth/change-password/password", notice: "password-changed" })
    expect(titleOf(change.html)).toBe("Change your password")
    expect(change.html).toContain('name="currentPassword"')
    expect(change.html).toContain('<p class="lead" role="status">Your password was changed.</p>')
  })

  it("takes a mailed code and the new password on one form, and says how many tries are left", () => {
    const page = renderPasswordPage({ ...base, form: "reset-code", action: "https://app.test/auth/reset-password/password" })
    expect(titleOf(page.html)).toBe("Choose a new password")
    expect(page.html).toContain('name="code"')
    expect(page.html).toContain('autocomplete="one-time-code"')
    expect(page.html).toContain('name="password"')
    expect(page.html).toContain("we emailed it a 6-digit code")
    const wrong = renderPasswordPage({ ...base, form: "reset-code", action: "/auth/reset-password/password", error: "Verification", reason: "wrong-code", triesLeft: 3 }).html
    expect(wrong).toContain("That code is not right. Check it and try again (tries left: 3).")
  })

  it("says why a new password was refused, and what a refusal means", () => {
    const short = renderPasswordPage({ ...base, form: "reset", action: "/auth/reset-password/password", error: "PasswordResetRefused", reason: "too-short" }).html
    expect(short).toContain("That password is too short: use at least 8 characters.")
    const refused = renderPasswordPage({ ...base, form: "change", action: "/auth/change-password/password", error: "PasswordChangeRefused", reason: "refused-password" }).html
    expect(refused).toContain("That password is not allowed. Choose another one.")
    const wrong = renderPasswordPage({ ...base, form: "change", action: "/auth/change-password/password", error: "CredentialsSignin" }).html
    expect(wrong).toContain("That password is not right.")
    expect(renderPasswordPage({ ...base, form: "forgot", action: "/auth/forgot-password/password", error: "<script>" }).html).toContain("That did not work. Try again.")
  })

  it("the sign-in page links a Password provider that mails to the forgot form", () => {
    const mailing = { ...credentials, id: "password", callbackUrl: "https://app.test/auth/callback/password", passwordAccounts: { sendMail: () => {} } }
    expect(renderSignInPage({ providers: [mailing as never], csrfToken: CSRF, theme: {} }).html).toContain('href="https://app.test/auth/forgot-password/password"')
    const silent = { ...mailing, passwordAccounts: {} }
    expect(renderSignInPage({ providers: [silent as never], csrfToken: CSRF, theme: {} }).html).not.toContain("forgot-password")
  })
})
