/**
 * The built-in page shown after a magic link was sent, and the page where an emailed code is typed.
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

/** The link back to the site, under both pages. */
function ReturnToSite({ url }: { url: string }) {
  return (
    <div class="actions">
      <a class="button neutral" href={safeUrl(url, "/")}>
        Return to {displayHost(url)}
      </a>
    </div>
  )
}

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
  theme: Theme
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
export function renderEmailCodePage({ url, action, csrfToken, waiting, wrongCode = false, theme }: EmailCodePageProps): RenderedPage {
  return renderDocument({
    title: "Enter your code",
    status: 200,
    theme,
    children: (
      <>
        <PageIcon name="mail" />
        <h1>Check your email</h1>
        {waiting ? (
          <>
            {wrongCode ? <div class="alert" role="alert"><p>That code is not right. Check it and try again.</p></div> : null}
            <p class="lead">We emailed you a 6-digit code. It works for 10 minutes, in this browser.</p>
            <form action={safeUrl(action)} method="post" class="email-code stack">
              <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
              <div class="field">
                <label for="email-code">Code from your email</label>
                <input id="email-code" name="code" type="text" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" required autoFocus spellcheck={false} />
              </div>
              <button type="submit" class="button primary">Sign in</button>
            </form>
          </>
        ) : (
          <p class="lead">This browser did not ask for a code. Type the code in the browser where you asked for it, or sign in again here.</p>
        )}
        <ReturnToSite url={url} />
      </>
    ),
  })
}

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
        <ReturnToSite url={url} />
      </>
    ),
  })
}
