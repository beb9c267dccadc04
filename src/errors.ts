/**
 * The typed errors of authflow (`authflow/errors`), each with a stable `type`.
 *
 * @example
 * ```ts
 * import { CredentialsSignin } from "authflow/errors"
 * ```
 * @module
 */
export * from "./core/errors.js"
