/**
 * Session token encoding: the claims set, encrypted as a compact JWE (dir, A256CBC-HS512) under a
 * key derived from the first secret.
 *
 * @module
 */
import { toBase64Url } from "../base64.js"
import type { JWT, JWTEncodeParams } from "../../types.js"
import { DEFAULT_MAX_AGE, serializeClaims } from "./claims.js"
import { checkSalt, deriveKey, deriveKeySync, KEY_LENGTH, secretList, type DerivedKey } from "./key.js"
import { nodeJwe, portableJwe } from "./backends.js"
import { nodeRuntime } from "./runtime.js"

const KEY_BYTES = KEY_LENGTH["A256CBC-HS512"]
const utf8 = new TextEncoder()
// Derived keys live in a bounded cache, so their encoded headers can hang off them.
const encodedHeaders = new WeakMap<DerivedKey, string>()

function encodedHeaderFor(derived: DerivedKey): string {
  let encoded = encodedHeaders.get(derived)
  // Stryker disable next-line ConditionalExpression: a cache of encoded headers; encoding again gives the same header
  if (encoded === undefined) {
    encoded = toBase64Url(utf8.encode(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid: derived.kid })))
    encodedHeaders.set(derived, encoded)
  }
  return encoded
}

/**
 * Encrypts a session token. The claims get `iat` (now), `exp` (now + `maxAge`) and a fresh `jti`,
 * replacing any the token carried; the protected header is `{alg: "dir", enc: "A256CBC-HS512", kid}`.
 * With several secrets the first one is used. The result reads with Auth.js v5's `decode` too.
 *
 * @example
 * ```ts
 * import { encode } from "authflow/jwt"
 *
 * const jwe = await encode({
 *   token: { sub: "user-1", name: "Ada" },
 *   secret: process.env.AUTH_SECRET!,
 *   salt: "authjs.session-token",
 *   maxAge: 60 * 60,
 * })
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-7.1
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-5.2.5
 */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  const { token = {}, secret, maxAge = DEFAULT_MAX_AGE, salt } = params
  const [first] = secretList(secret)
  checkSalt(salt)
  const plaintext = serializeClaims(token, maxAge)
  const node = nodeRuntime()
  if (node) {
    const derived = deriveKeySync(first!, salt, KEY_BYTES)!
    return (await nodeJwe()).encryptCbcNode(node, derived.key, encodedHeaderFor(derived), plaintext)
  }
  const derived = await deriveKey(first!, salt, KEY_BYTES)
  return (await portableJwe()).encryptCbcPortable(derived.key, encodedHeaderFor(derived), plaintext)
}
