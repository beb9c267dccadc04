/**
 * A thrown value as an `Error`: JavaScript lets code throw anything (a string, `null`, an object),
 * and loggers, `cause` fields and `AuthError`'s constructor expect an `Error`.
 *
 * @param error - What was thrown.
 * @returns The error itself when it is one, else an `Error` whose message is the value as a string.
 * @example
 * ```ts
 * asError("store down").message // "store down"
 * ```
 */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
