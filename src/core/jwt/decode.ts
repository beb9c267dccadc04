/**
 * Session token decoding: a compact JWE (dir with A256CBC-HS512 or A256GCM) whose key is chosen
 * among the secrets by key id, and whose claims are then checked.
 *
 * @module
 */
import { fromBase64Url } from "../base64.js"
import * as errors from "jose/errors"
import type { JWT, JWTDecodeParams } from "../../types.js"
import { parseClaims } from "./claims.js"
import { parseHeader, splitCompact, type SessionHeader } from "./header.js"
import { checkSalt, secretList } from "./key.js"
import { nodeJwe, portableJwe } from "./backends.js"
import { nodeRuntime, type NodeRuntime } from "./runtime.js"
import { selectKey, selectKeySync } from "./select-key.js"

const utf8 = new TextDecoder()

// Every token from this server carries one of a handful of protected headers (one per key id):
// each is decoded and checked once. Only headers that passed the checks are kept, and the map is
// bounded, so forged headers cost a parse each and nothing else.
const checkedHeaders = new Map<string, SessionHeader>()
const maxCheckedHeaders = 64

function nodeHeader(node: NodeRuntime, encoded: string): SessionHeader {
  let header = checkedHeaders.get(encoded)
  if (header === undefined) {
    header = parseHeader(node.Buffer.from(encoded, "base64url").toString("utf8"))
    if (checkedHeaders.size >= maxCheckedHeaders) checkedHeaders.clear()
    checkedHeaders.set(encoded, header)
  }
  return header
}

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
    const header = nodeHeader(node, parts.header)
    const key = selectKeySync(header, secrets, salt)
    if (key) return parseClaims<Payload>((await nodeJwe()).decryptNode(node, parts, header, key), header)
  }
  const header = parseHeader(utf8.decode(fromBase64Url(parts.header)))
  const key = await selectKey(header, secrets, salt)
  return parseClaims<Payload>(await (await portableJwe()).decryptPortable(parts, header, key), header)
}
