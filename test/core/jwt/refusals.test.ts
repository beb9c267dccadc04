/**
 * What exactly decode throws for each malformed token, on the node path: the jose error class and
 * its message, so a caller (and a log reader) can tell the refusals apart. validation.test.ts checks
 * that each is refused on both paths; this file pins down how.
 */
import { Buffer } from "node:buffer"
import * as nodeCrypto from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { base64url, errors } from "jose"
import { decode, encode, getToken } from "../../../src/jwt.js"
import { deriveKey, checkSalt, secretList } from "../../../src/core/jwt/key.js"
import { MissingSecret } from "../../../src/errors.js"
import { craftToken, referenceKey, SALT, SECRET } from "./helpers.js"

const params = { secret: SECRET, salt: SALT }
const header = async (extra: Record<string, unknown> = {}) => ({ alg: "dir", enc: "A256CBC-HS512", kid: (await deriveKey(SECRET, SALT, 64)).kid, ...extra })
const now = () => Math.floor(Date.now() / 1000)

async function refusal(token: string): Promise<Error> {
  const error = await decode({ token, ...params }).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Error)
  return error as Error
}

afterEach(() => void vi.useRealTimers())

describe("compact serialization", () => {
  it("names the part that is not base64url", async () => {
    const token = await encode({ token: { sub: "1" }, ...params })
    const parts = token.split(".")
    const names = ["Protected Header", "", "Initialization Vector", "Ciphertext", "Authentication Tag"]
    for (const index of [0, 2, 3, 4]) {
      for (const bad of ["a+b=", "abcde"]) {
        const forged = parts.map((part, i) => (i === index ? bad : part)).join(".")
        const error = await refusal(forged)
        expect(error, `${index} ${bad}`).toBeInstanceOf(errors.JWEInvalid)
        expect(error.message).toBe(`JWE ${names[index]} is not base64url`)
      }
    }
  })

  it("refuses anything but five parts, and an encrypted key", async () => {
    const token = await encode({ token: { sub: "1" }, ...params })
    for (const forged of [token.split(".").slice(0, 4).join("."), `${token}.x`]) {
      const error = await refusal(forged)
      expect(error).toBeInstanceOf(errors.JWEInvalid)
      expect(error.message).toBe("Invalid Compact JWE")
    }
    const parts = token.split(".")
    parts[1] = "AAAA"
    const error = await refusal(parts.join("."))
    expect(error).toBeInstanceOf(errors.JWEInvalid)
    expect(error.message).toBe("Encountered unexpected JWE Encrypted Key")
  })

  it("refuses a token that is not a string", async () => {
    const error = await decode({ token: 42 as never, ...params }).catch((e: unknown) => e as Error)
    expect(error).toBeInstanceOf(errors.JWEInvalid)
    expect((error as Error).message).toBe("Compact JWE must be a string")
  })
})

