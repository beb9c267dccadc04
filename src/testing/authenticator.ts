/**
 * A software WebAuthn authenticator for tests: P-256 keys from node:crypto, attestation "none",
 * clientDataJSON / authenticatorData / attestationObject built by hand (with a tiny CBOR encoder).
 * Every field a relying party checks can be bent, to drive each refusal. `authflow/testing` walks
 * the WebAuthn machine's paths with it; your own tests can answer `/webauthn-options` with it.
 *
 * @example
 * ```ts
 * import { SoftCredential } from "authflow/testing"
 * const passkey = new SoftCredential("app.example")
 * const answer = passkey.register(options, "https://app.example") // POST it as `data` with action "register"
 * ```
 * @module
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto"
import type { AdapterAuthenticator } from "../adapters.js"

/** The CBOR items {@link cbor} encodes. */
export type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | Cbor[] | boolean

function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value])
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value])
  if (value < 0x10000) return Buffer.from([(major << 5) | 25, value >> 8, value & 0xff])
  const out = Buffer.alloc(5)
  out[0] = (major << 5) | 26
  out.writeUInt32BE(value, 1)
  return out
}

/**
 * Encodes the few CBOR items attestation objects and COSE keys use.
 *
 * @example
 * ```ts
 * cbor(new Map([["fmt", "none"]])) // <Buffer a1 63 66 6d 74 64 6e 6f 6e 65>
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc8949
 */
export function cbor(value: Cbor): Buffer {
  if (typeof value === "boolean") return Buffer.from([value ? 0xf5 : 0xf4])
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8")
    return Buffer.concat([head(3, bytes.length), bytes])
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)])
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)])
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])])
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url")
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest()

/**
 * What a ceremony may bend: each is a refusal the relying party must name. Nothing is bent by default.
 *
 * @example
 * ```ts
 * passkey.authenticate(options, origin, { origin: "https://evil.example" }) // refused: wrong origin
 * ```
 */
export interface Bend {
  origin?: string
  rpId?: string
  type?: string
  challenge?: string
  userPresent?: boolean
  userVerified?: boolean
  counter?: number
  badSignature?: boolean
  /** Sign with another key than the registered one. */
  otherKey?: boolean
  /**
   * The width of the signature's `r` and `s`. About one signature in 256 has an `r` or `s` shorter
   * than 32 bytes (its top byte is zero), and a server must pad it before it verifies: "short" asks
   * for such a signature, "full-width" avoids one (for a server that does not pad, such as
   * @simplewebauthn/server 9, which @auth/core 0.41 was written for). @default "any"
   */
  signatureIntegers?: "any" | "full-width" | "short"
}

/**
 * Whether `r` or `s` of a DER ECDSA signature (`30 len 02 rLen r 02 sLen s`) is shorter than 32 bytes
 * as a value: a DER integer whose top bit is set carries a leading zero that is not part of it.
 */
function hasShortInteger(signature: Buffer): boolean {
  const valueWidth = (at: number) => signature[at + 1]! - (signature[at + 2] === 0 ? 1 : 0)
  return valueWidth(2) < 32 || valueWidth(4 + signature[3]!) < 32
}

/**
 * The part of `/webauthn-options`' registration options (`options` of `{ action: "register" }`) the authenticator reads.
 *
 * @example
 * ```ts
 * const { options } = (await response.json()) as { options: RegistrationOptionsJSON }
 * ```
 */
export interface RegistrationOptionsJSON {
  challenge: string
  rp: { id: string; name: string }
  user: { id: string; name: string; displayName: string }
  excludeCredentials?: { id: string }[]
  authenticatorSelection?: Record<string, unknown>
}

/**
 * The part of `/webauthn-options`' authentication options the authenticator reads.
 *
 * @example
 * ```ts
 * const { options } = (await response.json()) as { options: AuthenticationOptionsJSON }
 * ```
 */
export interface AuthenticationOptionsJSON {
  challenge: string
  rpId: string
  allowCredentials?: { id: string }[]
  userVerification?: string
}

