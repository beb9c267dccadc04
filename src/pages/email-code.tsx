/**
 * The built-in page where an emailed code is typed: an email provider's `code` option, or a
 * Password provider's `verifyBy` code. Loaded only for such a provider, apart from the
 * verify-request page.
 *
 * @example
 * ```ts
 * import { renderEmailCodePage } from "./email-code.js"
 * const { html } = renderEmailCodePage({ url: "https://app.example", action: "/auth/callback/email", waiting: true, theme: {} })
 * ```
 * @module
 */
import { Fragment, h } from "./jsx.js"
import { english } from "../core/i18n/english.js"
import type { CoreKey } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import type { Theme } from "../types.js"
import { PageIcon } from "./icons.js"
import { renderDocument, safeUrl } from "./layout.js"
import type { RenderedPage } from "./types.js"
import { ReturnToSite } from "./verify-request.js"

/** Props of {@link renderEmailCodePage}. */
export interface EmailCodePageProps {
  /** The site origin, linked at the bottom. */
  url: string
  /** Where the form posts: `<basePath>/callback/<provider id>`. */
  action: string
  csrfToken?: string
  /** This browser holds the sign-in waiting for the code: without it the page says to type the code where it was asked for. */
  waiting: boolean
  /** The last code typed was wrong. @default false */
  wrongCode?: boolean
  /** Tries the code has left after the wrong one, said beside it. @default not said */
  triesLeft?: number
  /** What the code is for: signing in (the email provider), or verifying the address (the Password provider). @default "sign-in" */
  purpose?: "sign-in" | "verify-email"
  theme: Theme
  /** The request's language. @default English */
  text?: Translator<CoreKey>
}

/**
 * Render the code page (status 200, title "Enter your code"): one form posting `csrfToken` and
 * `code` to the provider's callback. In a browser that did not ask for the code it says so
 * instead of showing the form.
 *
 * @example
 * ```ts
 * const page = renderEmailCodePage({ url: "https://app.example", action: "/auth/callback/email", csrfToken: "a1b2", waiting: true, theme: {} })
 * page.html.includes('name="code"') // true
 * ```
 */
export function renderEmailCodePage({ url, action, csrfToken, waiting, wrongCode = false, triesLeft, purpose = "sign-in", theme, text = english }: EmailCodePageProps): RenderedPage {
  const { t } = text
  return renderDocument({
    title: t("emailCodeTitle"),
    status: 200,
    theme,
    text,
    children: (
      <>
        <PageIcon name="mail" />
        <h1>{t("checkEmailHeading")}</h1>
        {waiting ? (
          <>
            {wrongCode ? <div class="alert" role="alert"><p>{triesLeft === undefined ? t("codeWrong") : t("codeWrongTriesLeft", { count: text.number(triesLeft) })}</p></div> : null}
            <p class="lead">{t(purpose === "verify-email" ? "verifyEmailCodeSent" : "emailCodeSent", { duration: text.duration(10, "minute") })}</p>
            <form action={safeUrl(action)} method="post" class="email-code stack">
              <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
              <div class="field">
                <label for="email-code">{t("emailCodeLabel")}</label>
                <input id="email-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" required autofocus spellcheck={false} />
              </div>
              <button type="submit" class="button primary">{t(purpose === "verify-email" ? "verifyButton" : "signInButton")}</button>
            </form>
          </>
        ) : (
          <p class="lead">{t("emailCodeOtherBrowser")}</p>
        )}
        <ReturnToSite url={url} text={text} />
      </>
    ),
  })
}
