/** Browser navigation, kept in one place. */

/**
 * The page's current URL, or `""` outside a browser.
 *
 * @example
 * ```ts
 * const callbackUrl = currentHref()
 * ```
 */
export function currentHref(): string {
  return typeof window === "undefined" ? "" : window.location.href
}

/**
 * Sends the browser to `url`. A URL that differs from the current one only in its fragment does
 * not load a page by itself, so the page is reloaded then (a session change must show).
 *
 * @example
 * ```ts
 * navigate("/dashboard")
 * ```
 */
export function navigate(url: string): void {
  if (typeof window === "undefined") throw new TypeError("Navigation needs a browser: pass `redirect: false` elsewhere")
  const before = window.location.href
  window.location.href = url
  if (onlyHashDiffers(before, url)) window.location.reload()
}

function onlyHashDiffers(current: string, target: string): boolean {
  try {
    const from = new URL(current)
    const to = new URL(target, current)
    if (!to.hash) return false
    from.hash = ""
    to.hash = ""
    return from.href === to.href
  } catch {
    return false
  }
}
