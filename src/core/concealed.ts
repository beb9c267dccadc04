/**
 * A secret a flow carries from one effect to the next (the token an email link carries, between
 * storing it and mailing it) without it showing anywhere the flow's context is shown: it sits in
 * a private field, so `JSON.stringify`, `structuredClone`, an xstate inspector (the Stately
 * inspector included), `util.inspect` and authflow's redaction see `"[redacted]"` (or nothing),
 * and only the effect that calls {@link Concealed.reveal} reads it. Never persisted: a snapshot
 * serialised with it keeps `"[redacted]"`.
 *
 * @module
 */
import { REDACTED } from "./redact.js"

/**
 * A value hidden from everything that shows or serialises the object holding it.
 *
 * @example
 * ```ts
 * const token = new Concealed("3f9a…")
 * JSON.stringify({ token }) // '{"token":"[redacted]"}'
 * token.reveal() // "3f9a…"
 * ```
 */
export class Concealed<T> {
  readonly #value: T

  constructor(value: T) {
    this.#value = value
  }

  /** The hidden value, for the effect that needs it. */
  reveal(): T {
    return this.#value
  }

  toJSON(): string {
    return REDACTED
  }

  toString(): string {
    return REDACTED
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return REDACTED
  }
}
