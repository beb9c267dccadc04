/**
 * Where password hashing finds `node:crypto`: looked up at run time through
 * `process.getBuiltinModule` instead of imported, so the module still loads on runtimes that lack it
 * (edge workers, browsers), where scrypt is unavailable and PBKDF2 on WebCrypto takes over.
 *
 * @module
 */
import type * as NodeCryptoModule from "node:crypto"

/**
 * The parts of `node:crypto` password hashing uses.
 *
 * @example
 * ```ts
 * const node: NodePasswordCrypto | undefined = nodePasswordCrypto()
 * ```
 */
export interface NodePasswordCrypto {
  scrypt: typeof NodeCryptoModule.scrypt
  timingSafeEqual: typeof NodeCryptoModule.timingSafeEqual
}

function lookupNodePasswordCrypto(): NodePasswordCrypto | undefined {
  try {
    // Next.js's edge sandbox defines a `process` whose Node APIs throw when touched, hence the try.
    const load = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule
    if (typeof load !== "function") return undefined
    const crypto = load("node:crypto") as Partial<typeof NodeCryptoModule> | undefined
    if (typeof crypto?.scrypt !== "function" || typeof crypto.timingSafeEqual !== "function") return undefined
    return { scrypt: crypto.scrypt, timingSafeEqual: crypto.timingSafeEqual }
  } catch {
    return undefined
  }
}

const detected = /* @__PURE__ */ lookupNodePasswordCrypto()
let enabled = detected !== undefined

/**
 * `node:crypto`'s scrypt and timingSafeEqual when the runtime has them and they are not turned off,
 * otherwise undefined.
 *
 * @example
 * ```ts
 * const node = nodePasswordCrypto()
 * const algorithm = node ? "scrypt" : "pbkdf2-sha256"
 * ```
 */
export function nodePasswordCrypto(): NodePasswordCrypto | undefined {
  return enabled ? detected : undefined
}

/**
 * Turns the `node:crypto` path of password hashing on or off and reports whether it is now on.
 * Turning it on has no effect where `node:crypto` is missing. Internal: tests use it to run the
 * WebCrypto path (PBKDF2, the portable comparison) on Node.
 *
 * @example
 * ```ts
 * usePasswordNodeCrypto(false) // as on an edge runtime: new hashes are PBKDF2, scrypt hashes cannot be checked
 * usePasswordNodeCrypto(true)  // back to node:crypto (true if available)
 * ```
 */
export function usePasswordNodeCrypto(on: boolean): boolean {
  enabled = on && detected !== undefined
  return enabled
}
