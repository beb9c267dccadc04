/**
 * The built-in second-factor page: after the first factor, the person types an authenticator
 * app's code, a backup code, or a code sent by email, and may ask for that email.
 *
 * @example
 * ```ts
 * import { renderSecondFactorPage } from "./second-factor.js"
 * const { html } = renderSecondFactorPage({ action: "/auth/second-factor", csrfToken: "a1b2c3", methods: ["totp", "backup"], theme: {} })
 * ```
 * @module
 */
import type { Theme } from "../types.js"
import { PageIcon } from "./icons.js"
import { renderDocument, safeUrl } from "./layout.js"
import type { RenderedPage } from "./types.js"

/** A way to pass the second factor, as the page offers it. */
export type SecondFactorPageMethod = "totp" | "backup" | "email"

/** Props of {@link renderSecondFactorPage}. */
export interface SecondFactorPageProps {
  /** Where the forms post: `<basePath>/second-factor`. */
  action: string
  csrfToken?: string
  /** The methods this sign-in offers, in the order shown. */
  methods: SecondFactorPageMethod[]
  /** The method shown first. @default the first of `methods` */
  method?: SecondFactorPageMethod
  /** Why the last code was refused (`reason` of `SecondFactorRefused`). @default none */
  refusal?: string
  /** A code was just emailed. @default false */
  emailSent?: boolean
  /** Days "remember this device" lasts; 0 hides the choice. @default 0 */
  trustedDeviceDays?: number
  theme: Theme
}

const LABELS: Record<SecondFactorPageMethod, { label: string; hint: string; inputMode: "numeric" | "text"; autocomplete: string }> = {
  totp: { label: "Code from your authenticator app", hint: "Open your authenticator app and type the 6-digit code it shows.", inputMode: "numeric", autocomplete: "one-time-code" },
  backup: { label: "Backup code", hint: "Type one of the backup codes you saved. Each works once.", inputMode: "text", autocomplete: "off" },
  email: { label: "Code from your email", hint: "Type the 6-digit code we emailed you.", inputMode: "numeric", autocomplete: "one-time-code" },
}

/** What the page says for each refusal reason. */
export const SECOND_FACTOR_REFUSALS: Readonly<Record<string, string>> = Object.freeze({
  "wrong-code": "That code is not right. Check it and try again.",
  "replayed-code": "That code was used already. Wait for the next one and try again.",
  "unknown-backup-code": "That backup code is not valid, or was used already.",
  "expired-email-code": "That code has expired. Ask for a new one.",
  "no-email-code": "Ask for a code by email first.",
})

/**
 * Render the second-factor page (status 200, title "Two-step verification"): one form per method
 * posting `csrfToken`, `method` and `code` (and `remember` when offered), and, where email is
 * offered, a button that asks for a code.
 *
 * @example
 * ```ts
 * const page = renderSecondFactorPage({ action: "/auth/second-factor", methods: ["totp"], refusal: "wrong-code", theme: {} })
 * page.html.includes("That code is not right") // true
 * ```
 */
export function renderSecondFactorPage(props: SecondFactorPageProps): RenderedPage {
  const { action, csrfToken, methods, refusal, emailSent = false, trustedDeviceDays = 0, theme } = props
  const first = props.method && methods.includes(props.method) ? props.method : emailSent && methods.includes("email") ? "email" : methods[0]
  const others = methods.filter((method) => method !== first)
  const url = safeUrl(action)
  const message = refusal ? (SECOND_FACTOR_REFUSALS[refusal] ?? "That code was refused. Try again.") : undefined
  const form = (method: SecondFactorPageMethod, focus: boolean) => {
    const text = LABELS[method]
    const id = `second-factor-${method}`
    return (
      <form action={url} method="post" class="second-factor stack">
        <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
        <input type="hidden" name="method" value={method} />
        <div class="field">
          <label for={id}>{text.label}</label>
          <input id={id} name="code" type="text" inputMode={text.inputMode} autoComplete={text.autocomplete} required autoFocus={focus} spellcheck={false} aria-describedby={`${id}-hint`} />
        </div>
        <p class="hint" id={`${id}-hint`}>{text.hint}</p>
        {trustedDeviceDays > 0 ? (
          <label class="check">
            <input type="checkbox" name="remember" value="true" /> Don't ask again on this device for {trustedDeviceDays} days
          </label>
        ) : null}
        <button type="submit" class="button primary">Verify</button>
      </form>
    )
  }
  const emailRequest = (
    <form action={url} method="post" class="second-factor-email">
      <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
      <input type="hidden" name="method" value="email" />
      <input type="hidden" name="send" value="true" />
      <button type="submit" class="button neutral">{emailSent ? "Email me a new code" : "Email me a code"}</button>
    </form>
  )
  return renderDocument({
    title: "Two-step verification",
    status: 200,
    theme,
    children: (
      <>
        <PageIcon name="lock" />
        <h1>Two-step verification</h1>
        {message ? <div class="alert" role="alert"><p>{message}</p></div> : null}
        {emailSent ? <p class="lead" role="status">We emailed you a code. It works for 10 minutes.</p> : null}
        {first ? form(first, true) : null}
        {first === "email" ? <div class="actions">{emailRequest}</div> : null}
        {others.map((method) => (
          <details key={method}>
            <summary>{SWITCH[method]}</summary>
            {method === "email" ? <div class="actions">{emailRequest}</div> : null}
            {form(method, false)}
          </details>
        ))}
      </>
    ),
  })
}

/** The link to each other method. */
const SWITCH: Record<SecondFactorPageMethod, string> = {
  totp: "Use your authenticator app instead",
  backup: "Use a backup code instead",
  email: "Get a code by email instead",
}
