/**
 * The built-in sign-in page: one button per OAuth/OIDC provider, a form per email and credentials
 * provider, and the message for `?error=`.
 *
 * @example
 * ```ts
 * import { renderSignInPage } from "./signin.js"
 * const { status, html } = renderSignInPage({ providers: [], theme: {} })
 * ```
 * @module
 */
import type { InputHTMLAttributes, JSX } from "preact"
import type { Theme } from "../types.js"
import { renderDocument, safeUrl } from "./layout.js"
import { buttonColors } from "./theme.js"
import type { PageProvider, RenderedPage } from "./types.js"

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
  theme: Theme
}

const TRY_ANOTHER_ACCOUNT = "Try signing in with a different account."

/** The message for each `?error=` value the sign-in page knows; others get {@link DEFAULT_SIGNIN_ERROR}. */
export const SIGNIN_ERROR_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  Signin: TRY_ANOTHER_ACCOUNT,
  OAuthSignin: TRY_ANOTHER_ACCOUNT,
  OAuthCallbackError: TRY_ANOTHER_ACCOUNT,
  OAuthCreateAccount: TRY_ANOTHER_ACCOUNT,
  EmailCreateAccount: TRY_ANOTHER_ACCOUNT,
  Callback: TRY_ANOTHER_ACCOUNT,
  OAuthAccountNotLinked: "To confirm your identity, sign in with the same account you used originally.",
  EmailSignin: "The e-mail could not be sent.",
  CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
  SessionRequired: "Please sign in to access this page.",
})

/** The message for an `?error=` value the sign-in page does not know (e.g. `MissingCSRF`). */
export const DEFAULT_SIGNIN_ERROR = "Unable to sign in."

/**
 * The message the sign-in page shows for an `?error=` value, or `undefined` when there is no error.
 *
 * @example
 * ```ts
 * signInErrorMessage("CredentialsSignin") // "Sign in failed. Check the details you provided are correct."
 * signInErrorMessage("MissingCSRF") // "Unable to sign in."
 * ```
 */
export function signInErrorMessage(error: string | undefined): string | undefined {
  if (!error) return undefined
  return Object.hasOwn(SIGNIN_ERROR_MESSAGES, error) ? SIGNIN_ERROR_MESSAGES[error] : DEFAULT_SIGNIN_ERROR
}

// Attributes a credentials field may pass through: plain HTML attributes, not event handlers or
// preact's own props, and never the ones that wire the field into the form.
const ATTRIBUTE_NAME = /^[a-z][a-z0-9-]*$/i
const RESERVED = new Set(["id", "name", "type", "label", "form", "formaction", "formmethod", "formtarget", "style", "children", "key", "ref"])

function passThrough(field: Record<string, unknown>): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {}
  for (const [name, value] of Object.entries(field)) {
    if (!ATTRIBUTE_NAME.test(name) || /^on/i.test(name) || RESERVED.has(name.toLowerCase())) continue
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") attributes[name] = value
  }
  return attributes
}

function fieldId(providerId: string, key: string): string {
  const slug = (s: string) => s.replace(/[^a-z0-9_-]+/gi, "-")
  return `${slug(providerId)}-field-${slug(key)}`
}

function CsrfInput({ csrfToken }: { csrfToken: string | undefined }) {
  return <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
}

