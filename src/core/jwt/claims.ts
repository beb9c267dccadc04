/**
 * The JWT claims set of a session token: what encode adds, and what decode checks. Shared by both
 * crypto paths.
 *
 * @module
 */
import * as errors from "jose/errors"
import type { JWT } from "../../types.js"
import type { SessionHeader } from "./header.js"
import { randomUUID } from "../crypto.js"

/** Seconds of clock skew tolerated on `exp` and `nbf`. */
export const CLOCK_TOLERANCE = 15

/** Default token lifetime in seconds: 30 days. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

/** The current time as a NumericDate (whole seconds since the epoch). */
export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000)
}

/**
 * The JSON of the claims to encrypt: the token's own claims, with `iat`, `exp` and `jti` set (these
 * replace any value the token carried). Keys whose value is undefined disappear, as JSON does.
 *
 * @example
 * ```ts
 * serializeClaims({ sub: "1" }, 60) // '{"sub":"1","iat":…,"exp":…+60,"jti":"…"}'
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1
 */
export function serializeClaims(token: unknown, maxAge: number): string {
  if (typeof token !== "object" || token === null || Array.isArray(token)) {
    throw new TypeError("The JWT claims set must be an object")
  }
  const iat = nowInSeconds()
  // A spread defines each own key as data (an own "__proto__" claim from JSON.parse stays a plain
  // claim) and keeps the token's key order; the object it makes is one JSON.stringify walks fast.
  return JSON.stringify({ ...token, iat, exp: iat + maxAge, jti: randomUUID() })
}

function numericDate(claims: Record<string, unknown>, name: "iat" | "nbf" | "exp"): number | undefined {
  const value = claims[name]
  if (value === undefined) return undefined
  if (typeof value !== "number") {
    throw new errors.JWTClaimValidationFailed(`"${name}" claim must be a number`, claims, name, "invalid")
  }
  return value
}

/**
 * Decodes and checks a decrypted claims set: strict UTF-8, a top-level JSON object, numeric
 * `iat`/`nbf`/`exp`, `nbf` and `exp` within {@link CLOCK_TOLERANCE}, and any `iss`/`sub`/`aud`
 * copied into the protected header equal to the claim.
 *
 * @example
 * ```ts
 * const claims = parseClaims(plaintext, header) // throws JWTExpired when expired
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-7.2
 */
export function parseClaims<Payload = JWT>(plaintext: Uint8Array, header: SessionHeader): Payload {
  let value: unknown
  try {
    value = JSON.parse(strictUtf8.decode(plaintext))
  } catch (cause) {
    throw new errors.JWTInvalid("JWT Claims Set must be a top-level JSON object", { cause })
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new errors.JWTInvalid("JWT Claims Set must be a top-level JSON object")
  }
  const claims = value as Record<string, unknown>
  const now = nowInSeconds()
  numericDate(claims, "iat")
  const nbf = numericDate(claims, "nbf")
  if (nbf !== undefined && nbf > now + CLOCK_TOLERANCE) {
    throw new errors.JWTClaimValidationFailed('"nbf" claim timestamp check failed', claims, "nbf", "check_failed")
  }
  const exp = numericDate(claims, "exp")
  if (exp !== undefined && exp <= now - CLOCK_TOLERANCE) {
    throw new errors.JWTExpired('"exp" claim timestamp check failed', claims, "exp", "check_failed")
  }
  // RFC 7519 §5.3: a claim replicated into the header must equal the claim itself.
  for (const name of ["iss", "sub", "aud"] as const) {
    if (header[name] === undefined) continue
    const same = name === "aud" ? JSON.stringify(header.aud) === JSON.stringify(claims.aud) : header[name] === claims[name]
    if (!same) {
      throw new errors.JWTClaimValidationFailed(`replicated "${name}" claim header parameter mismatch`, claims, name, "mismatch")
    }
  }
  return claims as Payload
}
