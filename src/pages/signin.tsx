/**
 * The built-in sign-in page: one button per OAuth/OIDC provider, a form per email, credentials and
 * WebAuthn provider, and the message for `?error=`.
 *
 * @example
 * ```ts
 * import { renderSignInPage } from "./signin.js"
 * const { status, html } = renderSignInPage({ providers: [], theme: {} })
 * ```
 * @module
 */
import { Fragment, h, type Markup } from "./jsx.js"
import { english } from "../core/i18n/english.js"
import type { CoreKey } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import type { Theme } from "../types.js"
import { renderDocument, safeUrl } from "./layout.js"
import { SIGNIN_NOTICE_KEYS, signInErrorHint, signInErrorMessage } from "./signin-errors.js"
import { CredentialsForm, credentialsScript, signInErrorId } from "./signin-forms.js"
import type { EmailForm, ProviderButton } from "./signin-oauth-email.js"
import type { PageProvider, RenderedPage } from "./types.js"
import type { PasskeyForm, webauthnScripts } from "./webauthn-form.js"

/**
 * The WebAuthn part of the sign-in page (`webauthn-form.tsx`, with `@simplewebauthn/browser`
 * inlined): passed in by the caller, which loads it only for a page that shows a WebAuthn provider.
 */
export interface PasskeyPart {
  PasskeyForm: typeof PasskeyForm
  webauthnScripts: typeof webauthnScripts
}

/**
 * The OAuth/OIDC buttons and the email form (`signin-oauth-email.tsx`): passed in by the caller,
 * which loads them only for a page that shows such a provider.
 */
export interface OAuthEmailPart {
  ProviderButton: typeof ProviderButton
  EmailForm: typeof EmailForm
}

/** The parts of the sign-in page beyond the credentials form, each needed only by a page that shows its providers. */
export interface SignInParts {
  passkeys?: PasskeyPart
  oauthEmail?: OAuthEmailPart
}

/** Props of {@link renderSignInPage}. */
export interface SignInPageProps {
  providers: PageProvider[]
  csrfToken?: string
  /** Where to return after signing in; sent with OAuth/OIDC sign-ins (email keeps it in a cookie). */
  callbackUrl?: string
  /** Prefills the email field. */
  email?: string
  /** The `?error=` value; selects the message shown above the providers. */
  error?: string
  /** The `?notice=` value (`reset-sent`, `password-reset`): a known one is shown above the providers. */
  notice?: string
  /** `RateLimited`: the seconds to wait, when known; the message then says how long. @default unknown */
  retryAfter?: number
  theme: Theme
  /** The request's language. @default English */
  text?: Translator<CoreKey>
  /**
   * With `multiSession` on and someone signed in: the URL of this page that signs in another
   * account beside them (`?addAccount=1`), shown as a "Use another account" link.
   * @default none: no link
   */
  addAccountUrl?: string
}

type Section =
  | { kind: "buttons"; providers: PageProvider[] }
  | { kind: "email" | "credentials" | "webauthn"; provider: PageProvider }

// Consecutive OAuth/OIDC providers share one button group; each form-based provider is its own section.
function sectionsOf(providers: PageProvider[]): Section[] {
  const sections: Section[] = []
  for (const provider of providers) {
    if (provider.type === "oauth" || provider.type === "oidc") {
      const last = sections.at(-1)
      if (last?.kind === "buttons") last.providers.push(provider)
      else sections.push({ kind: "buttons", providers: [provider] })
    } else if (provider.type === "email") {
      sections.push({ kind: "email", provider })
    } else if (provider.type === "credentials" && provider.credentials) {
      sections.push({ kind: "credentials", provider })
    } else if (provider.type === "webauthn") {
      sections.push({ kind: "webauthn", provider })
    }
  }
  return sections
}

const missingOAuthEmailPart = "renderSignInPage: an OAuth, OIDC or email provider needs the part of the page with their forms (signin-oauth-email.js)"

function Separator({ text }: { text: Translator<CoreKey> }) {
  const or = text.t("or")
  return (
    <div class="separator" role="separator" aria-label={or}>
      <span>{or}</span>
    </div>
  )
}

