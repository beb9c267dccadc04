/**
 * A TOTP secret encrypted at rest: the adapter stores the sealed string, never the secret. The
 * seal is the session token's JWE (`dir` + A256CBC-HS512, key from HKDF-SHA256 over the auth
 * secret) under a salt of its own, so rotating `AUTH_SECRET` works as it does for sessions: the
 * first secret seals, every listed secret opens.
 *
 * @module
 */
import * as base64url from "jose/base64url"
import { decode } from "../jwt/decode.js"
import { encode } from "../jwt/encode.js"
import { secretList } from "../jwt/key.js"

/**
 * The key derivation salt of sealed factor secrets: apart from sessions and every other use of the secret.
 *
 * @example
 * ```ts
 * await decode({ token: sealed, secret, salt: FACTOR_SECRET_SALT }) // what openFactorSecret reads
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc5869#section-3.1
 */
export const FACTOR_SECRET_SALT = "authflow.second-factor-secret"

// The JWE always carries `exp`; a factor lives until the user removes it, so the seal must outlive
// any factor: a hundred years.
const SEAL_LIFETIME_SECONDS = 100 * 365 * 24 * 60 * 60

interface SealedClaims {
  secret?: unknown
}

/**
 * Encrypts a factor's secret under a key derived from the auth secret (the first one when several
 * are listed). The result is a compact JWE: ASCII, about 414 characters for a 20-byte secret
 * (the header carries the key id, the claims `iat`, `exp` and `jti`): store it in a text column.
 *
 * @example
 * ```ts
 * const secret = newTotpSecret()
 * const sealed = await sealFactorSecret(secret, process.env.AUTH_SECRET!) // store this
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-7.1
 * @see https://www.rfc-editor.org/rfc/rfc5869
 */
export function sealFactorSecret(secret: Uint8Array, authSecret: string | string[]): Promise<string> {
  return encode<SealedClaims>({ token: { secret: base64url.encode(secret) }, secret: authSecret, salt: FACTOR_SECRET_SALT, maxAge: SEAL_LIFETIME_SECONDS })
}

/**
 * Decrypts a sealed factor secret with whichever listed auth secret sealed it. Returns null when
 * it cannot be opened: sealed under a secret no longer listed, altered, or not a sealed secret
 * (a session token made with the same auth secret included). A missing auth secret is a
 * configuration error and throws `MissingSecret`.
 *
 * @example
 * ```ts
 * const secret = await openFactorSecret(row.sealedSecret, [newSecret, oldSecret])
 * if (secret === null) return refuse() // the factor cannot be checked
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-5.2
 */
export async function openFactorSecret(sealed: string, authSecret: string | string[]): Promise<Uint8Array | null> {
  secretList(authSecret)
  let claims: SealedClaims | null
  try {
    claims = await decode<SealedClaims>({ token: sealed, secret: authSecret, salt: FACTOR_SECRET_SALT })
  } catch {
    // Whatever the reason (no matching key, a bad tag, a malformed token), it cannot be opened.
    return null
  }
  if (typeof claims?.secret !== "string") return null
  try {
    return base64url.decode(claims.secret)
  } catch {
    return null
  }
}
