/**
 * The credentials form of the sign-in page, with its script. The OAuth/OIDC buttons and the email form are in
 * `signin-oauth-email.tsx`, the passkey form in `webauthn-form.tsx`: loaded only for a page that
 * shows such a provider.
 *
 * @example
 * ```tsx
 * import { CredentialsForm } from "./signin-forms.js"
 * const form = <CredentialsForm provider={credentials} csrfToken="a1b2c3" />
 * ```
 * @module
 */
import { h, type HtmlAttributes } from "./jsx.js"
import { english } from "../core/i18n/english.js"
import type { CoreKey } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import { CsrfInput, fieldId, safeUrl } from "./layout.js"
import type { PageProvider } from "./types.js"

// Attributes a credentials field may pass through: plain HTML attributes, not event handlers or
// the JSX runtime's own props, and never the ones that wire the field into the form. Names are
// written in HTML's lower case (`maxLength` as `maxlength`, `className` as `class`): an Auth.js
// configuration may spell them the React way.
const ATTRIBUTE_NAME = /^[a-z][a-z0-9-]*$/
const RESERVED = new Set(["id", "name", "type", "label", "form", "formaction", "formmethod", "formtarget", "style", "children", "key", "ref", "dangerouslysetinnerhtml"])
const RENAMED = new Map([["classname", "class"], ["htmlfor", "for"]])

function passThrough(field: Record<string, unknown>): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {}
  for (const [key, value] of Object.entries(field)) {
    const name = key.toLowerCase()
    if (!ATTRIBUTE_NAME.test(name) || name.startsWith("on") || RESERVED.has(name)) continue
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") attributes[RENAMED.get(name) ?? name] = value
  }
  return attributes
}

/** Props shared by the provider forms. */
export interface ProviderFormProps {
  provider: PageProvider
  csrfToken?: string
  /** The request's language. @default English */
  text?: Translator<CoreKey>
}

/**
 * The id of the sign-in page's error alert, which invalid fields name in `aria-describedby`.
 *
 * @example
 * ```tsx
 * <div role="alert" id={signInErrorId}>…</div>
 * ```
 */
export const signInErrorId = "signin-error"

/**
 * A credentials provider: one labelled field per credential (label ?? key, type ?? "text", other
 * plain attributes passed through) posting with `csrfToken` to its `callbackUrl`. After a refused
 * sign-in (`invalid`), every field is `aria-invalid` and described by the error alert.
 *
 * @example
 * ```tsx
 * <CredentialsForm provider={{ ...credentials, credentials: { username: { label: "Username" } } }} csrfToken="a1b2c3" />
 * ```
 */
export function CredentialsForm({ provider, csrfToken, invalid = false, text = english }: ProviderFormProps & { invalid?: boolean }) {
  const fields = Object.entries(provider.credentials ?? {})
  return (
    <form action={safeUrl(provider.callbackUrl)} method="post" class="stack" data-credentials-form={provider.id}>
      <CsrfInput csrfToken={csrfToken} />
      {fields.map(([key, field]) => {
        const id = fieldId(provider.id, key)
        const type = typeof field.type === "string" ? field.type : "text"
        const attributes: Record<string, string | number | boolean> = { ...passThrough(field), id, name: key, type }
        attributes.placeholder = typeof field.placeholder === "string" ? field.placeholder : ""
        if (type === "password" && attributes.autocomplete === undefined) attributes.autocomplete = "current-password"
        if (invalid) Object.assign(attributes, { "aria-invalid": "true", "aria-describedby": signInErrorId })
        return (
          <div class="field">
            <label for={id}>{field.label ?? key}</label>
            <input {...(attributes as HtmlAttributes)} />
          </div>
        )
      })}
      <button type="submit" class="button primary">{text.t("signInWith", { provider: provider.name })}</button>
      {(provider as { passwordAccounts?: unknown }).passwordAccounts ? <a href={safeUrl(provider.callbackUrl.replace(/\/callback\/([^/]+)$/, "/signup/$1"))}>{text.t("createAccountLink")}</a> : null}
      {(provider as { passwordAccounts?: { sendMail?: unknown } }).passwordAccounts?.sendMail ? <a href={safeUrl(provider.callbackUrl.replace(/\/callback\/([^/]+)$/, "/forgot-password/$1"))}>{text.t("forgotPasswordLink")}</a> : null}
    </form>
  )
}

/**
 * Keeps what a user typed (all but passwords and hidden fields) across a refused credentials
 * sign-in: saved in `sessionStorage` (this tab only) when the form is sent, put back when the page
 * comes back with an error, and forgotten otherwise. The server never echoes it into a URL.
 */
const credentialsPageScript = `(() => {
  const key = (form) => "authflow:credentials:" + form.dataset.credentialsForm
  const failed = document.getElementById(${JSON.stringify(signInErrorId)}) !== null
  for (const form of document.querySelectorAll("form[data-credentials-form]")) {
    const kept = (() => { try { return JSON.parse(sessionStorage.getItem(key(form)) || "{}") } catch { return {} } })()
    sessionStorage.removeItem(key(form))
    if (failed) for (const input of form.querySelectorAll("input")) {
      if (input.type !== "password" && input.type !== "hidden" && typeof kept[input.name] === "string" && !input.value) input.value = kept[input.name]
    }
    form.addEventListener("submit", () => {
      const values = {}
      for (const input of form.querySelectorAll("input")) if (input.type !== "password" && input.type !== "hidden" && input.name) values[input.name] = input.value
      try { sessionStorage.setItem(key(form), JSON.stringify(values)) } catch {}
    })
  }
})()`

/**
 * The sign-in page's script for credentials forms (see `credentialsPageScript`).
 *
 * @example
 * ```tsx
 * <>{hasCredentials ? credentialsScript() : null}</>
 * ```
 */
export function credentialsScript() {
  return <script dangerouslySetInnerHTML={{ __html: credentialsPageScript.replace(/</g, "\\u003c") }} />
}