/**
 * Render the sign-in page (status 200, title "Sign In").
 *
 * OAuth/OIDC providers get a "Sign in with <name>" button posting `csrfToken` and `callbackUrl` to
 * their `signinUrl`; an email provider gets a required Email field posting to its `signinUrl` (both
 * from `parts.oauthEmail`, see `signin-oauth-email.tsx`); a credentials provider gets one labelled
 * field per credential posting to its `callbackUrl`; a WebAuthn provider gets its `formFields` and a
 * passkey button, with `@simplewebauthn/browser` inlined, from `parts.passkeys` (see
 * `webauthn-form.tsx`). A provider whose part is missing is a `TypeError`.
 * Separators sit between the button group and each form. A provider logo is shown only when
 * `style.logo` is set. `error` selects the alert text (see {@link signInErrorMessage}).
 *
 * @example
 * ```ts
 * const page = renderSignInPage({
 *   providers: [{ id: "github", name: "GitHub", type: "oauth",
 *     signinUrl: "https://app.example/auth/signin/github", callbackUrl: "https://app.example/auth/callback/github" }],
 *   csrfToken: "a1b2c3",
 *   callbackUrl: "https://app.example/dashboard",
 *   error: "OAuthAccountNotLinked",
 *   theme: { colorScheme: "auto" },
 * })
 * new Response(page.html, { status: page.status, headers: { "Content-Type": "text/html" } })
 * ```
 */
export function renderSignInPage(props: SignInPageProps, parts: SignInParts = {}): RenderedPage {
  const { passkeys, oauthEmail } = parts
  const { providers, csrfToken, callbackUrl, email, error, notice, retryAfter, theme, text = english, addAccountUrl } = props
  const message = signInErrorMessage(error, text, retryAfter)
  const hint = signInErrorHint(error, text)
  const sections = sectionsOf(providers)
  const body: Markup[] = []
  sections.forEach((section, index) => {
    if (index > 0) body.push(<Separator text={text} />)
    if (section.kind === "buttons") {
      if (!oauthEmail) throw new TypeError(missingOAuthEmailPart)
      body.push(
        <div class="stack">
          {section.providers.map((provider) => (
            <oauthEmail.ProviderButton provider={provider} csrfToken={csrfToken} callbackUrl={callbackUrl} text={text} />
          ))}
        </div>,
      )
    } else if (section.kind === "email") {
      if (!oauthEmail) throw new TypeError(missingOAuthEmailPart)
      body.push(<oauthEmail.EmailForm provider={section.provider} csrfToken={csrfToken} email={email} text={text} />)
    } else if (section.kind === "webauthn") {
      if (!passkeys) throw new TypeError("renderSignInPage: a WebAuthn provider needs the passkey part of the page (webauthn-form.js)")
      body.push(<passkeys.PasskeyForm provider={section.provider} csrfToken={csrfToken} callbackUrl={callbackUrl} text={text} />)
    } else {
      body.push(<CredentialsForm provider={section.provider} csrfToken={csrfToken} invalid={error === "CredentialsSignin"} text={text} />)
    }
  })
  return renderDocument({
    title: text.t("signInTitle"),
    status: 200,
    theme,
    text,
    children: (
      <>
        <h1>{text.t("signInHeading")}</h1>
        {!message && notice && Object.hasOwn(SIGNIN_NOTICE_KEYS, notice) ? (
          <p class="lead" role="status">
            {text.t(SIGNIN_NOTICE_KEYS[notice]!)}
          </p>
        ) : null}
        {message ? (
          // Focus moves here on load (tabindex -1 makes it focusable, autofocus focuses it), so a
          // screen reader reads the error first; credentials fields point here with aria-describedby.
          <div class="alert" role="alert" id={signInErrorId} tabindex={-1} autofocus>
            <p>{message}</p>
            {hint ? <p class="hint">{hint}</p> : null}
          </div>
        ) : sections.length > 1 ? (
          <p class="lead">{text.t("signInChoose")}</p>
        ) : null}
        <div class="heading-gap">{body}</div>
        {addAccountUrl ? (
          <p class="hint heading-gap">
            <a href={safeUrl(addAccountUrl)}>{text.t("signInUseAnotherAccount")}</a>
          </p>
        ) : null}
        {passkeys && sections.some((section) => section.kind === "webauthn") ? passkeys.webauthnScripts() : null}
        {sections.some((section) => section.kind === "credentials") ? credentialsScript() : null}
      </>
    ),
  })
}
