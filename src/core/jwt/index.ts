/**
 * Session token internals: encode/decode (also public as `authflow/jwt`), key derivation and the
 * switch between the `node:crypto` and portable paths.
 *
 * @module
 */
export { encode } from "./encode.js"
export { decode } from "./decode.js"
export { getToken, type GetTokenParams, type HeadersLike } from "./get-token.js"
export { useNodeCrypto } from "./runtime.js"
export { NO_MATCHING_SECRET } from "./select-key.js"
export { clearKeyCache, deriveKey, type ContentEncryption, type DerivedKey } from "./key.js"
