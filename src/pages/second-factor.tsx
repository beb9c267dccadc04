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
import { Fragment, h } from "./jsx.js"
import { englishWith } from "../core/i18n/english.js"
import { messages as secondFactor } from "../core/i18n/english/second-factor.js"
import type { KeysOf } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import type { Theme } from "../types.js"
import { PageIcon } from "./icons.js"
import { factorStyles } from "./factor-styles.js"
import { renderDocument, safeUrl } from "./layout.js"
import type { RenderedPage } from "./types.js"

// The English of this page's area, when it is given no translator.
const english = englishWith(secondFactor)

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
  /** The request's language. @default English */
  text?: Translator<KeysOf<"secondFactor">>
}

const LABELS: Record<SecondFactorPageMethod, { label: KeysOf<"secondFactor">; hint: KeysOf<"secondFactor">; inputMode: "numeric" | "text"; autocomplete: string }> = {
  totp: { label: "totpLabel", hint: "totpHint", inputMode: "numeric", autocomplete: "one-time-code" },
  backup: { label: "backupCodeLabel", hint: "backupCodeHint", inputMode: "text", autocomplete: "off" },
  email: { label: "emailCodeLabel", hint: "emailCodeHint", inputMode: "numeric", autocomplete: "one-time-code" },
}

/** The catalog message for each refusal reason; another reason shows `secondFactorRefused`. */
export const SECOND_FACTOR_REFUSAL_KEYS: Readonly<Record<string, KeysOf<"secondFactor">>> = Object.freeze({
  "wrong-code": "codeWrong",
  "replayed-code": "secondFactorReplayedCode",
  "unknown-backup-code": "secondFactorUnknownBackupCode",
  "expired-email-code": "secondFactorExpiredEmailCode",
  "no-email-code": "secondFactorNoEmailCode",
})

/** What the page says in English for each refusal reason (see {@link SECOND_FACTOR_REFUSAL_KEYS}). */
export const SECOND_FACTOR_REFUSALS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(SECOND_FACTOR_REFUSAL_KEYS).map(([reason, key]) => [reason, english.t(key)])),
)

// The lifetime of an emailed code (EMAIL_CODE_LIFETIME of the second-factor actions), as the page states it.
const EMAIL_CODE_MINUTES = 10

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
  const { action, csrfToken, methods, refusal, emailSent = false, trustedDeviceDays = 0, theme, text = english } = props
  const { t } = text
  const first = props.method && methods.includes(props.method) ? props.method : emailSent && methods.includes("email") ? "email" : methods[0]
  const others = methods.filter((method) => method !== first)
  const url = safeUrl(action)
  const message = refusal ? t(Object.hasOwn(SECOND_FACTOR_REFUSAL_KEYS, refusal) ? SECOND_FACTOR_REFUSAL_KEYS[refusal]! : "secondFactorRefused") : undefined
  const form = (method: SecondFactorPageMethod, focus: boolean) => {
    const labels = LABELS[method]
    const id = `second-factor-${method}`
    return (
      <form action={url} method="post" class="second-factor stack">
        <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
        <input type="hidden" name="method" value={method} />
        <div class="field">
          <label for={id}>{t(labels.label)}</label>
          <input id={id} name="code" type="text" inputmode={labels.inputMode} autocomplete={labels.autocomplete} required autofocus={focus} spellcheck={false} aria-describedby={`${id}-hint`} />
        </div>
        <p class="hint" id={`${id}-hint`}>{t(labels.hint)}</p>
        {trustedDeviceDays > 0 ? (
          <label class="check">
            <input type="checkbox" name="remember" value="true" /> {t("rememberDevice", { duration: text.duration(trustedDeviceDays, "day") })}
          </label>
        ) : null}
        <button type="submit" class="button primary">{t("verifyButton")}</button>
      </form>
    )
  }
  const emailRequest = (
    <form action={url} method="post" class="second-factor-email">
      <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
      <input type="hidden" name="method" value="email" />
      <input type="hidden" name="send" value="true" />
      <button type="submit" class="button neutral">{t(emailSent ? "emailMeNewCode" : "emailMeCode")}</button>
    </form>
  )
  return renderDocument({
    title: t("secondFactorTitle"),
    status: 200,
    theme,
    text,
    styles: factorStyles,
    children: (
      <>
        <PageIcon name="lock" />
        <h1>{t("secondFactorTitle")}</h1>
        {message ? <div class="alert" role="alert"><p>{message}</p></div> : null}
        {emailSent ? <p class="lead" role="status">{t("secondFactorEmailSent", { duration: text.duration(EMAIL_CODE_MINUTES, "minute") })}</p> : null}
        {first ? form(first, true) : null}
        {first === "email" ? <div class="actions">{emailRequest}</div> : null}
        {others.map((method) => (
          <details>
            <summary>{t(SWITCH[method])}</summary>
            {method === "email" ? <div class="actions">{emailRequest}</div> : null}
            {form(method, false)}
          </details>
        ))}
      </>
    ),
  })
}

/** The link to each other method. */
const SWITCH: Record<SecondFactorPageMethod, KeysOf<"secondFactor">> = {
  totp: "useTotpInstead",
  backup: "useBackupCodeInstead",
  email: "useEmailInstead",
}
