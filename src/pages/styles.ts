/**
 * The stylesheet shared by the built-in pages. Colours live in custom properties per scheme; the
 * body class `__next-auth-theme-<scheme>` selects one, and `auto` follows `prefers-color-scheme`.
 * Every text colour pair meets WCAG AA (4.5:1) in both schemes. It names no physical side (no
 * `left`/`right`): spacing is symmetric or logical, so Arabic and Hebrew pages (`dir="rtl"`) mirror
 * as they should; in them, fields for addresses and codes stay left to right, aligned to the start.
 * The rules only the second-factor pages draw with (checkboxes, the other methods' `<details>`, the
 * QR code, the secret, lists of factors and backup codes) are theirs: `factor-styles.ts`.
 *
 * @example
 * ```ts
 * import { baseStyles } from "./styles.js"
 * const css = baseStyles // inlined into each page's <style>
 * ```
 * @module
 */

const light = `color-scheme:light;
--page-bg:#f3f4f6;--card-bg:#ffffff;--text:#1f2328;--muted:#59636e;--border:#d0d7de;
--field-bg:#ffffff;--field-border:#8c959f;--neutral-bg:#f6f8fa;--neutral-hover:#eaeef2;
--link:#1d4ed8;--focus-ring:#1d4ed8;--accent-bg:#e8eefc;--accent-fg:#1d4ed8;--alert-bg:#fdeceb;--alert-text:#a1251e;--alert-border:#f3b7b2;
--shadow:0 1px 2px rgb(31 35 40 / 6%),0 8px 24px rgb(31 35 40 / 8%);`

const dark = `color-scheme:dark;
--page-bg:#0d1117;--card-bg:#1c2128;--text:#e6e8eb;--muted:#9ea7b3;--border:#373e47;
--field-bg:#151a21;--field-border:#6e7681;--neutral-bg:#2d333b;--neutral-hover:#373e47;
--link:#8cb4ff;--focus-ring:#8cb4ff;--accent-bg:#1f2b45;--accent-fg:#8cb4ff;--alert-bg:#3d1c1c;--alert-text:#ffc1bd;--alert-border:#7a2e2a;
--shadow:0 1px 2px rgb(0 0 0 / 30%),0 8px 24px rgb(0 0 0 / 35%);`

/** The base stylesheet; the theme's colour variables are appended after it. */
export const baseStyles = `
:root{--brand-color:#2f55d4;--button-text-color:#ffffff}
.__next-auth-theme-light,.__next-auth-theme-auto{${light}}
.__next-auth-theme-dark{${dark}}
@media (prefers-color-scheme:dark){.__next-auth-theme-auto{${dark}}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;min-height:100vh;min-height:100dvh;background:var(--page-bg);color:var(--text);
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:16px;line-height:1.5}
.page{display:flex;flex-direction:column;align-items:center;justify-content:center;min-height:100vh;min-height:100dvh;padding:32px 16px}
.logo{display:block;max-width:160px;max-height:64px;margin:0 auto 24px;object-fit:contain}
.card{width:100%;max-width:400px;background:var(--card-bg);border:1px solid var(--border);border-radius:12px;box-shadow:var(--shadow);padding:32px}
.card>:first-child{margin-top:0}
.card>:last-child{margin-bottom:0}
h1{margin:0 0 8px;font-size:1.5rem;line-height:1.25;font-weight:650;letter-spacing:-0.01em;text-align:center;text-wrap:balance}
.badge{display:flex;align-items:center;justify-content:center;width:56px;height:56px;margin:0 auto 16px;border-radius:50%}
.badge-accent{background:var(--accent-bg);color:var(--accent-fg)}
.badge-danger{background:var(--alert-bg);color:var(--alert-text)}
p{margin:0 0 16px}
.lead{color:var(--muted);text-align:center;text-wrap:balance}
.lead+.lead{margin-top:-12px}
.stack{display:flex;flex-direction:column;gap:12px}
.heading-gap{margin-top:24px}
a{color:var(--link);text-underline-offset:2px}
a:hover{text-decoration-thickness:2px}
label{display:block;font-weight:600;font-size:0.9375rem;margin-bottom:6px}
.field{margin:0}
input{display:block;width:100%;min-height:44px;padding:10px 12px;font:inherit;color:var(--text);background:var(--field-bg);
border:1px solid var(--field-border);border-radius:8px}
input::placeholder{color:var(--muted);opacity:1}
.button{display:flex;align-items:center;justify-content:center;gap:10px;width:100%;min-height:44px;padding:10px 16px;
font:inherit;font-weight:600;line-height:1.25;text-align:center;text-decoration:none;border-radius:8px;border:1px solid transparent;cursor:pointer}
.button:hover{text-decoration:none}
.primary{background-color:var(--brand-color);color:var(--button-text-color)}
.primary:hover{background-image:linear-gradient(rgb(0 0 0 / 12%),rgb(0 0 0 / 12%))}
.neutral{background-color:var(--neutral-bg);color:var(--text);border-color:var(--border)}
.neutral:hover{background-color:var(--neutral-hover)}
.branded{background-color:var(--provider-bg);color:var(--provider-text);border-color:var(--border)}
.branded:hover{background-image:linear-gradient(rgb(0 0 0 / 8%),rgb(0 0 0 / 8%))}
.provider-logo{width:20px;height:20px;flex:none;object-fit:contain}
:focus{outline:none}
:focus-visible,input:focus{outline:3px solid var(--focus-ring);outline-offset:2px}
.separator{display:flex;align-items:center;gap:12px;margin:24px 0;color:var(--muted);font-size:0.875rem}
.separator::before,.separator::after{content:"";flex:1;border-top:1px solid var(--border)}
.alert{margin:16px 0 24px;padding:12px 14px;border-radius:8px;border:1px solid var(--alert-border);background:var(--alert-bg);color:var(--alert-text);font-size:0.9375rem}
.alert p{margin:0}
.alert p+p{margin-top:6px}
.alert:focus{outline:2px solid var(--alert-border);outline-offset:2px}
.actions{margin-top:24px;display:flex;flex-direction:column;gap:12px}
.hint{margin:0;color:var(--muted);font-size:0.875rem}
[dir=rtl] input[type=email],[dir=rtl] input[inputmode=numeric]{direction:ltr;text-align:end}
@media (max-width:480px){.page{justify-content:flex-start;padding-top:24px}.card{padding:24px 20px}}
@media (forced-colors:active){.button{border:1px solid ButtonText}:focus-visible,input:focus{outline-color:Highlight}}
@media (prefers-reduced-motion:no-preference){.button,input{transition:background-color .15s,border-color .15s}}
`
  .replace(/\n/g, "")
