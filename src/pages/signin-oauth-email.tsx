/**
 * The sign-in page's parts for providers that sign in elsewhere: a button per OAuth/OIDC provider
 * and the email form. The sign-in action loads this module only for a page that shows such a
 * provider, so a credentials-only app never loads it.
 *
 * @example
 * ```tsx
 * import { ProviderButton } from "./signin-oauth-email.js"
 * const button = <ProviderButton provider={github} csrfToken="a1b2c3" callbackUrl="/dashboard" />
 * ```
 * @module
 */
import { h } from "./jsx.js"
import { english } from "../core/i18n/translator.js"
import { CsrfInput, fieldId, safeUrl } from "./layout.js"
import type { ProviderFormProps } from "./signin-forms.js"
import { buttonColors } from "./theme.js"

/**
 * An OAuth/OIDC provider: a form posting `csrfToken` (and `callbackUrl` when given) to its
 * `signinUrl`, with a "Sign in with <name>" button in the provider's colours when they are usable.
 *
 * @example
 * ```tsx
 * <ProviderButton provider={github} csrfToken="a1b2c3" callbackUrl="https://app.example/dashboard" />
 * ```
 */
export function ProviderButton({ provider, csrfToken, callbackUrl, text = english }: ProviderFormProps & { callbackUrl?: string }) {
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
        <span>{text.t("signInWith", { provider: provider.name })}</span>
      </button>
    </form>
  )
}

/**
 * An email provider: a required, labelled email field (prefilled with `email`) posting with
 * `csrfToken` to its `signinUrl`. No callbackUrl field: the callback-url cookie carries it.
 *
 * @example
 * ```tsx
 * <EmailForm provider={nodemailer} csrfToken="a1b2c3" email="ada@example.com" />
 * ```
 */
export function EmailForm({ provider, csrfToken, email, text = english }: ProviderFormProps & { email?: string }) {
  const id = fieldId(provider.id, "email")
  return (
    <form action={safeUrl(provider.signinUrl)} method="post" class="stack">
      <CsrfInput csrfToken={csrfToken} />
      <div class="field">
        <label for={id}>{text.t("emailLabel")}</label>
        <input id={id} type="email" name="email" placeholder={text.t("emailPlaceholder")} autocomplete="email" required value={email ?? ""} />
      </div>
      <button type="submit" class="button primary">{text.t("signInWith", { provider: provider.name })}</button>
    </form>
  )
}
