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
