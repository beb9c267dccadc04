import { afterEach, describe, expect, it, vi } from "vitest"
import { EncryptJWT, errors, type CompactJWEHeaderParameters } from "jose"
import { encode, decode } from "../../../src/jwt.js"
import { deriveKey } from "../../../src/core/jwt/key.js"
import { useNodeCrypto } from "../../../src/core/jwt/runtime.js"
import { craftToken, flipBit, nowInSeconds, PATHS, referenceKey, SALT, SECRET, SECURE_SALT } from "./helpers.js"

afterEach(() => {
  vi.useRealTimers()
  useNodeCrypto(true)
})

const params = { secret: SECRET, salt: SALT }
const kid = async (length = 64) => (await deriveKey(SECRET, SALT, length)).kid
const header = async (extra: Record<string, unknown> = {}) => ({ alg: "dir", enc: "A256CBC-HS512", kid: await kid(), ...extra })
const claims = (extra: Record<string, unknown> = {}) => JSON.stringify({ sub: "1", exp: nowInSeconds() + 60, ...extra })

describe.each(PATHS)("$name path", ({ select }) => {
  describe("expiry", () => {
    const start = Date.UTC(2030, 0, 1, 12, 0, 0)

    it("accepts a token up to 15 s after exp and refuses it from there on", async () => {
      select()
      vi.useFakeTimers({ toFake: ["Date"] })
      vi.setSystemTime(start)
      const token = await encode({ token: { sub: "1" }, maxAge: 60, ...params })
      vi.setSystemTime(start + (60 + 14) * 1000)
      expect((await decode({ token, ...params }))!.sub).toBe("1")
      vi.setSystemTime(start + (60 + 15) * 1000)
      await expect(decode({ token, ...params })).rejects.toBeInstanceOf(errors.JWTExpired)
      vi.setSystemTime(start + 3600 * 1000)
      await expect(decode({ token, ...params })).rejects.toThrow(/"exp" claim timestamp check failed/)
    })

    it("an already expired token (negative maxAge) is refused", async () => {
      select()
      const token = await encode({ token: { sub: "1" }, maxAge: -60, ...params })
      await expect(decode({ token, ...params })).rejects.toBeInstanceOf(errors.JWTExpired)
    })

    it("nbf is honoured with the same 15 s tolerance", async () => {
      select()
      const now = nowInSeconds()
      const soon = craftToken(await header(), claims({ nbf: now + 10 }))
      expect((await decode({ token: soon, ...params }))!.sub).toBe("1")
      const later = craftToken(await header(), claims({ nbf: now + 60 }))
      await expect(decode({ token: later, ...params })).rejects.toThrow(/"nbf" claim timestamp check failed/)
    })

    it.each(["exp", "nbf", "iat"])("a non-number %s makes the token invalid", async (name) => {
      select()
      const token = craftToken(await header(), claims({ [name]: String(nowInSeconds() + 60) }))
      await expect(decode({ token, ...params })).rejects.toThrow(`"${name}" claim must be a number`)
    })
  })

  describe("payload", () => {
    it("a crafted, well-formed token decodes (control for the cases below)", async () => {
      select()
      expect(await decode({ token: craftToken(await header(), claims({ a: 1 })), ...params })).toMatchObject({ sub: "1", a: 1 })
    })

    it.each(["[1,2]", "null", "42", '"text"', "{not json"])("refuses a claims set that is not a JSON object: %s", async (plaintext) => {
      select()
      await expect(decode({ token: craftToken(await header(), plaintext), ...params })).rejects.toBeInstanceOf(errors.JWTInvalid)
    })

    it("refuses a claim replicated in the header with another value", async () => {
      select()
      expect((await decode({ token: craftToken(await header({ sub: "1" }), claims()), ...params }))!.sub).toBe("1")
      await expect(decode({ token: craftToken(await header({ sub: "2" }), claims()), ...params })).rejects.toThrow(/replicated "sub"/)
    })
  })

  describe("tampering", () => {
    it.each([
      ["IV", 2],
      ["ciphertext", 3],
      ["tag", 4],
    ])("a flipped bit in the %s is detected", async (_part, index) => {
      select()
      const token = await encode({ token: { sub: "1" }, ...params })
      for (const at of [0, 7, 15]) {
        await expect(decode({ token: flipBit(token, index, at), ...params })).rejects.toBeInstanceOf(errors.JWEDecryptionFailed)
      }
    })

    it("a different but valid protected header is detected (it is the AAD)", async () => {
      select()
      const token = await encode({ token: { sub: "1" }, ...params })
      const parts = token.split(".")
      parts[0] = Buffer.from(JSON.stringify(await header({ typ: "JWT" }))).toString("base64url")
      await expect(decode({ token: parts.join("."), ...params })).rejects.toBeInstanceOf(errors.JWEDecryptionFailed)
    })

    it("a truncated or extended tag is refused", async () => {
      select()
      const token = await encode({ token: { sub: "1" }, ...params })
      const parts = token.split(".")
      const tag = Buffer.from(parts[4]!, "base64url")
      for (const changed of [tag.subarray(0, 16), Buffer.concat([tag, Buffer.alloc(1)])]) {
        parts[4] = changed.toString("base64url")
        await expect(decode({ token: parts.join("."), ...params })).rejects.toThrow()
      }
    })

    it("refuses a token that is not compact JWE", async () => {
      select()
      const token = await encode({ token: { sub: "1" }, ...params })
      const parts = token.split(".")
      for (const bad of [
        parts.slice(0, 4).join("."),
        `${token}.x`,
        [parts[0], "AAAA", ...parts.slice(2)].join("."), // dir carries no encrypted key
        [parts[0], "", parts[2], `${parts[3]}*`, parts[4]].join("."), // not base64url
        "garbage",
      ]) {
        await expect(decode({ token: bad, ...params })).rejects.toBeInstanceOf(errors.JWEInvalid)
      }
    })
  })

  describe("keys", () => {
    it("a wrong salt finds no key", async () => {
      select()
      const token = await encode({ token: { sub: "1" }, ...params })
      await expect(decode({ token, secret: SECRET, salt: SECURE_SALT })).rejects.toThrow("no matching decryption secret")
    })

    it("a wrong salt on a kid-less token fails decryption", async () => {
      select()
      const token = craftToken({ alg: "dir", enc: "A256CBC-HS512" }, claims())
      expect((await decode({ token, ...params }))!.sub).toBe("1")
      await expect(decode({ token, secret: SECRET, salt: SECURE_SALT })).rejects.toBeInstanceOf(errors.JWEDecryptionFailed)
    })

    it("a wrong secret finds no key", async () => {
      select()
      const token = await encode({ token: { sub: "1" }, ...params })
      const error = await decode({ token, secret: "other", salt: SALT }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toBe("no matching decryption secret")
    })

    it("secret rotation: [new, old] reads tokens of both; kid-less tokens only with the first", async () => {
      select()
      const old = await encode({ token: { sub: "old" }, secret: "old-secret", salt: SALT })
      const current = await encode({ token: { sub: "new" }, secret: "new-secret", salt: SALT })
      const rotation = { secret: ["new-secret", "old-secret"], salt: SALT }
      expect((await decode({ token: old, ...rotation }))!.sub).toBe("old")
      expect((await decode({ token: current, ...rotation }))!.sub).toBe("new")
      await expect(decode({ token: old, secret: ["new-secret", "third"], salt: SALT })).rejects.toThrow("no matching decryption secret")
      const kidless = craftToken({ alg: "dir", enc: "A256CBC-HS512" }, claims(), referenceKey("old-secret", SALT))
      await expect(decode({ token: kidless, ...rotation })).rejects.toBeInstanceOf(errors.JWEDecryptionFailed)
      expect((await decode({ token: kidless, secret: ["old-secret", "new-secret"], salt: SALT }))!.sub).toBe("1")
    })
  })

  describe("header", () => {
    it.each([
      ["zip", { zip: "DEF" }, errors.JOSENotSupported],
      ["crit", { crit: ["exp"], exp: 1 }, errors.JWEInvalid],
      ["alg A256KW", { alg: "A256KW" }, errors.JOSEAlgNotAllowed],
      ["alg none", { alg: "none" }, errors.JOSEAlgNotAllowed],
      ["enc A128CBC-HS256", { enc: "A128CBC-HS256" }, errors.JOSEAlgNotAllowed],
      ["no enc", { enc: undefined }, errors.JOSEAlgNotAllowed],
    ])("refuses %s", async (_name, extra, type) => {
      select()
      const token = craftToken(await header(extra), claims())
      await expect(decode({ token, ...params })).rejects.toBeInstanceOf(type)
    })

    it("refuses a header that is not a JSON object", async () => {
      select()
      const token = await encode({ token: {}, ...params })
      for (const json of ["[]", "null", "{"]) {
        const parts = token.split(".")
        parts[0] = Buffer.from(json).toString("base64url")
        await expect(decode({ token: parts.join("."), ...params })).rejects.toBeInstanceOf(errors.JWEInvalid)
      }
    })
  })

  describe("A256GCM", () => {
    const gcmToken = (protectedHeader: CompactJWEHeaderParameters, key: Uint8Array) =>
      new EncryptJWT({ sub: "gcm" }).setProtectedHeader(protectedHeader).setIssuedAt().setExpirationTime("1h").encrypt(key)

    it("decodes a token made by jose with a 32-byte key, with and without kid", async () => {
      select()
      const key = referenceKey(SECRET, SALT, 32)
      const withKid = await gcmToken({ alg: "dir", enc: "A256GCM", kid: await kid(32) }, key)
      const withoutKid = await gcmToken({ alg: "dir", enc: "A256GCM" }, key)
      expect((await decode({ token: withKid, ...params }))!.sub).toBe("gcm")
      expect((await decode({ token: withoutKid, ...params }))!.sub).toBe("gcm")
      expect((await decode({ token: withKid, secret: ["other", SECRET], salt: SALT }))!.sub).toBe("gcm")
    })

    it("refuses a GCM token with a tampered or truncated tag, or the CBC kid", async () => {
      select()
      const key = referenceKey(SECRET, SALT, 32)
      const token = await gcmToken({ alg: "dir", enc: "A256GCM", kid: await kid(32) }, key)
      await expect(decode({ token: flipBit(token, 4, 3), ...params })).rejects.toBeInstanceOf(errors.JWEDecryptionFailed)
      await expect(decode({ token: flipBit(token, 3, 0), ...params })).rejects.toBeInstanceOf(errors.JWEDecryptionFailed)
      const parts = token.split(".")
      parts[4] = Buffer.from(parts[4]!, "base64url").subarray(0, 12).toString("base64url")
      await expect(decode({ token: parts.join("."), ...params })).rejects.toThrow()
      const wrongKid = await gcmToken({ alg: "dir", enc: "A256GCM", kid: await kid(64) }, key)
      await expect(decode({ token: wrongKid, ...params })).rejects.toThrow("no matching decryption secret")
    })
  })
})