describe("protected header", () => {
  it("says which parameter is refused", async () => {
    const cases: [Record<string, unknown>, typeof errors.JOSEError, string][] = [
      [{ crit: ["exp"] }, errors.JWEInvalid, 'JWE "crit" Header Parameter is not accepted'],
      [{ zip: "DEF" }, errors.JOSENotSupported, 'JWE "zip" Header Parameter is not accepted'],
      [{ alg: "A256KW" }, errors.JOSEAlgNotAllowed, '"alg" (Algorithm) Header Parameter value not allowed'],
      [{ enc: "A128GCM" }, errors.JOSEAlgNotAllowed, '"enc" (Encryption Algorithm) Header Parameter value not allowed'],
    ]
    for (const [extra, type, message] of cases) {
      const error = await refusal(craftToken(await header(extra), JSON.stringify({ sub: "1" })))
      expect(error, message).toBeInstanceOf(type)
      expect(error.message).toBe(message)
    }
  })

  it("refuses a header that is not JSON, or not an object, as invalid", async () => {
    for (const json of ["{not json", "[1]", "null", '"text"']) {
      const error = await refusal(`${base64url.encode(json)}..AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)
      expect(error, json).toBeInstanceOf(errors.JWEInvalid)
      expect(error.message).toBe("JWE Protected Header is invalid")
    }
  })

  it("a header that is not JSON keeps the parser's error as its cause", async () => {
    const error = await refusal(`${base64url.encode("{not json")}..AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)
    expect(error).toBeInstanceOf(errors.JWEInvalid)
    expect(error.cause).toBeInstanceOf(SyntaxError)
  })
})

describe("decryption", () => {
  it("a truncated or extended tag fails as a decryption failure, not another error", async () => {
    const token = await encode({ token: { sub: "1" }, ...params })
    const parts = token.split(".")
    const tag = base64url.decode(parts[4]!)
    for (const forged of [tag.subarray(0, 16), Buffer.concat([tag, Buffer.from([0])])]) {
      parts[4] = base64url.encode(forged)
      expect(await refusal(parts.join("."))).toBeInstanceOf(errors.JWEDecryptionFailed)
    }
  })

  it("refuses an IV of the wrong length for its algorithm as invalid", async () => {
    const cbc = (await encode({ token: { sub: "1" }, ...params })).split(".")
    cbc[2] = base64url.encode(new Uint8Array(12))
    const cbcError = await refusal(cbc.join("."))
    expect(cbcError).toBeInstanceOf(errors.JWEInvalid)
    expect(cbcError.message).toBe("Invalid Initialization Vector length")
    const gcm = `${base64url.encode(JSON.stringify({ alg: "dir", enc: "A256GCM" }))}..${base64url.encode(new Uint8Array(16))}.AAAA.${base64url.encode(new Uint8Array(16))}`
    const gcmError = await refusal(gcm)
    expect(gcmError).toBeInstanceOf(errors.JWEInvalid)
    expect(gcmError.message).toBe("Invalid Initialization Vector length")
  })

  /** A GCM token of `{ sub: "1" }` under the session key, with its tag, and the token with any other tag. */
  function gcmToken(): { tag: Buffer; token: (tag: Uint8Array) => string } {
    const key = referenceKey(SECRET, SALT, 32)
    const iv = nodeCrypto.randomBytes(12)
    const protectedHeader = base64url.encode(JSON.stringify({ alg: "dir", enc: "A256GCM" }))
    const cipher = nodeCrypto.createCipheriv("aes-256-gcm", key, iv, { authTagLength: 16 })
    cipher.setAAD(Buffer.from(protectedHeader, "latin1"))
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify({ sub: "1" })), cipher.final()])
    return { tag: cipher.getAuthTag(), token: (t) => `${protectedHeader}..${base64url.encode(iv)}.${base64url.encode(ciphertext)}.${base64url.encode(t)}` }
  }

  it("a GCM tag that is not 16 bytes fails as a decryption failure", async () => {
    const { tag, token } = gcmToken()
    expect((await decode({ token: token(tag), ...params }))!.sub).toBe("1")
    const error = await refusal(token(tag.subarray(0, 12)))
    expect(error).toBeInstanceOf(errors.JWEDecryptionFailed)
    expect(error.cause).toBeUndefined()
  })

  it("a 16-byte GCM tag that does not authenticate fails as a decryption failure, with the cause", async () => {
    const { tag, token } = gcmToken()
    tag[0] = tag[0]! ^ 0x01
    const error = await refusal(token(tag))
    expect(error).toBeInstanceOf(errors.JWEDecryptionFailed)
    expect(error.cause).toBeInstanceOf(Error)
  })
})

