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
export type { PageProvider, RenderedPage } from "./types.js"
export { renderSignInPage } from "./signin.js"
export { signInErrorMessage, SIGNIN_ERROR_MESSAGES, DEFAULT_SIGNIN_ERROR } from "./signin-errors.js"
export type { SignInPageProps } from "./signin.js"
export { renderSignOutPage } from "./signout.js"
export type { SignOutPageProps } from "./signout.js"
export { renderErrorPage } from "./error.js"
export type { ErrorPageProps, ErrorPageCode } from "./error.js"
export { renderVerifyRequestPage } from "./verify-request.js"
export type { VerifyRequestPageProps } from "./verify-request.js"
