import { afterEach, describe, expect, it, vi } from "vitest"
import { encode, decode } from "../../../src/jwt.js"
import { deriveKey } from "../../../src/core/jwt/key.js"
import { nodeRuntime, useNodeCrypto } from "../../../src/core/jwt/runtime.js"
import { decodeHeader, decodePart, nowInSeconds, PATHS, SALT, SECRET } from "./helpers.js"

afterEach(() => {
  useNodeCrypto(true)
  vi.restoreAllMocks()
})

describe.each(PATHS)("$name path", ({ name, select }) => {
  it("round-trips the claims and adds iat, exp and jti", async () => {
    select()
    const before = nowInSeconds()
    const token = await encode({ token: { sub: "user-1", name: "Ada", roles: ["admin"], nested: { a: 1 } }, secret: SECRET, salt: SALT, maxAge: 600 })
    const claims = await decode({ token, secret: SECRET, salt: SALT })
    expect(claims).toMatchObject({ sub: "user-1", name: "Ada", roles: ["admin"], nested: { a: 1 } })
    expect(claims!.iat).toBeGreaterThanOrEqual(before)
    expect(claims!.iat).toBeLessThanOrEqual(nowInSeconds())
    expect(claims!.exp).toBe(claims!.iat! + 600)
    expect(claims!.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it("defaults maxAge to 30 days and the token to {}", async () => {
    select()
    const claims = await decode({ token: await encode({ secret: SECRET, salt: SALT }), secret: SECRET, salt: SALT })
    expect(Object.keys(claims!).sort()).toEqual(["exp", "iat", "jti"])
    expect(claims!.exp! - claims!.iat!).toBe(2_592_000)
  })

  it("overrides the token's own iat, exp and jti, and drops undefined values", async () => {
    select()
    const token = await encode({ token: { iat: 1, exp: 2, jti: "mine", gone: undefined, kept: null }, secret: SECRET, salt: SALT })
    const claims = await decode({ token, secret: SECRET, salt: SALT })
    expect(claims!.iat).not.toBe(1)
    expect(claims!.exp).not.toBe(2)
    expect(claims!.jti).not.toBe("mine")
    expect("gone" in claims!).toBe(false)
    expect(claims!.kept).toBeNull()
  })

  it("keeps an own __proto__ claim as data, like a spread would", async () => {
    select()
    const token = await encode({ token: JSON.parse('{"__proto__":{"admin":true},"sub":"1"}') as Record<string, unknown>, secret: SECRET, salt: SALT })
    const claims = await decode({ token, secret: SECRET, salt: SALT })
    expect(Object.keys(claims!)).toEqual(["__proto__", "sub", "iat", "exp", "jti"])
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype)
    expect((claims as { admin?: boolean }).admin).toBeUndefined()
  })

  it("writes exactly the protected header {alg, enc, kid} with the derived kid", async () => {
    select()
    const token = await encode({ token: {}, secret: SECRET, salt: SALT })
    const { kid } = await deriveKey(SECRET, SALT, 64)
    const parts = token.split(".")
    expect(parts).toHaveLength(5)
    expect(parts[1]).toBe("")
    expect(Buffer.from(parts[0]!, "base64url").toString()).toBe(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid }))
    expect(decodeHeader(token)).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid })
    expect(decodePart(token, 2).byteLength).toBe(16) // IV
    expect(decodePart(token, 4).byteLength).toBe(32) // tag: half of HMAC-SHA512
    expect(decodePart(token, 3).byteLength % 16).toBe(0)
  })

  it("uses a fresh IV and jti each time", async () => {
    select()
    const a = await encode({ token: { sub: "1" }, secret: SECRET, salt: SALT })
    const b = await encode({ token: { sub: "1" }, secret: SECRET, salt: SALT })
    expect(a.split(".")[2]).not.toBe(b.split(".")[2])
    expect((await decode({ token: a, secret: SECRET, salt: SALT }))!.jti).not.toBe((await decode({ token: b, secret: SECRET, salt: SALT }))!.jti)
  })

  it("keeps non-ASCII claims intact", async () => {
    select()
    const token = await encode({ token: { name: "Zoë 🚀 日本" }, secret: SECRET, salt: SALT })
    expect((await decode({ token, secret: SECRET, salt: SALT }))!.name).toBe("Zoë 🚀 日本")
  })

  it("returns null for an empty token", async () => {
    select()
    expect(await decode({ token: "", secret: SECRET, salt: SALT })).toBeNull()
    expect(await decode({ token: undefined, secret: SECRET, salt: SALT })).toBeNull()
  })

  it("encodes with the first secret of an array", async () => {
    select()
    const token = await encode({ token: { sub: "1" }, secret: ["new", "old"], salt: SALT })
    expect((await decode({ token, secret: "new", salt: SALT }))!.sub).toBe("1")
    await expect(decode({ token, secret: "old", salt: SALT })).rejects.toThrow("no matching decryption secret")
  })

  it(`runs on ${name === "node" ? "node:crypto" : "WebCrypto"} only`, async () => {
    select()
    const encrypt = vi.spyOn(globalThis.crypto.subtle, "encrypt")
    const decrypt = vi.spyOn(globalThis.crypto.subtle, "decrypt")
    const token = await encode({ token: { sub: "1" }, secret: SECRET, salt: SALT })
    await decode({ token, secret: SECRET, salt: SALT })
    expect(nodeRuntime() !== undefined).toBe(name === "node")
    const calls = encrypt.mock.calls.length + decrypt.mock.calls.length
    if (name === "node") expect(calls).toBe(0)
    else expect(calls).toBeGreaterThanOrEqual(2)
  })
})

describe("across paths", () => {
  it("a token from either path decodes on the other", async () => {
    PATHS[0].select()
    const fromNode = await encode({ token: { sub: "from-node" }, secret: SECRET, salt: SALT })
    PATHS[1].select()
    const fromPortable = await encode({ token: { sub: "from-portable" }, secret: SECRET, salt: SALT })
    expect((await decode({ token: fromNode, secret: SECRET, salt: SALT }))!.sub).toBe("from-node")
    expect(decodeHeader(fromPortable)).toEqual(decodeHeader(fromNode))
    PATHS[0].select()
    expect((await decode({ token: fromPortable, secret: SECRET, salt: SALT }))!.sub).toBe("from-portable")
  })
})
