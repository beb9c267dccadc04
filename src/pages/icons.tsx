/**
 * Decorative icons for the page headers, drawn inline so the pages never fetch an image.
 *
 * @example
 * ```tsx
 * import { PageIcon } from "./icons.js"
 * const badge = <PageIcon name="mail" />
 * ```
 * @module
 */
import { h } from "./jsx.js"

/** The icons a page header can show. */
export type IconName = "mail" | "alert" | "exit" | "lock"

const PATHS: Record<IconName, string> = {
  // An envelope: the body and the flap.
  mail: "M4 6.5h16v11H4z M4.5 7l7.5 6 7.5-6",
  // A circle with an exclamation mark.
  alert: "M12 3.75a8.25 8.25 0 1 0 0 16.5a8.25 8.25 0 1 0 0-16.5z M12 8v5 M12 16.25v.01",
  // A door frame with an arrow leaving it.
  exit: "M10 4.5H5.5v15H10 M14 8l4 4-4 4 M18 12H9",
  // A padlock: the body and the shackle.
  lock: "M6 11h12v9H6z M8.5 11V8a3.5 3.5 0 0 1 7 0v3",
}

/**
 * A round badge holding a line icon; hidden from assistive technology since the heading says it all.
 *
 * @example
 * ```tsx
 * <PageIcon name="alert" tone="danger" />
 * ```
 */
export function PageIcon({ name, tone = "accent" }: { name: IconName; tone?: "accent" | "danger" }) {
  return (
    <div class={`badge badge-${tone}`} aria-hidden="true">
      <svg viewBox="0 0 24 24" width="30" height="30" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" focusable="false">
        <path d={PATHS[name]} />
      </svg>
    </div>
  )
}