function ProviderButton({ provider, csrfToken, callbackUrl }: { provider: PageProvider; csrfToken?: string; callbackUrl?: string }) {
  const style = provider.style
  const colors = buttonColors(style?.brandColor ?? style?.bg, style?.text)
  const logo = style?.logo ? safeUrl(style.logo, "", true) : ""
  return (
    <form action={safeUrl(provider.signinUrl)} method="post">
      <CsrfInput csrfToken={csrfToken} />
      {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
      <button
        type="submit"
        class={colors ? "button branded" : "button neutral"}
        style={colors ? `--provider-bg:${colors.background};--provider-text:${colors.text}` : undefined}
      >
        {logo ? <img class="provider-logo" src={logo} alt="" width={20} height={20} /> : null}
        <span>Sign in with {provider.name}</span>
      </button>
    </form>
  )
}

function EmailForm({ provider, csrfToken, email }: { provider: PageProvider; csrfToken?: string; email?: string }) {
  const id = fieldId(provider.id, "email")
  return (
    <form action={safeUrl(provider.signinUrl)} method="post" class="stack">
      <CsrfInput csrfToken={csrfToken} />
      <div class="field">
        <label for={id}>Email</label>
        <input id={id} type="email" name="email" placeholder="email@example.com" autocomplete="email" required value={email ?? ""} />
      </div>
      <button type="submit" class="button primary">Sign in with {provider.name}</button>
    </form>
  )
}

function CredentialsForm({ provider, csrfToken }: { provider: PageProvider; csrfToken?: string }) {
  const fields = Object.entries(provider.credentials ?? {})
  return (
    <form action={safeUrl(provider.callbackUrl)} method="post" class="stack">
      <CsrfInput csrfToken={csrfToken} />
      {fields.map(([key, field]) => {
        const id = fieldId(provider.id, key)
        const type = typeof field.type === "string" ? field.type : "text"
        const attributes: Record<string, string | number | boolean> = { ...passThrough(field), id, name: key, type }
        attributes.placeholder = typeof field.placeholder === "string" ? field.placeholder : ""
        if (type === "password" && attributes.autocomplete === undefined) attributes.autocomplete = "current-password"
        return (
          <div class="field" key={key}>
            <label for={id}>{field.label ?? key}</label>
            <input {...(attributes as InputHTMLAttributes<HTMLInputElement>)} />
          </div>
        )
      })}
      <button type="submit" class="button primary">Sign in with {provider.name}</button>
    </form>
  )
}

type Section =
  | { kind: "buttons"; providers: PageProvider[] }
  | { kind: "email" | "credentials"; provider: PageProvider }

// Consecutive OAuth/OIDC providers share one button group; each form-based provider is its own section.
// WebAuthn is left out: its ceremony needs a browser script, which these pages do not load from a CDN.
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
    }
  }
  return sections
}

function Separator() {
  return (
    <div class="separator" role="separator" aria-label="or">
      <span>or</span>
    </div>
  )
}

/**
 * Render the sign-in page (status 200, title "Sign In").
 *
 * OAuth/OIDC providers get a "Sign in with <name>" button posting `csrfToken` and `callbackUrl` to
 * their `signinUrl`; an email provider gets a required Email field posting to its `signinUrl`; a
 * credentials provider gets one labelled field per credential posting to its `callbackUrl`.
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
export function renderSignInPage(props: SignInPageProps): RenderedPage {
  const { providers, csrfToken, callbackUrl, email, error, theme } = props
  const message = signInErrorMessage(error)
  const sections = sectionsOf(providers)
  const body: JSX.Element[] = []
  sections.forEach((section, index) => {
    if (index > 0) body.push(<Separator key={`separator-${index}`} />)
    if (section.kind === "buttons") {
      body.push(
        <div class="stack" key={`section-${index}`}>
          {section.providers.map((provider) => (
            <ProviderButton key={provider.id} provider={provider} csrfToken={csrfToken} callbackUrl={callbackUrl} />
          ))}
        </div>,
      )
    } else if (section.kind === "email") {
      body.push(<EmailForm key={`section-${index}`} provider={section.provider} csrfToken={csrfToken} email={email} />)
    } else {
      body.push(<CredentialsForm key={`section-${index}`} provider={section.provider} csrfToken={csrfToken} />)
    }
  })
  return renderDocument({
    title: "Sign In",
    status: 200,
    theme,
    children: (
      <>
        <h1>Sign in</h1>
        {message ? (
          <div class="alert" role="alert">
            <p>{message}</p>
          </div>
        ) : sections.length > 1 ? (
          <p class="lead">Choose how you would like to sign in.</p>
        ) : null}
        <div class="heading-gap">{body}</div>
      </>
    ),
  })
}
