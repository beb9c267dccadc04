/**
 * The sign-in page's part for a WebAuthn provider: a form with the provider's `formFields` and a
 * passkey button, the `@simplewebauthn/browser` bundle inlined (never a CDN), and a small script
 * that runs the ceremony and posts `action`, `data`, `csrfToken` and `callbackUrl` to the
 * provider's callback, as the Auth.js v5 page does.
 *
 * @example
 * ```tsx
 * import { PasskeyForm, webauthnScripts } from "./webauthn-form.js"
 * const form = <PasskeyForm provider={passkey} csrfToken="a1b2c3" callbackUrl="/dashboard" />
 * ```
 * @module
 */
import { Fragment, h, type HtmlAttributes } from "./jsx.js"
import { english } from "../core/i18n/english.js"
import type { CoreKey } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import { CsrfInput, fieldId, safeUrl } from "./layout.js"
import type { PageProvider } from "./types.js"
import { SIMPLEWEBAUTHN_BROWSER_BUNDLE } from "./webauthn-browser.js"

// Runs in the browser. Reads everything from the form's data attributes, so nothing from the
// request is interpolated into script text.
const pageScript = `(() => {
  const { startRegistration, startAuthentication, browserSupportsWebAuthnAutofill } = globalThis.SimpleWebAuthnBrowser
  for (const form of document.querySelectorAll("form[data-webauthn-options]")) {
    const status = form.querySelector("[data-webauthn-status]")
    let conditional
    const run = async (action, autofill) => {
      const query = new URLSearchParams()
      if (action) query.set("action", action)
      const email = form.elements.namedItem("email")
      if (!autofill && email && email.value) query.set("email", email.value)
      const response = await fetch(form.dataset.webauthnOptions + "?" + query, { credentials: "same-origin" })
      if (!response.ok) throw new Error("options request answered " + response.status)
      const ceremony = await response.json()
      const data = ceremony.action === "register"
        ? await startRegistration({ optionsJSON: ceremony.options })
        : await startAuthentication({ optionsJSON: ceremony.options, useBrowserAutofill: autofill })
      form.elements.namedItem("action").value = ceremony.action
      form.elements.namedItem("data").value = JSON.stringify(data)
      HTMLFormElement.prototype.submit.call(form)
    }
    const fail = (error) => {
      if (error && error.name === "AbortError") return
      console.error("[authflow] passkey:", error)
      if (status) { status.hidden = false; status.querySelector("p").textContent = status.dataset.webauthnFailed }
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault()
      if (status) status.hidden = true
      run(undefined, false).catch(fail)
    })
    if (form.dataset.webauthnConditional === "true") {
      browserSupportsWebAuthnAutofill().then((supported) => supported && run("authenticate", true)).catch(fail)
    }
  }
})()`

function escapeScript(source: string): string {
  // Text in <script> ends at "</script"; neither source contains it, but a future bundle might.
  return source.replace(/<\/(script)/gi, "<\\/$1")
}

/**
 * The two inline scripts a page with a {@link PasskeyForm} needs: the bundle, then the page script.
 *
 * @example
 * ```tsx
 * <>{webauthnScripts()}</>
 * ```
 */
export function webauthnScripts() {
  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: escapeScript(SIMPLEWEBAUTHN_BROWSER_BUNDLE) }} />
      <script dangerouslySetInnerHTML={{ __html: escapeScript(pageScript) }} />
    </>
  )
}

/**
 * `<basePath>/webauthn-options/<id>`, derived from the provider's `callbackUrl`
 * (`<basePath>/callback/<id>`).
 *
 * @example
 * ```ts
 * webauthnOptionsUrl({ id: "passkey", callbackUrl: "https://app.example/auth/callback/passkey" }) // "https://app.example/auth/webauthn-options/passkey"
 * ```
 */
export function webauthnOptionsUrl(provider: Pick<PageProvider, "id" | "callbackUrl">): string {
  const suffix = `/callback/${provider.id}`
  const base = provider.callbackUrl.endsWith(suffix) ? provider.callbackUrl.slice(0, -suffix.length) : provider.callbackUrl.replace(/\/callback\/[^/]*$/, "")
  return `${base}/webauthn-options/${encodeURIComponent(provider.id)}`
}

/**
 * A WebAuthn provider: its `formFields` (the email field gets `autocomplete="username webauthn"`
 * for browser autofill), hidden `action`/`data`/`csrfToken`/`callbackUrl`, and a
 * "Sign in with <name>" button (in `text`'s language, English by default); the script fills
 * `action` and `data` and submits to `callbackUrl`, or shows the alert's `data-webauthn-failed` text.
 *
 * @example
 * ```tsx
 * <PasskeyForm provider={{ ...passkey, enableConditionalUI: true }} csrfToken="a1b2c3" />
 * ```
 */
export function PasskeyForm({ provider, csrfToken, callbackUrl, text = english }: { provider: PageProvider; csrfToken?: string; callbackUrl?: string; text?: Translator<CoreKey> }) {
  const fields = Object.entries(provider.formFields ?? {})
  const conditional = provider.enableConditionalUI === true
  return (
    <form
      action={safeUrl(provider.callbackUrl)}
      method="post"
      class="stack"
      data-webauthn-options={safeUrl(webauthnOptionsUrl(provider))}
      data-webauthn-conditional={conditional ? "true" : "false"}
    >
      <CsrfInput csrfToken={csrfToken} />
      {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
      <input type="hidden" name="action" value="" />
      <input type="hidden" name="data" value="" />
      {fields.map(([key, field]) => {
        const id = fieldId(provider.id, key)
        const attributes: Record<string, string | boolean> = { id, name: key, type: typeof field.type === "string" ? field.type : key === "email" ? "email" : "text" }
        if (typeof field.placeholder === "string") attributes.placeholder = field.placeholder
        if (field.required === true) attributes.required = true
        const autocomplete = typeof field.autocomplete === "string" ? field.autocomplete : ""
        // Conditional UI only offers passkeys on a field whose autocomplete names "webauthn".
        attributes.autocomplete = conditional && !autocomplete.split(/\s+/).includes("webauthn") ? `${autocomplete || "username"} webauthn` : autocomplete || "off"
        return (
          <div class="field">
            <label for={id}>{typeof field.label === "string" ? field.label : key}</label>
            <input {...(attributes as HtmlAttributes)} />
          </div>
        )
      })}
      <div class="alert" role="alert" data-webauthn-status data-webauthn-failed={text.t("passkeyFailed")} hidden>
        <p />
      </div>
      <button type="submit" class="button primary">{text.t("signInWith", { provider: provider.name })}</button>
    </form>
  )
}
