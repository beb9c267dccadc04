/**
 * scrypt (RFC 7914) on `node:crypto`, with OWASP's parameters by default. Runs on Node's thread
 * pool, so a hash does not block the event loop; each one holds `128 · 2^ln · r` bytes while it runs
 * (128 MiB by default).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7914
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 * @module
 */
import type { NodePasswordCrypto } from "./runtime.js"

/**
 * scrypt's cost parameters, as the PHC string names them.
 *
 * @example
 * ```ts
 * const params: ScryptParams = { ln: 17, r: 8, p: 1 } // "$scrypt$ln=17,r=8,p=1$…"
 * ```
 */
export interface ScryptParams {
  /**
   * log2 of the CPU/memory cost N.
   *
   * @default 17
   */
  ln: number
  /**
   * The block size.
   *
   * @default 8
   */
  r: number
  /**
   * The parallelisation.
   *
   * @default 1
   */
  p: number
}

/**
 * OWASP's minimum for scrypt: N = 2^17, r = 8 (1024-byte blocks), p = 1, so 128 MiB per hash.
 *
 * @example
 * ```ts
 * hashPassword(password, { scrypt: { ...SCRYPT_DEFAULTS, ln: 18 } }) // twice the cost
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 */
export const SCRYPT_DEFAULTS: Readonly<ScryptParams> = Object.freeze({ ln: 17, r: 8, p: 1 })

// Bounds on what a stored hash may ask for: a forged row must not make the server allocate gigabytes
// or spin for minutes.
const MAX_MEMORY_BYTES = 2 ** 30
const MAX_R = 32
const MAX_P = 16

/**
 * Why scrypt parameters are unusable (out of RFC 7914's domain or above authflow's bounds: 1 GiB of
 * memory, r ≤ 32, p ≤ 16), or undefined when they are fine.
 *
 * @example
 * ```ts
 * scryptParamsProblem({ ln: 17, r: 8, p: 1 }) // undefined
 * scryptParamsProblem({ ln: 0, r: 8, p: 1 })  // "ln must be an integer from 1 …"
 * ```
 */
export function scryptParamsProblem({ ln, r, p }: ScryptParams): string | undefined {
  if (!Number.isInteger(r) || r < 1 || r > MAX_R) return `r must be an integer from 1 to ${MAX_R}, not ${r}`
  if (!Number.isInteger(p) || p < 1 || p > MAX_P) return `p must be an integer from 1 to ${MAX_P}, not ${p}`
  // RFC 7914 section 2: N must be less than 2^(128·r/8).
  const maxLn = Math.min(16 * r - 1, Math.log2(MAX_MEMORY_BYTES / (128 * r)))
  if (!Number.isInteger(ln) || ln < 1 || ln > maxLn) return `ln must be an integer from 1 to ${maxLn} when r is ${r} (at most 1 GiB of memory), not ${ln}`
  return undefined
}

/**
 * The scrypt key of `password` and `salt`, `keyLength` bytes long.
 *
 * @example
 * ```ts
 * const key = await scryptKey(nodePasswordCrypto()!, utf8.encode("pw"), salt, SCRYPT_DEFAULTS, 32)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7914#section-6
 */
export function scryptKey(node: NodePasswordCrypto, password: Uint8Array, salt: Uint8Array, { ln, r, p }: ScryptParams, keyLength: number): Promise<Uint8Array> {
  const N = 2 ** ln
  // OpenSSL's own accounting of what it allocates: the B blocks (128·r·p) and V (128·r·(N + 2)).
  const maxmem = 128 * r * (N + p + 2)
  return new Promise((resolve, reject) =>
    node.scrypt(password, salt, keyLength, { N, r, p, maxmem }, (error, key) => (error ? reject(error) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.length)))),
  )
}
