/**
 * `authflow/jwt`: the session token primitives, wire-compatible with Auth.js v5's `@auth/core/jwt`.
 * A session token is a compact JWE (`dir`, A256CBC-HS512) whose key is derived with HKDF-SHA256 from
 * the secret, salted with the session cookie's name.
 *
 * @example
 * ```ts
 * import { encode, decode, getToken } from "authflow/jwt"
 *
 * const salt = "authjs.session-token"
 * const jwe = await encode({ token: { sub: "1" }, secret: "s3cret", salt })
 * const claims = await decode({ token: jwe, secret: "s3cret", salt }) // { sub: "1", iat, exp, jti }
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516
 * @module
 */
export { encode } from "./core/jwt/encode.js"
export { decode } from "./core/jwt/decode.js"
export { getToken, type GetTokenParams } from "./core/jwt/get-token.js"
export type { JWT, JWTDecodeParams, JWTEncodeParams } from "./types.js"
