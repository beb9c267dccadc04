/**
 * The two JWE backends, each loaded when a token first needs it: the `node:crypto` one where it runs
 * (see `runtime.ts`), the portable (WebCrypto) one elsewhere. A process loads only the one it uses,
 * and an edge bundle carries the Node code as a chunk it never loads.
 *
 * @module
 */
import { onFirstUse } from "../on-first-use.js"

/**
 * `jwe-portable.ts`, loaded on the first call, then kept.
 *
 * @example
 * ```ts
 * const jwe = await (await portableJwe()).encryptCbcPortable(key, encodedHeader, plaintext)
 * ```
 */
export const portableJwe = /* @__PURE__ */ onFirstUse(() => import("./jwe-portable.js"))

/**
 * `jwe-node.ts`, loaded on the first call, then kept.
 *
 * @example
 * ```ts
 * const node = nodeRuntime()
 * if (node) return (await nodeJwe()).encryptCbcNode(node, key, encodedHeader, plaintext)
 * ```
 */
export const nodeJwe = /* @__PURE__ */ onFirstUse(() => import("./jwe-node.js"))
