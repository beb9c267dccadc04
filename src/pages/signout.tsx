/**
 * The built-in sign-out page: a confirmation with a form that posts back to the same URL.
 *
 * @example
 * ```ts
 * import { renderSignOutPage } from "./signout.js"
 * const { html } = renderSignOutPage({ url: "https://app.example/auth/signout", csrfToken: "a1b2c3", theme: {} })
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

/** Props of {@link renderSignOutPage}. */
export interface SignOutPageProps {
  /** The current request URL: the form posts here. */
  url: string
  csrfToken?: string
  /** Where "Cancel" goes: the page the user came from when known. @default the origin of `url` */
  cancelUrl?: string
  theme: Theme
  /** The request's language. @default English */
  text?: Translator<CoreKey>
}

/**
 * Render the sign-out page (status 200, title "Sign Out"): the question "Are you sure you want to sign
 * out?", a "Sign out" button posting a hidden `csrfToken` to `url`, and a "Cancel" link back to
 * `cancelUrl`.
 *
 * @example
 * ```ts
 * const page = renderSignOutPage({
 *   url: "https://app.example/auth/signout",
 *   csrfToken: "a1b2c3",
 *   theme: { colorScheme: "dark", brandColor: "#6d28d9" },
 * })
 * page.status // 200
 * ```
 */
export function renderSignOutPage({ url, csrfToken, cancelUrl, theme, text = english }: SignOutPageProps): RenderedPage {
  let back = cancelUrl
  if (!back) {
    try {
      back = new URL(url).origin
    } catch {
      back = "/"
    }
  }
  const { t } = text
  return renderDocument({
    title: t("signOutTitle"),
    status: 200,
    theme,
    text,
    children: (
      <>
        <PageIcon name="exit" />
        <h1>{t("signOutHeading")}</h1>
        <p class="lead">{t("signOutQuestion")}</p>
        <form action={safeUrl(url)} method="post" class="actions">
          <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
          <button type="submit" class="button primary">{t("signOutButton")}</button>
          <a class="button neutral" href={safeUrl(back, "/")}>
            {t("cancel")}
          </a>
        </form>
      </>
    ),
  })
}
