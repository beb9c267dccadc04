/**
 * Theme handling for the built-in pages: colour values from configuration are checked against a
 * small grammar before they reach a stylesheet, and text colours are picked for contrast.
 *
 * @example
 * ```ts
 * import { sanitizeCssColor, themeStyles } from "./theme.js"
 * sanitizeCssColor("#1d4ed8") // "#1d4ed8"
 * sanitizeCssColor("red;}</style><script>") // undefined
 * themeStyles({ brandColor: "#0a7" }) // ":root{--brand-color:#0a7;--button-text-color:#000000}"
 * ```
 * @module
 */
import type { Theme } from "../types.js"

/** The colour schemes a page can be rendered in; anything else falls back to `auto`. */
export type ColorScheme = "auto" | "dark" | "light"

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i
// No parentheses, quotes, semicolons, braces or angle brackets inside: nothing can end the declaration.
const FUNCTIONAL = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([-+0-9a-z.%\s,/]*\)$/i
const NAMED = /^[a-z]{3,32}$/i

/**
 * Return `value` when it is a plain CSS colour (hex, a colour function with numeric arguments, or a
 * keyword), else `undefined`. Anything that could end a declaration, a rule or the `<style>` element
 * is refused, so a theme string cannot inject CSS or markup.
 *
 * @example
 * ```ts
 * sanitizeCssColor("rgb(10 20 30 / 50%)") // "rgb(10 20 30 / 50%)"
 * sanitizeCssColor("red; background: url(https://evil.example)") // undefined
 * ```
 * @see https://www.w3.org/TR/css-color-4/#color-syntax
 */
export function sanitizeCssColor(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const color = value.trim()
  if (color.length === 0 || color.length > 64) return undefined
  return HEX.test(color) || FUNCTIONAL.test(color) || NAMED.test(color) ? color : undefined
}

/**
 * The colour scheme to render: `theme.colorScheme` when it is one of `auto`, `dark`, `light`, else `auto`.
 *
 * @example
 * ```ts
 * colorSchemeOf({ colorScheme: "dark" }) // "dark"
 * colorSchemeOf({}) // "auto"
 * ```
 */
export function colorSchemeOf(theme: Theme | undefined): ColorScheme {
  const scheme = theme?.colorScheme
  return scheme === "dark" || scheme === "light" ? scheme : "auto"
}

function channels(hex: string): [number, number, number] | undefined {
  if (!HEX.test(hex)) return undefined
  let digits = hex.slice(1)
  if (digits.length <= 4) digits = [...digits].map((d) => d + d).join("")
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16))
  return [r!, g!, b!]
}

function luminance([r, g, b]: [number, number, number]): number {
  const linear = (c: number) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/**
 * WCAG contrast ratio of two hex colours (1 to 21), or `undefined` when either is not a hex colour.
 *
 * @example
 * ```ts
 * contrastRatio("#ffffff", "#000000") // 21
 * ```
 * @see https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio
 */
export function contrastRatio(a: string, b: string): number | undefined {
  const ca = channels(a)
  const cb = channels(b)
  if (!ca || !cb) return undefined
  const [hi, lo] = [luminance(ca), luminance(cb)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/**
 * Black or white, whichever reads better on the hex colour `background`; `undefined` for other colours.
 *
 * @example
 * ```ts
 * readableTextColor("#24292f") // "#ffffff"
 * readableTextColor("#ffd33d") // "#000000"
 * ```
 */
export function readableTextColor(background: string): "#ffffff" | "#000000" | undefined {
  const onWhite = contrastRatio(background, "#ffffff")
  const onBlack = contrastRatio(background, "#000000")
  if (onWhite === undefined || onBlack === undefined) return undefined
  return onWhite >= onBlack ? "#ffffff" : "#000000"
}

/**
 * Background and text colours of a button drawn in a configured colour. The text colour is kept when
 * it cannot be measured (not hex) or reads well enough (4.5:1); otherwise black or white is chosen. Returns
 * `undefined` when there is no usable background, so the button keeps the page's neutral look.
 *
 * @example
 * ```ts
 * buttonColors("#24292f", undefined) // { background: "#24292f", text: "#ffffff" }
 * buttonColors("nonsense;", "#fff") // undefined
 * ```
 */
export function buttonColors(
  background: unknown,
  text: unknown,
): { background: string; text: string } | undefined {
  const bg = sanitizeCssColor(background)
  if (!bg) return undefined
  const fg = sanitizeCssColor(text)
  // A pair we cannot measure (a colour function, a keyword) is the configuration's own choice.
  const ratio = fg ? contrastRatio(bg, fg) : undefined
  if (fg && (ratio === undefined || ratio >= 4.5)) return { background: bg, text: fg }
  const readable = readableTextColor(bg)
  return readable ? { background: bg, text: readable } : undefined
}

/**
 * The stylesheet rule carrying the theme's `--brand-color` and `--button-text-color`, or `""` when the
 * theme sets neither. Unsafe values are dropped; a brand colour without a button text colour gets black
 * or white text, whichever contrasts more.
 *
 * @example
 * ```ts
 * themeStyles({ brandColor: "#6d28d9", buttonText: "#fff" }) // ":root{--brand-color:#6d28d9;--button-text-color:#fff}"
 * ```
 */
export function themeStyles(theme: Theme | undefined): string {
  const brand = sanitizeCssColor(theme?.brandColor)
  const explicitText = sanitizeCssColor(theme?.buttonText)
  const text = explicitText ?? (brand ? readableTextColor(brand) : undefined)
  const declarations: string[] = []
  if (brand) declarations.push(`--brand-color:${brand}`)
  if (text) declarations.push(`--button-text-color:${text}`)
  return declarations.length ? `:root{${declarations.join(";")}}` : ""
}
