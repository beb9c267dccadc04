import { afterEach, describe, expect, it, vi } from "vitest"
import { EncryptJWT } from "jose"
import * as authjs from "@auth/core/jwt"
import { encode, decode } from "../../../src/jwt.js"
import { useNodeCrypto } from "../../../src/core/jwt/runtime.js"
import { craftToken, decodeHeader, flipBit, nowInSeconds, PATHS, referenceKey, SALT, SECRET, SECURE_SALT } from "./helpers.js"

afterEach(() => {
  vi.useRealTimers()
  useNodeCrypto(true)
})

const session = { name: "Ada Lovelace", email: "ada@example.com", picture: "https://example.com/ada.png", sub: "8d7c", extra: { n: 1 } }

describe.each(PATHS)("with @auth/core 0.41.3, $name path", ({ select }) => {
  describe.each([SALT, SECURE_SALT])("salt %s", (salt) => {
    it("decodes a token made by @auth/core", async () => {
      select()
      const token = await authjs.encode({ token: session, secret: SECRET, salt, maxAge: 3600 })
      const theirs = await authjs.decode({ token, secret: SECRET, salt })
      const ours = await decode({ token, secret: SECRET, salt })
      expect(ours).toEqual(theirs)
      expect(ours).toMatchObject(session)
    })

    it("@auth/core decodes a token made here", async () => {
      select()
      const token = await encode({ token: session, secret: SECRET, salt, maxAge: 3600 })
      const theirs = await authjs.decode({ token, secret: SECRET, salt })
      expect(theirs).toEqual(await decode({ token, secret: SECRET, salt }))
      expect(theirs).toMatchObject(session)
      expect(theirs!.exp! - theirs!.iat!).toBe(3600)
    })

    it("writes the same claims in the same order as @auth/core, replacing iat/exp/jti in place", async () => {
      select()
      const input = { a: 1, iat: 5, b: undefined, jti: "mine", c: "x" }
      const ours = await decode({ token: await encode({ token: input, secret: SECRET, salt }), secret: SECRET, salt })
      const theirs = await authjs.decode({ token: await authjs.encode({ token: input, secret: SECRET, salt }), secret: SECRET, salt })
      expect(Object.keys(ours!)).toEqual(Object.keys(theirs!))
      expect(Object.keys(ours!)).toEqual(["a", "iat", "jti", "c", "exp"])
      expect(ours!.jti).not.toBe("mine")
    })

    it("writes the same protected header (same kid) as @auth/core", async () => {
      select()
      const ours = await encode({ token: {}, secret: SECRET, salt })
      const theirs = await authjs.encode({ token: {}, secret: SECRET, salt })
      expect(ours.split(".")[0]).toBe(theirs.split(".")[0])
      expect(decodeHeader(ours)).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid: expect.any(String) })
    })

    it("refuses what @auth/core refuses: other salt, tampering", async () => {
      select()
      const otherSalt = salt === SALT ? SECURE_SALT : SALT
      const theirs = await authjs.encode({ token: session, secret: SECRET, salt })
      const ours = await encode({ token: session, secret: SECRET, salt })
      for (const token of [theirs, ours]) {
        await expect(authjs.decode({ token, secret: SECRET, salt: otherSalt })).rejects.toThrow("no matching decryption secret")
        await expect(decode({ token, secret: SECRET, salt: otherSalt })).rejects.toThrow("no matching decryption secret")
        for (const tampered of [flipBit(token, 2), flipBit(token, 3, 5), flipBit(token, 4, 9)]) {
          await expect(authjs.decode({ token: tampered, secret: SECRET, salt })).rejects.toThrow()
          await expect(decode({ token: tampered, secret: SECRET, salt })).rejects.toThrow()
        }
      }
    })
  })

  describe("secret rotation", () => {
    it("encode uses the first secret: @auth/core reads it with the first alone, not the second", async () => {
      select()
      const token = await encode({ token: session, secret: ["new", "old"], salt: SALT })
      expect(await authjs.decode({ token, secret: "new", salt: SALT })).toMatchObject(session)
      await expect(authjs.decode({ token, secret: "old", salt: SALT })).rejects.toThrow("no matching decryption secret")
    })

    it("@auth/core's first-secret choice is read here with the first alone", async () => {
      select()
      const token = await authjs.encode({ token: session, secret: ["new", "old"], salt: SALT })
      expect(await decode({ token, secret: "new", salt: SALT })).toMatchObject(session)
      await expect(decode({ token, secret: "old", salt: SALT })).rejects.toThrow("no matching decryption secret")
    })

    it("decode with [new, old] reads an old-secret token from either side; a mismatch throws", async () => {
      select()
      const rotation = { secret: ["new", "old"], salt: SALT }
      const fromAuthjs = await authjs.encode({ token: { sub: "a" }, secret: "old", salt: SALT })
      const fromUs = await encode({ token: { sub: "b" }, secret: "old", salt: SALT })
      expect((await decode({ token: fromAuthjs, ...rotation }))!.sub).toBe("a")
      expect((await authjs.decode({ token: fromUs, ...rotation }))!.sub).toBe("b")
      for (const token of [fromAuthjs, fromUs]) {
        await expect(decode({ token, secret: ["new", "newer"], salt: SALT })).rejects.toThrow("no matching decryption secret")
        await expect(authjs.decode({ token, secret: ["new", "newer"], salt: SALT })).rejects.toThrow("no matching decryption secret")
      }
    })
  })

  describe("kid-less tokens", () => {
    const kidless = (secret: string) =>
      new EncryptJWT({ sub: "no-kid" })
        .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
        .setIssuedAt()
        .setExpirationTime("1h")
        .encrypt(referenceKey(secret, SALT))

    it("both read a kid-less token with the first secret only", async () => {
      select()
      const token = await kidless("old")
      for (const secret of ["old", ["old", "new"]]) {
        expect(await decode({ token, secret, salt: SALT })).toEqual(await authjs.decode({ token, secret, salt: SALT }))
        expect((await decode({ token, secret, salt: SALT }))!.sub).toBe("no-kid")
      }
      await expect(decode({ token, secret: ["new", "old"], salt: SALT })).rejects.toThrow()
      await expect(authjs.decode({ token, secret: ["new", "old"], salt: SALT })).rejects.toThrow()
    })
  })

  describe("agreement on edge cases", () => {
    it("expiry tolerance matches @auth/core to the second", async () => {
      select()
      const start = Date.UTC(2031, 5, 1)
      vi.useFakeTimers({ toFake: ["Date"] })
      vi.setSystemTime(start)
      const token = await authjs.encode({ token: { sub: "1" }, secret: SECRET, salt: SALT, maxAge: 10 })
      for (const offset of [10, 20, 24, 25, 26, 100]) {
        vi.setSystemTime(start + offset * 1000)
        const theirs = await authjs.decode({ token, secret: SECRET, salt: SALT }).then(() => "ok", () => "refused")
        const ours = await decode({ token, secret: SECRET, salt: SALT }).then(() => "ok", () => "refused")
        expect([offset, ours]).toEqual([offset, theirs])
        expect(ours).toBe(offset < 25 ? "ok" : "refused")
      }
    })

    it("both refuse the same malformed headers and claims", async () => {
      select()
      const { kid } = decodeHeader(await authjs.encode({ token: {}, secret: SECRET, salt: SALT }))
      const base = { alg: "dir", enc: "A256CBC-HS512", kid }
      const claims = JSON.stringify({ sub: "1", exp: nowInSeconds() + 60 })
      const cases = [
        craftToken({ ...base, zip: "DEF" }, claims),
        craftToken({ ...base, crit: ["b64"], b64: true }, claims),
        craftToken({ ...base, alg: "A256KW" }, claims),
        craftToken({ ...base, enc: "A128GCM" }, claims),
        craftToken(base, "[1]"),
        craftToken(base, JSON.stringify({ exp: "soon" })),
        craftToken({ ...base, iss: "a" }, JSON.stringify({ iss: "b" })),
      ]
      for (const token of cases) {
        await expect(authjs.decode({ token, secret: SECRET, salt: SALT })).rejects.toThrow()
        await expect(decode({ token, secret: SECRET, salt: SALT })).rejects.toThrow()
      }
      // control: the same construction with a clean header and claims is accepted by both
      const clean = craftToken(base, claims)
      expect(await decode({ token: clean, secret: SECRET, salt: SALT })).toEqual(await authjs.decode({ token: clean, secret: SECRET, salt: SALT }))
    })
  })
})
