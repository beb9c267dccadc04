/**
 * Which crypto backend the JWE code runs on. `node:crypto` is looked up at run time instead of being
 * imported, so this module still loads on runtimes that do not have it (edge workers, browsers); there
 * the portable WebCrypto path takes over.
 *
 * @module
 */
import type * as NodeCryptoModule from "node:crypto"
import type * as NodeBufferModule from "node:buffer"

/** The parts of Node's built-ins the fast path needs. */
export interface NodeRuntime {
  crypto: typeof NodeCryptoModule
  Buffer: typeof NodeBufferModule.Buffer
}

function lookupNodeRuntime(): NodeRuntime | undefined {
  try {
    const load = globalThis.process?.getBuiltinModule
    if (typeof load !== "function") return undefined
    const crypto = load("node:crypto") as typeof NodeCryptoModule | undefined
    const buffer = load("node:buffer") as typeof NodeBufferModule | undefined
    if (!crypto?.createCipheriv || !crypto.hkdfSync || !buffer?.Buffer) return undefined
    return { crypto, Buffer: buffer.Buffer }
  } catch {
    return undefined
  }
}

const detected = /* @__PURE__ */ lookupNodeRuntime()
let enabled = detected !== undefined

/** The Node built-ins when the fast path is available and enabled, otherwise undefined. */
export function nodeRuntime(): NodeRuntime | undefined {
  return enabled ? detected : undefined
}

/**
 * Turns the `node:crypto` fast path on or off and reports whether it is now on. Turning it on has no
 * effect where `node:crypto` is missing. Internal: tests use it to exercise the portable path.
 *
 * @example
 * ```ts
 * useNodeCrypto(false) // every encode/decode now goes through WebCrypto
 * useNodeCrypto(true)  // back to node:crypto (true if available)
 * ```
 */
export function useNodeCrypto(on: boolean): boolean {
  enabled = on && detected !== undefined
  return enabled
}