/**
 * One credential held by the software authenticator: a P-256 key pair, a random 16-byte ID, and a
 * signature counter that counts up on each assertion (unless `countsSignatures` is false, as a
 * synced passkey that always reports 0).
 *
 * @param rpId - The RP ID it is bound to (its hash goes in the authenticator data).
 * @param countsSignatures - Whether the counter grows. @default true
 *
 * @example
 * ```ts
 * const passkey = new SoftCredential("app.test")
 * const answer = passkey.authenticate(options, "https://app.test")
 * await adapter.createAuthenticator!(passkey.adapterAuthenticator(user.id)) // or seed it directly
 * ```
 */
export class SoftCredential {
  readonly id = randomBytes(16)
  readonly privateKey: KeyObject
  readonly publicKey: KeyObject
  counter = 0
  constructor(readonly rpId: string, readonly countsSignatures = true) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
    this.privateKey = privateKey
    this.publicKey = publicKey
  }

  /** The credential ID, base64url (as the browser's answer carries it). */
  get idBase64Url(): string {
    return b64url(this.id)
  }

  /**
   * The adapter row of this credential for `userId`, with Auth.js's encodings (standard base64 of the
   * credential ID and of the COSE public key, transports comma-joined): to seed a database with it.
   *
   * @example
   * ```ts
   * await adapter.createAuthenticator!(passkey.adapterAuthenticator("user-1"))
   * ```
   */
  adapterAuthenticator(userId: string): AdapterAuthenticator {
    const credentialID = Buffer.from(this.id).toString("base64")
    return {
      userId,
      providerAccountId: credentialID,
      credentialID,
      credentialPublicKey: this.cosePublicKey().toString("base64"),
      counter: this.counter,
      credentialBackedUp: false,
      credentialDeviceType: "singleDevice",
      transports: "internal,hybrid",
    }
  }

  /** The public key as a COSE_Key (EC2, P-256, ES256), CBOR-encoded. */
  cosePublicKey(): Buffer {
    const jwk = this.publicKey.export({ format: "jwk" })
    return cbor(new Map<Cbor, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, "base64url")], [-3, Buffer.from(jwk.y!, "base64url")]]))
  }

  #authData(bend: Bend, attested?: Buffer): Buffer {
    const flags = (bend.userPresent === false ? 0 : 0x01) | (bend.userVerified === false ? 0 : 0x04) | (attested ? 0x40 : 0)
    const counter = Buffer.alloc(4)
    counter.writeUInt32BE(bend.counter ?? this.counter)
    return Buffer.concat([sha256(bend.rpId ?? this.rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])])
  }

  /** The browser's answer to registration options (`startRegistration`'s JSON). */
  register(options: RegistrationOptionsJSON, origin: string, bend: Bend = {}) {
    const clientDataJSON = JSON.stringify({ type: bend.type ?? "webauthn.create", challenge: bend.challenge ?? options.challenge, origin: bend.origin ?? origin, crossOrigin: false })
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.id.length)
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.id, this.cosePublicKey()])
    const authData = this.#authData(bend, attested)
    const attestationObject = cbor(new Map<Cbor, Cbor>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]))
    return {
      id: this.idBase64Url,
      rawId: this.idBase64Url,
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ["internal", "hybrid"] },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }

  /** The browser's answer to authentication options (`startAuthentication`'s JSON). Counts up first. */
  authenticate(options: AuthenticationOptionsJSON, origin: string, bend: Bend = {}) {
    if (this.countsSignatures && bend.counter === undefined) this.counter++
    const clientDataJSON = JSON.stringify({ type: bend.type ?? "webauthn.get", challenge: bend.challenge ?? options.challenge, origin: bend.origin ?? origin, crossOrigin: false })
    const authData = this.#authData(bend)
    const key = bend.otherKey ? generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey : this.privateKey
    const signed = Buffer.concat([authData, sha256(clientDataJSON)])
    const wanted = bend.signatureIntegers ?? "any"
    let signature = sign("sha256", signed, key)
    while (wanted !== "any" && hasShortInteger(signature) !== (wanted === "short")) signature = sign("sha256", signed, key)
    if (bend.badSignature) signature[signature.length - 1]! ^= 0x01
    return {
      id: this.idBase64Url,
      rawId: this.idBase64Url,
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature) },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }
}
