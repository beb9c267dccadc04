/**
 * The built-in error page, for the codes that reach `<basePath>/error?error=`.
 *
 * @example
 * ```ts
 * import { renderErrorPage } from "./error.js"
 * const { status } = renderErrorPage({
 *   error: "AccessDenied", url: "https://app.example/auth/error?error=AccessDenied",
 *   signinUrl: "https://app.example/auth/signin", host: "https://app.example", theme: {},
 * })
 * status // 403
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

/** Props of {@link renderErrorPage}. */
export interface ErrorPageProps {
  /** The `?error=` value. */
  error?: string
  /** The request URL. */
  url: string
  /** `<basePath>/signin`, the target of the "Sign in" button. */
  signinUrl: string
  /** The site origin, linked from the generic error. */
  host: string
  theme: Theme
  /** The request's language. @default English */
  text?: Translator<CoreKey>
}

/** The error codes with a page of their own; any other value renders the generic page. */
export type ErrorPageCode = "Configuration" | "AccessDenied" | "Verification" | "SecondFactorUnavailable" | "AccountNotFound"

interface ErrorContent {
  status: number
  heading: CoreKey
  messages: CoreKey[]
  signIn: boolean
}

const ERROR_PAGES: Readonly<Record<ErrorPageCode, ErrorContent>> = {
  Configuration: {
    status: 500,
    heading: "errorConfigurationHeading",
    messages: ["errorConfigurationMessage", "errorConfigurationHint"],
    signIn: false,
  },
  AccessDenied: {
    status: 403,
    heading: "errorAccessDeniedHeading",
    messages: ["errorAccessDeniedMessage"],
    signIn: true,
  },
  Verification: {
    status: 403,
    heading: "errorVerificationHeading",
    messages: ["errorVerificationMessage", "errorVerificationHint"],
    signIn: true,
  },
  // authflow's own: a second factor is required of a user who has no way to pass one.
  SecondFactorUnavailable: {
    status: 403,
    heading: "errorSecondFactorUnavailableHeading",
    messages: ["errorSecondFactorUnavailableMessage", "errorSecondFactorUnavailableHint"],
    signIn: false,
  },
  // authflow's own (multiSession): the account to switch to or sign out is not signed in here.
  AccountNotFound: {
    status: 404,
    heading: "errorAccountNotFoundHeading",
    messages: ["errorAccountNotFoundMessage"],
    signIn: true,
  },
}

function isErrorPageCode(error: string | undefined): error is ErrorPageCode {
  return error !== undefined && Object.hasOwn(ERROR_PAGES, error)
}

/**
 * Render the error page for `error`: `Configuration` (500, "Server error"), `AccessDenied` (403,
 * "Access Denied"), `Verification` (403, "Unable to sign in") and authflow's
 * `SecondFactorUnavailable` (403); `AccessDenied` and `Verification` offer a "Sign in" button to
 * `signinUrl`. Any other or missing code renders a generic "Error" page (200) linking
 * back to `host`. Unlike Auth.js, the button goes to `signinUrl` as given, never to the request URL
 * with `/signin` appended after its query.
 *
 * @example
 * ```ts
 * const page = renderErrorPage({
 *   error: "Verification",
 *   url: "https://app.example/auth/error?error=Verification",
 *   signinUrl: "https://app.example/auth/signin",
 *   host: "https://app.example",
 *   theme: {},
 * })
 * page.status // 403
 * ```
 */
export function renderErrorPage({ error, signinUrl, host, theme, text = english }: ErrorPageProps): RenderedPage {
  const { t } = text
  if (isErrorPageCode(error)) {
    const content = ERROR_PAGES[error]
    return renderDocument({
      title: t("errorTitle"),
      status: content.status,
      theme,
      text,
      children: (
        <>
          <PageIcon name="alert" tone="danger" />
          <h1>{t(content.heading)}</h1>
          {content.messages.map((message) => (
            <p class="lead">
              {t(message)}
            </p>
          ))}
          {content.signIn ? (
            <div class="actions">
              <a class="button primary" href={safeUrl(signinUrl)}>
                {t("signInButton")}
              </a>
            </div>
          ) : null}
        </>
      ),
    })
  }
  return renderDocument({
    title: t("errorTitle"),
    status: 200,
    theme,
    text,
    children: (
      <>
        <PageIcon name="alert" tone="danger" />
        <h1>{t("errorDefaultHeading")}</h1>
        <p class="lead">{t("errorDefaultMessage")}</p>
        <div class="actions">
          <a class="button neutral" href={safeUrl(host, "/")}>
            {t("returnTo", { host: displayHost(host) })}
          </a>
        </div>
      </>
    ),
  })
}
