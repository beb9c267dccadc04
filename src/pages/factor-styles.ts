/**
 * The rules only the second-factor pages use, added after the shared stylesheet (`styles.ts`) by
 * `second-factor.tsx` and `factors.tsx`, so the sign-in, sign-out, error and verify-request pages
 * neither load nor ship them: the trusted-device checkbox, the other methods under `<details>`, the
 * QR code, the secret (left to right in Arabic and Hebrew pages, as the code fields), and the lists
 * of factors and backup codes.
 *
 * @example
 * ```tsx
 * import { factorStyles } from "./factor-styles.js"
 * renderDocument({ title, status: 200, theme, text, styles: factorStyles, children })
 * ```
 * @module
 */

/** The second-factor pages' own rules. */
export const factorStyles = `
.check{display:flex;align-items:center;gap:10px;margin:0;font-weight:400}
.check input{width:18px;height:18px;min-height:0;margin:0;flex:none}
.plain-list{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:16px}
details{margin-top:16px}
summary{cursor:pointer;color:var(--link)}
details>form{margin-top:12px}
.qr svg{display:block;width:100%;max-width:240px;margin:0 auto}
[dir=rtl] .secret{direction:ltr;text-align:end}
.codes{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:1fr 1fr;gap:8px;font-family:ui-monospace,monospace}
`.replace(/\n/g, "")
