/**
 * The portable (WebCrypto) JWE code, loaded when a token first needs it: where `node:crypto`
 * runs (see `runtime.ts`), a process never loads it.
 *
 * @module
 */
import { onFirstUse } from "../on-first-use.js"

/**
 * `jwe-portable.ts`, loaded on the first call, then kept.
 *
 * @example
 * ```ts
 * const jwe = await (await portableJwe()).encryptPortable(key, kid, plaintext)
 * ```
 */
export const portableJwe = onFirstUse(() => import("./jwe-portable.js"))
