/**
 * The built-in page shown after a magic link was sent.
 *
 * @example
 * ```ts
 * import { renderVerifyRequestPage } from "./verify-request.js"
 * const { html } = renderVerifyRequestPage({ url: "https://app.example", theme: {} })
 * ```
 * @module
 */
import type { Theme } from "../types.js"
import { PageIcon } from "./icons.js"
import { displayHost, renderDocument, safeUrl } from "./layout.js"
import type { RenderedPage } from "./types.js"

/** Props of {@link renderVerifyRequestPage}. */
export interface VerifyRequestPageProps {
  /** The site origin, linked at the bottom. */
  url: string
  theme: Theme
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
export function renderVerifyRequestPage({ url, theme }: VerifyRequestPageProps): RenderedPage {
  return renderDocument({
    title: "Verify Request",
    status: 200,
    theme,
    children: (
      <>
        <PageIcon name="mail" />
        <h1>Check your email</h1>
        <p class="lead">A sign in link has been sent to your email address.</p>
        <div class="actions">
          <a class="button neutral" href={safeUrl(url, "/")}>
            Return to {displayHost(url)}
          </a>
        </div>
      </>
    ),
  })
}
