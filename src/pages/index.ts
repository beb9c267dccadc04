/**
 * The built-in pages, rendered on the server to complete HTML documents.
 *
 * @example
 * ```ts
 * import { renderSignInPage } from "../pages/index.js" // from an action module
 * const { status, html } = renderSignInPage({ providers, csrfToken, theme: config.theme ?? {} })
 * return new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8" } })
 * ```
 * @module
 */
import { renderSignInPage as renderSignInPageWith, type SignInPageProps } from "./signin.js"
import * as oauthEmail from "./signin-oauth-email.js"
import * as passkeys from "./webauthn-form.js"
import type { RenderedPage } from "./types.js"

export type { PageProvider, RenderedPage } from "./types.js"
export { signInErrorMessage, SIGNIN_ERROR_MESSAGES, DEFAULT_SIGNIN_ERROR } from "./signin-errors.js"
export type { SignInPageProps, PasskeyPart, OAuthEmailPart, SignInParts } from "./signin.js"
export { renderSignOutPage } from "./signout.js"
export type { SignOutPageProps } from "./signout.js"
export { renderErrorPage } from "./error.js"
export type { ErrorPageProps, ErrorPageCode } from "./error.js"
export { renderVerifyRequestPage } from "./verify-request.js"
export type { VerifyRequestPageProps } from "./verify-request.js"

/**
 * Render the sign-in page with every part, the WebAuthn and the OAuth/email ones included (see
 * `signin.tsx`). The sign-in action renders through `signin.tsx` itself, loading each part only for
 * a page that shows its providers.
 *
 * @example
 * ```ts
 * const { status, html } = renderSignInPage({ providers, csrfToken: "a1b2c3", theme: {} })
 * ```
 */
export function renderSignInPage(props: SignInPageProps): RenderedPage {
  return renderSignInPageWith(props, { passkeys, oauthEmail })
}
