/**
 * The built-in password pages of the Password provider: the forgot-password form (an email, posted
 * to `<basePath>/forgot-password/<id>`), the reset form a mailed link opens (the new password, with
 * the link's token, posted to `<basePath>/reset-password/<id>`), the reset form of a mailed code
 * (the code and the new password, posted there too), and the signed-in change form (the
 * current and new passwords, posted to `<basePath>/change-password/<id>`).
 *
 * @example
 * ```ts
 * import { renderPasswordPage } from "./password.js"
 * const { html } = renderPasswordPage({ form: "forgot", action: "/auth/forgot-password/password", csrfToken: "a1b2c3", minLength: 8, maxLength: 128, signInUrl: "/auth/signin", theme: {} })
 * ```
 * @module
 */
import { Fragment, h } from "./jsx.js"
import { englishWith } from "../core/i18n/english.js"
import { messages as password } from "../core/i18n/english/password.js"
import type { KeysOf } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import type { Theme } from "../types.js"
import { PageIcon } from "./icons.js"
import { renderDocument, safeUrl } from "./layout.js"
import type { RenderedPage } from "./types.js"

// The English of this page's area, when it is given no translator.
const english = englishWith(password)

/** Props of {@link renderPasswordPage}. */
export interface PasswordPageProps {
  /** Which form: ask for a reset link, choose a new password from the link, choose one with a mailed code (`resetBy: "code"`), or change it signed in. */
  form: "forgot" | "reset" | "reset-code" | "change"
  /** Where the form posts. */
  action: string
  csrfToken?: string
  /** The mailed link's token, carried by the reset form. @default none */
  token?: string
  /** The fewest and most characters a new password may have. */
  minLength: number
  maxLength: number
  /** The sign-in page, linked under the forgot form. */
  signInUrl: string
  /** The `?notice=` value (`password-changed`). @default none */
  notice?: string
  /** The `?error=` value of a refused request, and its `?reason=`. @default none */
  error?: string
  reason?: string
  /** Tries left after a wrong code (`?left=`), on the code form. @default none */
  triesLeft?: number
  theme: Theme
  /** The request's language. @default English */
  text?: Translator<KeysOf<"password">>
}

const titles: Readonly<Record<PasswordPageProps["form"], KeysOf<"password">>> = { forgot: "forgotPasswordTitle", reset: "resetPasswordTitle", "reset-code": "resetPasswordTitle", change: "changePasswordTitle" }

/** What the page says for a refused request's `?error=` (and `?reason=`). */
function problemOf({ error, reason, minLength, maxLength, triesLeft }: PasswordPageProps, text: Translator<KeysOf<"password">>): string | undefined {
  if (error === undefined) return undefined
  if (error === "Verification" && reason === "wrong-code") return triesLeft === undefined ? text.t("codeWrong") : text.t("codeWrongTriesLeft", { count: triesLeft })
  if (error === "PasswordResetRefused" || error === "PasswordChangeRefused") {
    if (reason === "too-short") return text.t("passwordTooShort", { count: minLength })
    if (reason === "too-long") return text.t("passwordTooLong", { count: maxLength })
    return text.t("passwordNotAllowed")
  }
  const keys: Record<string, KeysOf<"password">> = { MissingCSRF: "passwordFormOutdated", InvalidEmail: "signInErrorInvalidEmail", CredentialsSignin: "passwordWrong", NoPassword: "passwordNone", PasswordCodeInvalid: "resetCodeInvalid", PasswordCodeExpired: "resetCodeExpired" }
  return text.t(Object.hasOwn(keys, error) ? keys[error]! : "passwordFormFailed")
}

/**
 * Render a password page (status 200): "Reset your password", "Choose a new password" or "Change
 * your password".
 *
 * @example
 * ```ts
 * renderPasswordPage({ form: "reset", action: "/auth/reset-password/password", token: "eyJ…", minLength: 8, maxLength: 128, signInUrl: "/auth/signin", theme: {} }).html.includes('name="token"') // true
 * ```
 */
export function renderPasswordPage(props: PasswordPageProps): RenderedPage {
  const { form, action, csrfToken, token, minLength, maxLength, signInUrl, notice, theme, text = english } = props
  const { t } = text
  const problem = problemOf(props, text)
  const newPassword = (id: string, name: string) => (
    <>
      <div class="field">
        <label for={id}>{t("newPasswordLabel")}</label>
        <input id={id} name={name} type="password" autocomplete="new-password" minlength={minLength} maxlength={maxLength * 2} required aria-describedby={`${id}-hint`} autofocus={!problem && form === "reset"} />
      </div>
      <p class="hint" id={`${id}-hint`}>{t("passwordMinLength", { count: minLength })}</p>
    </>
  )
  return renderDocument({
    title: t(titles[form]),
    status: 200,
    theme,
    text,
    children: (
      <>
        <PageIcon name="lock" />
        <h1>{t(titles[form])}</h1>
        {problem ? (
          <div class="alert" role="alert" id="password-error" tabindex={-1} autofocus>
            <p>{problem}</p>
          </div>
        ) : form === "change" && notice === "password-changed" ? (
          <p class="lead" role="status">
            {t("noticePasswordChanged")}
          </p>
        ) : form === "forgot" ? (
          <p class="lead">{t("forgotPasswordLead")}</p>
        ) : form === "reset-code" ? (
          <p class="lead">{t("resetCodeLead", { duration: text.duration(10, "minute") })}</p>
        ) : null}
        <form action={safeUrl(action)} method="post" class="stack">
          <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
          {form === "forgot" ? (
            <div class="field">
              <label for="forgot-email">{t("emailLabel")}</label>
              <input id="forgot-email" name="email" type="email" autocomplete="email" required autofocus={!problem} />
            </div>
          ) : null}
          {form === "reset" ? (
            <>
              <input type="hidden" name="token" value={token ?? ""} />
              {newPassword("reset-password", "password")}
            </>
          ) : null}
          {form === "reset-code" ? (
            <>
              <div class="field">
                <label for="reset-code">{t("emailCodeLabel")}</label>
                <input id="reset-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" required autofocus={!problem} spellcheck={false} />
              </div>
              {newPassword("reset-code-password", "password")}
            </>
          ) : null}
          {form === "change" ? (
            <>
              <div class="field">
                <label for="change-password-current">{t("currentPasswordLabel")}</label>
                <input id="change-password-current" name="currentPassword" type="password" autocomplete="current-password" required autofocus={!problem} />
              </div>
              {newPassword("change-password-new", "newPassword")}
            </>
          ) : null}
          <button type="submit" class="button primary">{t(form === "forgot" ? "sendResetLinkButton" : form === "change" ? "changePasswordButton" : "setPasswordButton")}</button>
        </form>
        {form === "forgot" ? (
          <p class="lead">
            <a href={safeUrl(signInUrl)}>{t("signInButton")}</a>
          </p>
        ) : null}
      </>
    ),
  })
}
