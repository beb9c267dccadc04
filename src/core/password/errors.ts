/**
 * The one error class of password hashing, with a stable `type`. `verifyPassword` never throws: it
 * answers `{ valid: false }` and carries the error, for the caller to log; `hashPassword` throws it.
 *
 * @module
 */
import { AuthError } from "../errors.js"

/**
 * Why a stored hash could not be checked, or a password could not be hashed:
 * - `PasswordHashUnknownFormat`: not a format authflow knows, and no `verify` hook was given;
 * - `PasswordHashMalformed`: a known format, but truncated, tampered or with parameters out of bounds;
 * - `PasswordHashUnavailable`: the algorithm's primitive is missing on this runtime (scrypt without
 *   `node:crypto`) or refused the parameters (a runtime capping PBKDF2's iterations);
 * - `PasswordHashHookFailed`: the app's `hash` or `verify` hook threw.
 *
 * @example
 * ```ts
 * const type: PasswordHashErrorType | undefined = (await verifyPassword(typed, stored)).error?.type
 * ```
 */
export type PasswordHashErrorType = "PasswordHashUnknownFormat" | "PasswordHashMalformed" | "PasswordHashUnavailable" | "PasswordHashHookFailed"

/**
 * A password hash that could not be made or checked. Code switches on `type`, never on `message`;
 * `cause` holds the underlying error, if any.
 *
 * @example
 * ```ts
 * const { valid, error } = await verifyPassword(typed, user.passwordHash)
 * if (error?.type === "PasswordHashUnknownFormat") logger.error(error) // a hash no verifier knows: configure `verify`
 * ```
 */
export class PasswordHashError extends AuthError {
  readonly #type: PasswordHashErrorType

  /**
   * @param type the stable identifier
   * @param message what happened, for the server's log (never shown to the user)
   * @param cause the underlying error
   */
  constructor(type: PasswordHashErrorType, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause: cause instanceof Error ? cause : { detail: cause } })
    this.#type = type
  }

  /** The stable identifier: which of the four ways the hash could not be made or checked. */
  override get type(): PasswordHashErrorType {
    return this.#type
  }
}
