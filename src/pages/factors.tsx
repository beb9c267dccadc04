/**
 * The built-in pages of second-factor management (`/factors`): the list with its forms, the
 * enrolment page (QR code, the secret to type, the confirming form), and the backup codes, shown
 * once.
 *
 * @example
 * ```ts
 * import { renderFactorsPage } from "./factors.js"
 * const { html } = renderFactorsPage({ action: "/auth/factors", csrfToken: "a1b2c3", factors: [], backupCodes: 0, theme: {} })
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

/** A factor as the list shows it. */
export interface FactorsPageFactor {
  id: string
  name: string
  createdAt: string
}

/** Props shared by the management pages. */
interface FactorsPageBase {
  /** Where the forms post: `<basePath>/factors`. */
  action: string
  csrfToken?: string
  theme: Theme
  /** The request's language. @default English */
  text?: Translator<KeysOf<"secondFactor">>
}

/** Props of {@link renderFactorsPage}. */
export interface FactorsPageProps extends FactorsPageBase {
  factors: FactorsPageFactor[]
  /** Backup codes left. */
  backupCodes: number
  /** What the last request ended with, shown above the list (already in the request's language). @default none */
  notice?: string
}

/** Props of {@link renderEnrolPage}. */
export interface EnrolPageProps extends FactorsPageBase {
  /** The QR code of the `otpauth://` URI, as inline SVG. */
  qrSvg: string
  /** The secret in base32, for typing into an app that cannot scan. */
  secret: string
  /** The last code was wrong. @default false */
  codeRefused?: boolean
}

/** Props of {@link renderBackupCodesPage}. */
export interface BackupCodesPageProps {
  codes: string[]
  /** Where "Done" goes: the list. */
  continueUrl: string
  theme: Theme
  /** The request's language. @default English */
  text?: Translator<KeysOf<"secondFactor">>
}

function Hidden({ csrfToken, action }: { csrfToken: string | undefined; action: string }) {
  return (
    <>
      <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
      <input type="hidden" name="action" value={action} />
    </>
  )
}

/**
 * Render the list of the user's authenticator apps (rename, remove; removing the last one asks for
 * a code from it), the backup codes left (regenerate), and "Add an authenticator app".
 *
 * @example
 * ```ts
 * renderFactorsPage({ action: "/auth/factors", factors: [{ id: "f1", name: "Phone", createdAt: "2026-11-26T10:00:00.000Z" }], backupCodes: 9, theme: {} }).html.includes("Phone") // true
 * ```
 */
export function renderFactorsPage({ action, csrfToken, factors, backupCodes, notice, theme, text = english }: FactorsPageProps): RenderedPage {
  const url = safeUrl(action)
  const { t } = text
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
        {notice ? <p class="lead" role="status">{notice}</p> : null}
        {factors.length === 0 ? <p>{t("factorsNone")}</p> : null}
        <ul class="factors plain-list">
          {factors.map((factor) => (
            <li>
              <form action={url} method="post" class="rename stack">
                <Hidden csrfToken={csrfToken} action="rename" />
                <input type="hidden" name="factorId" value={factor.id} />
                <label for={`name-${factor.id}`}>{t("nameLabel")}</label>
                <input id={`name-${factor.id}`} name="name" type="text" value={factor.name} required maxlength={64} />
                <button type="submit" class="button neutral">{t("renameButton")}</button>
              </form>
              <form action={url} method="post" class="remove stack">
                <Hidden csrfToken={csrfToken} action="remove" />
                <input type="hidden" name="factorId" value={factor.id} />
                {factors.length === 1 ? (
                  <>
                    <label for={`code-${factor.id}`}>{t("removeLastFactorLabel", { name: factor.name })}</label>
                    <input id={`code-${factor.id}`} name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required />
                  </>
                ) : null}
                <button type="submit" class="button neutral">{t("removeButton", { name: factor.name })}</button>
              </form>
            </li>
          ))}
        </ul>
        <div class="actions">
          <form action={url} method="post">
            <Hidden csrfToken={csrfToken} action="enrol" />
            <button type="submit" class="button primary">{t("addAppButton")}</button>
          </form>
          <p class="hint">{t("backupCodesLeft", { count: backupCodes })}</p>
          <form action={url} method="post">
            <Hidden csrfToken={csrfToken} action="regenerate" />
            <button type="submit" class="button neutral">{t("newBackupCodesButton")}</button>
          </form>
        </div>
      </>
    ),
  })
}

/**
 * Render the enrolment page: scan the QR code (or type the secret), then type the code the app
 * shows; the app is added only once that code is right.
 *
 * @example
 * ```ts
 * renderEnrolPage({ action: "/auth/factors", qrSvg: "<svg …/>", secret: "JBSWY3DPEHPK3PXP", theme: {} }).html.includes("JBSWY3DPEHPK3PXP") // true
 * ```
 */
export function renderEnrolPage({ action, csrfToken, qrSvg, secret, codeRefused = false, theme, text = english }: EnrolPageProps): RenderedPage {
  const { t } = text
  return renderDocument({
    title: t("addAppButton"),
    status: 200,
    theme,
    text,
    styles: factorStyles,
    children: (
      <>
        <h1>{t("addAppButton")}</h1>
        <p class="lead">{t("enrolLead")}</p>
        <div class="qr" dangerouslySetInnerHTML={{ __html: qrSvg }} />
        <p>
          {t("enrolKey")} <code class="secret">{secret.replace(/(.{4})/g, "$1 ").trim()}</code>
        </p>
        {codeRefused ? <div class="alert" role="alert"><p>{t("enrolCodeWrong")}</p></div> : null}
        <form action={safeUrl(action)} method="post" class="stack">
          <Hidden csrfToken={csrfToken} action="confirm" />
          <div class="field">
            <label for="factor-name">{t("nameLabel")}</label>
            <input id="factor-name" name="name" type="text" value={t("enrolDefaultName")} maxlength={64} />
          </div>
          <div class="field">
            <label for="factor-code">{t("enrolCodeLabel")}</label>
            <input id="factor-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required autofocus />
          </div>
          <button type="submit" class="button primary">{t("addButton")}</button>
        </form>
      </>
    ),
  })
}

/**
 * Render the backup codes, shown once: each signs in once when the app is not at hand.
 *
 * @example
 * ```ts
 * renderBackupCodesPage({ codes: ["abcde-fghjk"], continueUrl: "/auth/factors", theme: {} }).html.includes("abcde-fghjk") // true
 * ```
 */
export function renderBackupCodesPage({ codes, continueUrl, theme, text = english }: BackupCodesPageProps): RenderedPage {
  const { t } = text
  return renderDocument({
    title: t("backupCodesTitle"),
    status: 200,
    theme,
    text,
    styles: factorStyles,
    children: (
      <>
        <h1>{t("backupCodesHeading")}</h1>
        <p class="lead">{t("backupCodesLead")}</p>
        <ul class="backup-codes codes">
          {codes.map((code) => (
            <li>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <div class="actions">
          <a class="button primary" href={safeUrl(continueUrl, "/")}>{t("doneButton")}</a>
        </div>
      </>
    ),
  })
}
