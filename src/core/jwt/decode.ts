/**
 * Session token decoding: a compact JWE (dir with A256CBC-HS512 or A256GCM) whose key is chosen
 * among the secrets by key id, and whose claims are then checked.
 *
 * @module
 */
import { base64url, errors } from "jose"
import type { JWT, JWTDecodeParams } from "../../types.js"
import { parseClaims } from "./claims.js"
import { parseHeader, splitCompact } from "./header.js"
import { decryptNode } from "./jwe-node.js"
import { decryptPortable } from "./jwe-portable.js"
import { checkSalt, secretList } from "./key.js"
import { nodeRuntime } from "./runtime.js"
import { selectKey, selectKeySync } from "./select-key.js"

const utf8 = new TextDecoder()

/**
 * Decrypts and checks a session token; returns null for an empty token and throws for any invalid
 * one. Accepted: `alg` `dir` with `enc` A256CBC-HS512 or A256GCM, no `zip`, no `crit`; `exp` and
 * `nbf` are checked with 15 seconds of tolerance. The key is derived from the first secret whose
 * thumbprint equals the header's `kid`, or from the first secret when there is no `kid`; when none
 * matches it throws `Error("no matching decryption secret")`. Reads tokens made by Auth.js v5.
 *
 * @example
 * ```ts
 * import { decode } from "authflow/jwt"
 *
 * // During a rotation, list the new secret first: old tokens still decode.
 * const claims = await decode({ token: jwe, secret: [newSecret, oldSecret], salt: "authjs.session-token" })
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-5.2
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-7.2
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const { token, secret, salt } = params
  if (!token) return null
  if (typeof token !== "string") throw new errors.JWEInvalid("Compact JWE must be a string")
  const secrets = secretList(secret)
  checkSalt(salt)
  const parts = splitCompact(token)
  const node = nodeRuntime()
  if (node) {
    const header = parseHeader(node.Buffer.from(parts.header, "base64url").toString("utf8"))
    const key = selectKeySync(header, secrets, salt)
    if (key) return parseClaims<Payload>(decryptNode(node, parts, header, key), header)
  }
  const header = parseHeader(utf8.decode(base64url.decode(parts.header)))
  const key = await selectKey(header, secrets, salt)
  return parseClaims<Payload>(await decryptPortable(token, key), header)
}
