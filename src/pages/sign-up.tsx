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
import type { Theme } from "../types.js"
import { PageIcon } from "./icons.js"
import { renderDocument, safeUrl } from "./layout.js"
import type { RenderedPage } from "./types.js"

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
}

/**
 * Render the sign-up page (status 200, title "Create an account").
 *
 * @example
 * ```ts
 * renderSignUpPage({ action: "/auth/signup/password", callbackUrl: "/", minLength: 8, signInUrl: "/auth/signin", theme: {} }).html.includes('name="password"') // true
 * ```
 */
export function renderSignUpPage({ action, csrfToken, callbackUrl, minLength, signInUrl, theme }: SignUpPageProps): RenderedPage {
  return renderDocument({
    title: "Create an account",
    status: 200,
    theme,
    children: (
      <>
        <PageIcon name="lock" />
        <h1>Create an account</h1>
        <form action={safeUrl(action)} method="post" class="stack">
          <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <div class="field">
            <label for="signup-email">Email</label>
            <input id="signup-email" name="email" type="email" autoComplete="email" required autoFocus />
          </div>
          <div class="field">
            <label for="signup-name">Name (optional)</label>
            <input id="signup-name" name="name" type="text" autoComplete="name" />
          </div>
          <div class="field">
            <label for="signup-password">Password</label>
            <input id="signup-password" name="password" type="password" autoComplete="new-password" minLength={minLength} required aria-describedby="signup-password-hint" />
          </div>
          <p class="hint" id="signup-password-hint">At least {minLength} characters.</p>
          <button type="submit" class="button primary">Create account</button>
        </form>
        <p class="lead">
          Have an account? <a href={safeUrl(signInUrl)}>Sign in</a>
        </p>
      </>
    ),
  })
}
