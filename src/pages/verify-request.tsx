/**
 * The built-in page shown after a magic link was sent (the page where an emailed code is typed is
 * `email-code.tsx`, which shares its link back to the site).
 *
 * @example
 * ```ts
 * import { renderVerifyRequestPage } from "./verify-request.js"
 * const { html } = renderVerifyRequestPage({ url: "https://app.example", theme: {} })
 * ```
 * @module
 */
import { Fragment, h } from "./jsx.js"
import { english } from "../core/i18n/english.js"
import type { CoreKey } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import type { Theme } from "../types.js"
import { PageIcon } from "./icons.js"
import { displayHost, renderDocument, safeUrl } from "./layout.js"
import type { RenderedPage } from "./types.js"

/**
 * The link back to the site, under this page and the code page (`email-code.tsx`).
 *
 * @example
 * ```tsx
 * <ReturnToSite url="https://app.example" text={english} />
 * ```
 */
export function ReturnToSite({ url, text }: { url: string; text: Translator<CoreKey> }) {
  return (
    <div class="actions">
      <a class="button neutral" href={safeUrl(url, "/")}>
        {text.t("returnTo", { host: displayHost(url) })}
      </a>
    </div>
  )
}

/** Props of {@link renderVerifyRequestPage}. */
export interface VerifyRequestPageProps {
  /** The site origin, linked at the bottom. */
  url: string
  theme: Theme
  /** The request's language. @default English */
  text?: Translator<CoreKey>
}

/**
 * Render the verify-request page (status 200, title "Verify Request"): "Check your email", "A sign in
 * link has been sent to your email address." and a link back to the site.
 *
 * @example
 * ```ts
 * const page = renderVerifyRequestPage({ url: "https://app.example", theme: { colorScheme: "light" } })
 * page.html.includes("Check your email") // true
 * ```
 */
export function renderVerifyRequestPage({ url, theme, text = english }: VerifyRequestPageProps): RenderedPage {
  return renderDocument({
    title: text.t("verifyRequestTitle"),
    status: 200,
    theme,
    text,
    children: (
      <>
        <PageIcon name="mail" />
        <h1>{text.t("checkEmailHeading")}</h1>
        <p class="lead">{text.t("verifyRequestSent")}</p>
        <ReturnToSite url={url} text={text} />
      </>
    ),
  })
}
