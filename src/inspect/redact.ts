import { redact } from "../core/redact.js"
import type { AnyEventObject } from "xstate"

// One list of secret names and shapes for the inspector and the logs: see ../core/redact.ts.
export { REDACTED, isSecretKey, redact, redactText } from "../core/redact.js"
export type { RedactOptions } from "../core/redact.js"

/**
 * Options for `@statelyai/inspect` inspectors that make them receive what the authflow inspector
 * shows: `sanitizeContext` and `sanitizeEvent` redact contexts and events, and `serialize` redacts
 * the rest of each message (a finished machine's `output`, which for the OAuth sign-in holds its
 * checks). Without them a Stately inspector receives every value as it is, PKCE verifiers included.
 *
 * @example
 * ```ts
 * import { createWebSocketInspector } from "@statelyai/inspect"
 * import { statelySanitizers } from "authflow/inspect"
 *
 * const stately = createWebSocketInspector({ url: "ws://127.0.0.1:8080", ...statelySanitizers })
 * const config = { ...authConfig, inspect: stately.inspect }
 * ```
 */
export const statelySanitizers = {
  sanitizeContext: <T>(context: T): T => redact(context) as T,
  sanitizeEvent: (event: AnyEventObject): AnyEventObject => ({ ...(redact(event) as AnyEventObject), type: event.type }),
  serialize: <T extends object>(message: T): T => {
    const { snapshot, event } = message as { snapshot?: unknown; event?: { type?: unknown } }
    const copy: Record<string, unknown> = { ...(message as Record<string, unknown>) }
    if (snapshot !== undefined) copy.snapshot = redact(snapshot)
    if (event && typeof event === "object") copy.event = { ...(redact(event) as object), type: event.type }
    return copy as T
  },
}
