/**
 * PBKDF2-HMAC-SHA256 (RFC 8018) on WebCrypto, which every runtime has: the algorithm of runtimes
 * without `node:crypto`'s scrypt, with OWASP's iteration count by default.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8018#section-5.2
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#pbkdf2
 * @module
 */

/**
 * PBKDF2's cost parameter, as the PHC string names it (`i`).
 *
 * @example
 * ```ts
 * const params: Pbkdf2Params = { iterations: 600_000 } // "$pbkdf2-sha256$i=600000$…"
 * ```
 */
export interface Pbkdf2Params {
  /**
   * The iteration count. Cloudflare Workers refuse more than 100,000; there, lower it knowingly.
   *
   * @default 600000
   */
  iterations: number
}

/**
 * OWASP's minimum for PBKDF2-HMAC-SHA256: 600,000 iterations.
 *
 * @example
 * ```ts
 * hashPassword(password, { algorithm: "pbkdf2-sha256", pbkdf2: { iterations: 1_000_000 } })
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#pbkdf2
 */
export const PBKDF2_DEFAULTS: Readonly<Pbkdf2Params> = Object.freeze({ iterations: 600_000 })

// A bound on what a stored hash may ask for: a forged row must not make the server spin for minutes.
const MAX_ITERATIONS = 10_000_000

/**
 * Why PBKDF2 parameters are unusable (not an integer from 1 to 10,000,000), or undefined when they
 * are fine.
 *
 * @example
 * ```ts
 * pbkdf2ParamsProblem({ iterations: 600_000 }) // undefined
 * pbkdf2ParamsProblem({ iterations: 0 })       // "iterations must be …"
 * ```
 */
export function pbkdf2ParamsProblem({ iterations }: Pbkdf2Params): string | undefined {
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) return `iterations must be an integer from 1 to ${MAX_ITERATIONS}, not ${iterations}`
  return undefined
}

/**
 * The PBKDF2-HMAC-SHA256 key of `password` and `salt`, `keyLength` bytes long, through WebCrypto.
 *
 * @example
 * ```ts
 * const key = await pbkdf2Key(utf8.encode("pw"), salt, PBKDF2_DEFAULTS, 32)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc8018#section-5.2
 */
export async function pbkdf2Key(password: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, { iterations }: Pbkdf2Params, keyLength: number): Promise<Uint8Array> {
  const key = await globalThis.crypto.subtle.importKey("raw", password, "PBKDF2", false, ["deriveBits"])
  return new Uint8Array(await globalThis.crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, keyLength * 8))
}