describe("claims", () => {
  it("says the claims set must be a top-level JSON object", async () => {
    for (const plaintext of ["{not json", "[1]", "null"]) {
      const error = await refusal(craftToken(await header(), plaintext))
      expect(error).toBeInstanceOf(errors.JWTInvalid)
      expect(error.message).toBe("JWT Claims Set must be a top-level JSON object")
    }
  })

  it("a claims set that is not JSON keeps the parser's error as its cause; a non-object has none", async () => {
    const unparsable = await refusal(craftToken(await header(), "{not json"))
    expect(unparsable).toBeInstanceOf(errors.JWTInvalid)
    expect(unparsable.cause).toBeInstanceOf(SyntaxError)
    const array = await refusal(craftToken(await header(), "[1]"))
    expect(array.cause).toBeUndefined()
  })

  it("says which time claim is not a number", async () => {
    for (const name of ["iat", "nbf", "exp"]) {
      const error = await refusal(craftToken(await header(), JSON.stringify({ [name]: "soon" })))
      expect(error).toBeInstanceOf(errors.JWTClaimValidationFailed)
      expect(error.message).toBe(`"${name}" claim must be a number`)
      expect((error as errors.JWTClaimValidationFailed).claim).toBe(name)
      expect((error as errors.JWTClaimValidationFailed).reason).toBe("invalid")
    }
  })

  it("nbf: up to 15 s in the future is accepted, 16 s is not, with the check named", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2030, 0, 1) })
    expect(await decode({ token: craftToken(await header(), JSON.stringify({ sub: "1", nbf: now() + 15 })), ...params })).toMatchObject({ sub: "1" })
    const error = await refusal(craftToken(await header(), JSON.stringify({ sub: "1", nbf: now() + 16 })))
    expect(error).toBeInstanceOf(errors.JWTClaimValidationFailed)
    expect(error.message).toBe('"nbf" claim timestamp check failed')
    expect((error as errors.JWTClaimValidationFailed).claim).toBe("nbf")
    expect((error as errors.JWTClaimValidationFailed).reason).toBe("check_failed")
  })

  it("exp: the expiry error names the claim and the check", async () => {
    const error = await refusal(craftToken(await header(), JSON.stringify({ sub: "1", exp: now() - 16 })))
    expect(error).toBeInstanceOf(errors.JWTExpired)
    expect(error.message).toBe('"exp" claim timestamp check failed')
    expect((error as errors.JWTExpired).claim).toBe("exp")
    expect((error as errors.JWTExpired).reason).toBe("check_failed")
  })

  it("a replicated aud must equal the claim, compared as JSON", async () => {
    const ok = craftToken(await header({ aud: ["a", "b"] }), JSON.stringify({ sub: "1", aud: ["a", "b"] }))
    expect(await decode({ token: ok, ...params })).toMatchObject({ aud: ["a", "b"] })
    const okString = craftToken(await header({ aud: "a" }), JSON.stringify({ sub: "1", aud: "a" }))
    expect(await decode({ token: okString, ...params })).toMatchObject({ aud: "a" })
    for (const aud of [["b", "a"], "a", undefined]) {
      const error = await refusal(craftToken(await header({ aud: ["a", "b"] }), JSON.stringify({ sub: "1", aud })))
      expect(error).toBeInstanceOf(errors.JWTClaimValidationFailed)
      expect(error.message).toBe('replicated "aud" claim header parameter mismatch')
    }
    const sub = await refusal(craftToken(await header({ sub: "2" }), JSON.stringify({ sub: "1" })))
    expect(sub.message).toBe('replicated "sub" claim header parameter mismatch')
  })

  it("encode refuses a claims set that is not an object", async () => {
    for (const token of [null, [1], "text", 42]) {
      await expect(encode({ token: token as never, ...params }), JSON.stringify(token)).rejects.toThrow(new TypeError("The JWT claims set must be an object"))
    }
  })
})

describe("keys", () => {
  it("says what is wrong with the secret or the salt", async () => {
    for (const secret of [undefined, "", [], ["ok", ""], [1]]) {
      expect(() => secretList(secret as never), JSON.stringify(secret)).toThrow(MissingSecret)
      expect(() => secretList(secret as never)).toThrow("A non-empty secret is required to encode or decode a session token")
    }
    expect(() => checkSalt(undefined)).toThrow(new TypeError("The key derivation salt must be a string (the cookie name)"))
    expect(() => checkSalt("")).not.toThrow()
    await expect(decode({ token: "a.b.c.d.e", secret: SECRET, salt: 1 as never })).rejects.toThrow(TypeError)
    await expect(encode({ token: {}, secret: SECRET, salt: undefined as never })).rejects.toThrow(TypeError)
  })
})

