/**
 * The built-in page where a signed-in user of the Password provider asks to change their email
 * address: the new address and their current password, posted with the CSRF token to
 * `<basePath>/change-email/<id>`. Nothing changes until the link mailed to the new address is
 * followed.
 *
 * @example
 * ```ts
 * import { renderChangeEmailPage } from "./change-email.js"
 * const { html } = renderChangeEmailPage({ action: "/auth/change-email/password", csrfToken: "a1b2c3", email: "ada@example.test", theme: {} })
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

/** Props of {@link renderChangeEmailPage}. */
export interface ChangeEmailPageProps {
  /** Where the form posts: `<basePath>/change-email/<id>`. */
  action: string
  csrfToken?: string
  /** The account's address now. */
  email: string
  /** The `?notice=` value (`change-requested`). @default none */
  notice?: string
  /** The `?error=` value of a refused request. @default none */
  error?: string
  theme: Theme
  /** The request's language. @default English */
  text?: Translator<KeysOf<"password">>
}

/** The message the page shows for each `?error=` value the change route answers. */
export const CHANGE_EMAIL_ERRORS: Readonly<Record<string, KeysOf<"password">>> = Object.freeze({
  MissingCSRF: "passwordFormOutdated",
  InvalidEmail: "signInErrorInvalidEmail",
  SameEmail: "changeEmailErrorSameEmail",
  CredentialsSignin: "passwordWrong",
  NoPassword: "changeEmailErrorNoPassword",
  EmailSignin: "changeEmailErrorEmailSignin",
})

/**
 * Render the change-email page (status 200, title "Change your email address").
 *
 * @example
 * ```ts
 * renderChangeEmailPage({ action: "/auth/change-email/password", email: "ada@example.test", notice: "change-requested", theme: {} }).html.includes('role="status"') // true
 * ```
 */
export function renderChangeEmailPage({ action, csrfToken, email, notice, error, theme, text = english }: ChangeEmailPageProps): RenderedPage {
  const { t } = text
  const problem = error === undefined ? undefined : t(Object.hasOwn(CHANGE_EMAIL_ERRORS, error) ? CHANGE_EMAIL_ERRORS[error]! : "changeEmailErrorDefault")
  return renderDocument({
    title: t("changeEmailTitle"),
    status: 200,
    theme,
    children: (
      <>
        <PageIcon name="lock" />
        <h1>{t("changeEmailTitle")}</h1>
        {problem ? (
          <div class="alert" role="alert" id="change-email-error" tabindex={-1} autofocus>
            <p>{problem}</p>
          </div>
        ) : notice === "change-requested" ? (
          <p class="lead" role="status">
            {t("changeEmailRequested")}
          </p>
        ) : (
          <p class="lead">{t("changeEmailCurrent", { email })}</p>
        )}
        <form action={safeUrl(action)} method="post" class="stack">
          <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
          <div class="field">
            <label for="change-email-new">{t("changeEmailNewLabel")}</label>
            <input id="change-email-new" name="newEmail" type="email" autocomplete="email" required autofocus={!problem} />
          </div>
          <div class="field">
            <label for="change-email-password">{t("currentPasswordLabel")}</label>
            <input id="change-email-password" name="password" type="password" autocomplete="current-password" required />
          </div>
          <button type="submit" class="button primary">{t("changeEmailButton")}</button>
        </form>
      </>
    ),
  })
}
