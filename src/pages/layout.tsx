/**
 * The document shell shared by the built-in pages: `<head>` with title and inlined styles, the
 * theme's body class, the optional logo and the centred card; and the helpers the pages' parts
 * share (safe URLs, the displayed host, the sign-in forms' field ids and CSRF field).
 *
 * @example
 * ```tsx
 * import { renderDocument } from "./layout.js"
 * const page = renderDocument({ title: "Sign Out", status: 200, theme: {}, children: <h1>Bye</h1> })
 * page.html.startsWith("<!DOCTYPE html>") // true
 * ```
 * @module
 */
import { h, renderToString, type ComponentChildren } from "./jsx.js"
import { english } from "../core/i18n/english.js"
import type { CoreKey } from "../core/i18n/messages.js"
import type { Translator } from "../core/i18n/translate.js"
import type { Theme } from "../types.js"
import { baseStyles } from "./styles.js"
import { colorSchemeOf, themeStyles } from "./theme.js"
import type { RenderedPage } from "./types.js"

/** What {@link renderDocument} needs to build a page. */
export interface DocumentProps {
  title: string
  status: number
  theme: Theme | undefined
  children: ComponentChildren
  /** Rules of this page's own, after the shared stylesheet (`factor-styles.ts` for the second-factor pages). @default none */
  styles?: string
  /** The request's language: `<html lang>`, `dir="rtl"` for Arabic and Hebrew, the logo's text. @default English */
  text?: Translator<CoreKey>
}

// The stylesheet is inlined raw (text in <style> is not parsed as HTML, so escaping would corrupt it).
// Its only configurable parts went through sanitizeCssColor; this is the belt to that brace.
function styleSheet(theme: Theme | undefined, styles: string): string {
  return (baseStyles + styles + themeStyles(theme)).replace(/</g, "\\3c ")
}

/**
 * A URL that is safe in `href`/`src`: http(s), or a relative reference. Anything with another scheme
 * (`javascript:`, `data:` in links) becomes `fallback`.
 *
 * @example
 * ```ts
 * safeUrl("https://app.example/auth/signin") // "https://app.example/auth/signin"
 * safeUrl("javascript:alert(1)") // "#"
 * ```
 */
export function safeUrl(value: string | undefined, fallback = "#", allowImageData = false): string {
  if (!value) return fallback
  // Browsers drop tabs, newlines and other controls inside URLs: "java\nscript:" must not pass as relative.
  const url = value.replace(/[\u0000-\u001f\u007f]/g, "").trim()
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase()
  if (scheme === undefined) return url
  if (scheme === "http" || scheme === "https") return url
  if (allowImageData && /^data:image\/(?:png|gif|jpe?g|webp|avif|svg\+xml)[;,]/i.test(url)) return url
  return fallback
}

/**
 * The host of an origin for display (`https://app.example:8443` → `app.example:8443`); the input when
 * it is not a URL.
 *
 * @example
 * ```ts
 * displayHost("https://app.example") // "app.example"
 * ```
 */
export function displayHost(origin: string): string {
  try {
    return new URL(origin).host || origin
  } catch {
    return origin
  }
}

/**
 * The id of a provider's field, for its `<label for>`: the provider id and the field's key, each
 * run of characters outside letters, digits, `_` and `-` made one dash.
 *
 * @example
 * ```ts
 * fieldId("my provider", "email") // "my-provider-field-email"
 * ```
 */
export function fieldId(providerId: string, key: string): string {
  const slug = (s: string) => s.replace(/[^a-z0-9_-]+/gi, "-")
  return `${slug(providerId)}-field-${slug(key)}`
}

/**
 * The hidden `csrfToken` field the sign-in page's provider forms post.
 *
 * @example
 * ```tsx
 * <CsrfInput csrfToken="a1b2c3" />
 * ```
 */
export function CsrfInput({ csrfToken }: { csrfToken: string | undefined }) {
  return <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
}

/**
 * Render a full HTML document around `children`: `lang` of `text` (`"en"` by default, with
 * `dir="rtl"` for a right-to-left language), viewport, title, styles, the body class
 * `__next-auth-theme-<colorScheme>` (kept for apps that style it) and the theme's logo above the card.
 *
 * @example
 * ```tsx
 * renderDocument({ title: "Error", status: 500, theme: { colorScheme: "dark" }, children: <h1>Server error</h1> })
 * // { status: 500, html: "<!DOCTYPE html><html lang=\"en\">…" }
 * ```
 */
export function renderDocument({ title, status, theme, children, styles = "", text = english }: DocumentProps): RenderedPage {
  const scheme = colorSchemeOf(theme)
  const logo = theme?.logo ? safeUrl(theme.logo, "", true) : ""
  const body = renderToString(
    <html lang={text.locale} dir={text.dir === "rtl" ? "rtl" : undefined}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={scheme === "auto" ? "light dark" : scheme} />
        <meta name="robots" content="noindex, nofollow" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: styleSheet(theme, styles) }} />
      </head>
      <body class={`__next-auth-theme-${scheme}`}>
        <main class="page">
          {logo ? <img class="logo" src={logo} alt={text.t("logoAlt")} /> : null}
          <div class="card">{children}</div>
        </main>
      </body>
    </html>,
  )
  return { status, html: `<!DOCTYPE html>${body}` }
}