describe("getToken with a plain header record", () => {
  it("reads headers case-insensitively and joins repeated Cookie headers with `; `", async () => {
    const token = await encode({ token: { sub: "7" }, ...params })
    const half = Math.floor(token.length / 2)
    const headers = { Cookie: [`other=1`, `${SALT}.0=${token.slice(0, half)}`, `${SALT}.1=${token.slice(half)}`] }
    expect(await getToken({ req: { headers }, secret: SECRET })).toMatchObject({ sub: "7" })
    expect(await getToken({ req: { headers: { COOKIE: `${SALT}=${token}` } }, secret: SECRET })).toMatchObject({ sub: "7" })
  })

  it("an Authorization header given as a list is joined with `, ` (so two bearers read as none)", async () => {
    const token = await encode({ token: { sub: "7" }, ...params })
    expect(await getToken({ req: { headers: { authorization: [`Bearer ${token}`] } }, secret: SECRET })).toMatchObject({ sub: "7" })
    expect(await getToken({ req: { headers: { authorization: [`Bearer ${token}`, "Bearer x"] } }, secret: SECRET, raw: true })).toBe(`${token},`)
  })

  it("a header whose value is undefined counts as absent, and later keys are not consulted", async () => {
    const token = await encode({ token: { sub: "7" }, ...params })
    expect(await getToken({ req: { headers: { cookie: undefined, Cookie: `${SALT}=${token}` } }, secret: SECRET, raw: true })).toBeNull()
    expect(await getToken({ req: { headers: { "x-cookie": `${SALT}=${token}` } }, secret: SECRET, raw: true })).toBeNull()
  })

  it("a malformed percent-encoded bearer gives null and does not reach the decoder", async () => {
    const decoder = vi.fn()
    expect(await getToken({ req: { headers: { authorization: "Bearer %E0%A4%A" } }, secret: SECRET, decode: decoder })).toBeNull()
    expect(decoder).not.toHaveBeenCalled()
  })

  it("explains a missing secret, and logs an undecodable token at debug level with the error", async () => {
    await expect(getToken({ req: { headers: { cookie: `${SALT}=x` } } })).rejects.toThrow("getToken: `secret` is required to decode the session token")
    const debug = vi.fn()
    expect(await getToken({ req: { headers: { cookie: `${SALT}=x` } }, secret: SECRET, logger: { debug } })).toBeNull()
    expect(debug).toHaveBeenCalledExactlyOnceWith("getToken: the session token could not be decoded", expect.any(errors.JWEInvalid))
    expect(await getToken({ req: { headers: { cookie: `${SALT}=x` } }, secret: SECRET, logger: {} })).toBeNull()
  })
})

describe("the node path's IV pool", () => {
  it("hands out a fresh 16-byte IV to every token, across refills", async () => {
    const ivs = new Set<string>()
    // 4096-byte pool, 16 bytes per IV: 600 tokens refill it twice.
    for (let i = 0; i < 600; i++) {
      const token = await encode({ token: { i }, ...params })
      const iv = token.split(".")[2]!
      expect(base64url.decode(iv)).toHaveLength(16)
      ivs.add(iv)
      if (i % 97 === 0) expect(await decode({ token, ...params })).toMatchObject({ i })
    }
    expect(ivs.size).toBe(600)
  })
})

describe("CBC padding", () => {
  it("a correctly authenticated ciphertext with bad padding fails as a decryption failure, with the cause", async () => {
    const key = referenceKey(SECRET, SALT, 64)
    const protectedHeader = base64url.encode(JSON.stringify(await header()))
    const iv = nodeCrypto.randomBytes(16)
    const cipher = nodeCrypto.createCipheriv("aes-256-cbc", key.subarray(32), iv).setAutoPadding(false)
    // One block whose last byte (0x00) is no valid PKCS#7 padding.
    const ciphertext = Buffer.concat([cipher.update(Buffer.alloc(16, 0)), cipher.final()])
    const aad = Buffer.from(protectedHeader, "latin1")
    const al = Buffer.alloc(8)
    al.writeUInt32BE(aad.length * 8, 4)
    const tag = nodeCrypto.createHmac("sha512", key.subarray(0, 32)).update(aad).update(iv).update(ciphertext).update(al).digest().subarray(0, 32)
    const token = `${protectedHeader}..${base64url.encode(iv)}.${base64url.encode(ciphertext)}.${base64url.encode(tag)}`
    const error = await refusal(token)
    expect(error).toBeInstanceOf(errors.JWEDecryptionFailed)
    expect(error.cause).toBeInstanceOf(Error)
  })
})
