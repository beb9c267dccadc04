/**
 * The built-in sign-up page of the Password provider: an email, a name (optional) and a new
 * password, posted with the CSRF token to `<basePath>/signup/<id>`.
 *
 * @example
 * ```ts
 * import { renderSignUpPage } from "./sign-up.js"
 * const { html } = renderSignUpPage({ action: "/auth/signup/password", csrfToken: "a1b2c3", callbackUrl: "/", minLength: 8, signInUrl: "/auth/signin", theme: {} })
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

/** Props of {@link renderSignUpPage}. */
export interface SignUpPageProps {
  /** Where the form posts: `<basePath>/signup/<id>`. */
  action: string
  csrfToken?: string
  /** Where the new user goes once signed in. */
  callbackUrl: string
  /** The fewest characters a password may have, shown and checked by the browser too. */
  minLength: number
  /** The sign-in page, for someone who has an account. */
  signInUrl: string
  theme: Theme
  /** The request's language. @default English */
  text?: Translator<KeysOf<"password">>
}

/**
 * Render the sign-up page (status 200, title "Create an account").
 *
 * @example
 * ```ts
 * renderSignUpPage({ action: "/auth/signup/password", callbackUrl: "/", minLength: 8, signInUrl: "/auth/signin", theme: {} }).html.includes('name="password"') // true
 * ```
 */
export function renderSignUpPage({ action, csrfToken, callbackUrl, minLength, signInUrl, theme, text = english }: SignUpPageProps): RenderedPage {
  const { t } = text
  return renderDocument({
    title: t("signUpTitle"),
    status: 200,
    theme,
    text,
    children: (
      <>
        <PageIcon name="lock" />
        <h1>{t("signUpTitle")}</h1>
        <form action={safeUrl(action)} method="post" class="stack">
          <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <div class="field">
            <label for="signup-email">{t("emailLabel")}</label>
            <input id="signup-email" name="email" type="email" autocomplete="email" required autofocus />
          </div>
          <div class="field">
            <label for="signup-name">{t("nameOptionalLabel")}</label>
            <input id="signup-name" name="name" type="text" autocomplete="name" />
          </div>
          <div class="field">
            <label for="signup-password">{t("passwordLabel")}</label>
            <input id="signup-password" name="password" type="password" autocomplete="new-password" minlength={minLength} required aria-describedby="signup-password-hint" />
          </div>
          <p class="hint" id="signup-password-hint">{t("passwordMinLength", { count: minLength })}</p>
          <button type="submit" class="button primary">{t("createAccountButton")}</button>
        </form>
        <p class="lead">
          {t("haveAccount")} <a href={safeUrl(signInUrl)}>{t("signInButton")}</a>
        </p>
      </>
    ),
  })
}
