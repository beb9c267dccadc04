/**
 * The stand-ins' signing key, published as their JWKS, and the ID tokens they sign with it (or,
 * for a forged signature, with a stranger's key).
 *
 * @module
 */
import { SignJWT, exportJWK, generateKeyPair } from "jose"
import type { StandInFaults } from "./options.js"

let signingKeys: Promise<{ key: CryptoKey; stranger: CryptoKey; jwk: Record<string, unknown> }> | undefined

/** One RS256 key pair for every stand-in of the process (and a stranger's, for forged signatures). */
function keys() {
  signingKeys ??= (async () => {
    const own = await generateKeyPair("RS256", { extractable: true })
    const stranger = await generateKeyPair("RS256")
    return { key: own.privateKey, stranger: stranger.privateKey, jwk: { ...(await exportJWK(own.publicKey)), kid: "stand-in", alg: "RS256", use: "sig" } }
  })()
  return signingKeys
}

/** The JWKS every stand-in publishes at `<issuer>/jwks`. */
export async function jwksResponse(): Promise<Response> {
  return Response.json({ keys: [(await keys()).jwk] })
}

/** What an ID token says, before its `fault` bends it. */
export interface IdTokenContent {
  issuer: string
  audience: string
  subject: string
  claims: Record<string, unknown>
  /** The nonce of the authorization request, if it had one. */
  nonce: string | null
  fault: StandInFaults["idToken"]
}

/**
 * An RS256 ID token, signed by the stand-ins' key unless the fault is `bad-signature`.
 *
 * @example
 * ```ts
 * await signIdToken({ issuer, audience: clientId, subject: "stand-in-subject", claims: { name: "Ada" }, nonce: "n", fault: undefined })
 * ```
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDToken
 */
export async function signIdToken({ issuer, audience, subject, claims, nonce, fault }: IdTokenContent): Promise<string> {
  const { key, stranger } = await keys()
  const now = Math.floor(Date.now() / 1000)
  const claimedNonce = fault === "wrong-nonce" ? "another-nonce" : nonce
  return new SignJWT({ ...claims, sub: subject, ...(claimedNonce && { nonce: claimedNonce }) })
    .setProtectedHeader({ alg: "RS256", kid: "stand-in", typ: "JWT" })
    .setIssuer(fault === "wrong-issuer" ? "https://impostor.stand-in.test" : issuer)
    .setAudience(fault === "wrong-audience" ? "another-client" : audience)
    .setIssuedAt(fault === "expired" ? now - 7200 : now)
    .setExpirationTime(fault === "expired" ? now - 3600 : now + 600)
    .sign(fault === "bad-signature" ? stranger : key)
}

/**
 * A back-channel logout token (OpenID Connect Back-Channel Logout 1.0) signed by the stand-ins' key.
 *
 * @example
 * ```ts
 * await signLogoutToken({ iss: issuer, aud: clientId, sub: "stand-in-subject" })
 * ```
 * @see https://openid.net/specs/openid-connect-backchannel-1_0.html#LogoutToken
 */
export async function signLogoutToken(claims: Record<string, unknown>): Promise<string> {
  const { key } = await keys()
  return new SignJWT({ jti: globalThis.crypto.randomUUID(), events: { "http://schemas.openid.net/event/backchannel-logout": {} }, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: "stand-in", typ: "logout+jwt" })
    .setIssuedAt()
    .sign(key)
}
